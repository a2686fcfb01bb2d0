# torch.cond with its predicate given as a Python bool flag (a mode switch), not a tensor.
import torch

def true_fn(x):
    return x.sin()

def false_fn(x):
    return x.cos()

@torch.compile(backend="eager")
def f(x, use_sin: bool):
    return torch.cond(use_sin, true_fn, false_fn, (x,))

x = torch.randn(4)
f(x, True)
f(x, False)
f(x, True)
print("ok")
