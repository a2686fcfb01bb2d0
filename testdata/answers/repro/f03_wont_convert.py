# suppress_errors=True and a backend that fails: Dynamo logs WON'T CONVERT and the frame runs eager every call.
import torch
import torch._dynamo

torch._dynamo.config.suppress_errors = True

def broken_backend(gm, example_inputs):
    raise RuntimeError("backend cannot lower this graph")

@torch.compile(backend=broken_backend)
def f(x):
    return torch.sin(x) * 2

for _ in range(3):
    f(torch.randn(4))
print("done")
