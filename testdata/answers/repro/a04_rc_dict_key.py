# An optional dict key: the batch dict sometimes carries a mask. The guard is on the key set, not a length.
import torch

@torch.compile(backend="eager")
def f(batch):
    x = batch["x"] * 2
    if "mask" in batch:
        x = x * batch["mask"]
    return x.sum()

x = torch.randn(4)
f({"x": x})
f({"x": x, "mask": torch.ones(4)})
f({"x": x})
print("done")
