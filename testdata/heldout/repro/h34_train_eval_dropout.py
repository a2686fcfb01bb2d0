# Dropout model alternating model.train() and model.eval() for validation between steps.
import torch, torch.nn as nn

net = nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.1), nn.Linear(8, 1))
cnet = torch.compile(net, backend="eager")
for _ in range(2):
    net.train()
    cnet(torch.randn(4, 8)).sum().backward()
    net.eval()
    with torch.no_grad():
        cnet(torch.randn(4, 8))
print("ok")
