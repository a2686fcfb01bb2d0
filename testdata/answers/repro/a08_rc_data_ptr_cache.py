# A global cache keyed by data_ptr(): each new tensor adds a key the compiled code read, so every call recompiles.
import torch

_cache = {}

@torch.compile(backend="eager")
def f(x):
    key = x.data_ptr()
    if key not in _cache:
        _cache[key] = x.sum()
    return x * _cache[key]

for _ in range(4):
    f(torch.randn(4))
print("done")
