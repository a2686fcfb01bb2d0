import torch
@torch.compile(backend="eager", fullgraph=True)
def f(x):
    print("side effect")
    return x + 1
try:
    f(torch.randn(3))
except Exception as e:
    print("caught", type(e).__name__)
g = torch.compile(lambda x: x * 2, backend="eager")
g(torch.randn(3))
print("continuing fine")
