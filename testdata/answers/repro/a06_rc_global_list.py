# A global list mutated between calls: the compiled code read `not history`, so its contents are guarded.
import torch

history = []

@torch.compile(backend="eager")
def step(x):
    if not history:
        y = x * 2
    else:
        y = x + history[-1]
    return y

x = torch.randn(4)
for i in range(3):
    out = step(x)
    history.append(float(i))
print("done")
