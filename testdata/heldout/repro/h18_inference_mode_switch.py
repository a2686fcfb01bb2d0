# The same compiled model used for training steps, then for evaluation under torch.inference_mode().
import torch, torch.nn as nn

model = torch.compile(nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2)), backend="eager")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(2):
    model(torch.randn(4, 8)).sum().backward()
    opt.step()
    opt.zero_grad()
with torch.inference_mode():
    for _ in range(2):
        model(torch.randn(4, 8))
print("ok")
