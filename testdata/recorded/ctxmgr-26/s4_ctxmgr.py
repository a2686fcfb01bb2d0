import torch
import contextlib

@contextlib.contextmanager
def mine():
    yield

@torch.compile
def f(x):
    with mine():
        x = x + 1
    return x.cos()

for _ in range(2):
    f(torch.randn(8))
