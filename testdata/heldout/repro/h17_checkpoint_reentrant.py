# Activation checkpointing with the old reentrant variant inside a compiled forward.
import torch, torch.nn as nn
from torch.utils.checkpoint import checkpoint

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 8))
        self.b = nn.Linear(8, 1)

    def forward(self, x):
        h = checkpoint(self.a, x, use_reentrant=True)
        return self.b(h).sum()

net = torch.compile(Net(), backend="eager")
x = torch.randn(4, 8, requires_grad=True)
net(x).backward()
print("ok")
