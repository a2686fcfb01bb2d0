# The model and its inputs are cast to bfloat16 after a warm-up in float32.
import torch, torch.nn as nn

model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
cmodel = torch.compile(model, backend="eager")
cmodel(torch.randn(2, 8))
model.to(torch.bfloat16)
cmodel(torch.randn(2, 8, dtype=torch.bfloat16))
print("ok")
