# A closure cell changed between calls: the compiled function reads `scale` from its enclosing scope, and the
# program sets that variable (nonlocal) before each call; each new value is a new value of the cell the compiled
# code guards on, though no argument changed.
import torch


def make():
    scale = 1.5

    def f(x):
        return x * scale

    def set_scale(v):
        nonlocal scale
        scale = v

    return f, set_scale


f, set_scale = make()
cf = torch.compile(f, backend="eager")
x = torch.randn(4)
for s in (1.5, 2.5, 3.5):
    set_scale(s)
    cf(x)
print("done")
