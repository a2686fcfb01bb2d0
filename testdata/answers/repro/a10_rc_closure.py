# A closure cell: a function made by a factory reads `scale` from its enclosing scope; each new scale is a new
# value of the cell the compiled code guards on.
import torch

def make(scale):
    def inner(x):
        return x * scale
    return inner

x = torch.randn(4)
for s in (1.5, 2.5, 3.5):
    torch.compile(make(s), backend="eager")(x)
print("done")
