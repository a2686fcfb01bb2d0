# An absurd allocation in the compiled step (a size computed wrong): the CPU allocator fails.
import torch

@torch.compile(backend="eager")
def f(x, n):
    return x.new_zeros(n, n) + 1

f(torch.randn(4), 4)
f(torch.randn(4), 4_000_000)
print("done")
