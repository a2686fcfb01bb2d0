import torch
def bad_backend(gm, ex):
    raise RuntimeError("backend exploded")
@torch.compile(backend=bad_backend)
def f(x):
    return x * 2
try:
    f(torch.randn(3))
except Exception as e:
    print("caught:", type(e).__name__, e)
print("done")
