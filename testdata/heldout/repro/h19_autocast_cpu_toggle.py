# Mixed precision on CPU: the same compiled model run under torch.autocast("cpu", bfloat16) and without it.
import torch, torch.nn as nn

model = torch.compile(nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 4)), backend="eager")
x = torch.randn(2, 8)
model(x)
with torch.autocast("cpu", dtype=torch.bfloat16):
    model(x)
model(x)
print("ok")
