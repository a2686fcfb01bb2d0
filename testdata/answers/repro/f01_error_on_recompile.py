# torch._dynamo.config.error_on_recompile: the first recompile raises and ends the run.
import torch
import torch._dynamo

torch._dynamo.config.error_on_recompile = True

@torch.compile(backend="eager", dynamic=False)
def f(x):
    return x * 2

f(torch.randn(4))
f(torch.randn(8))
print("done")
