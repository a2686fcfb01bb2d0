# fullgraph=True and a print: Unsupported raised at the break; the frame never compiled.
import torch

@torch.compile(fullgraph=True, backend="eager")
def f(x):
    y = x * 2
    print("value", y.shape)
    return y + 1

f(torch.randn(4))
print("done")
