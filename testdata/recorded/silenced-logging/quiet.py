import logging
logging.disable(logging.CRITICAL)
import torch
@torch.compile(backend="eager")
def f(x):
    print("break")
    return x + 1
for n in [2,3,4,5]:
    f(torch.randn(n))
