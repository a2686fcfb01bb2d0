import torch
torch.compiler.set_stance("force_eager")
@torch.compile(backend="eager")
def f(x):
    print("break")
    return x + 1
f(torch.randn(3))
