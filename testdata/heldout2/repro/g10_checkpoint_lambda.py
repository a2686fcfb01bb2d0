# Activation checkpointing of a block through a lambda (non-reentrant), as a memory saver in training.
import torch, torch.nn as nn
from torch.utils.checkpoint import checkpoint

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(8, 8), nn.Linear(8, 8)

    def forward(self, x):
        h = checkpoint(lambda t: torch.relu(self.a(t)), x, use_reentrant=False)
        return self.b(h)

net = torch.compile(Net(), backend="eager")
for _ in range(2):
    net(torch.randn(4, 8, requires_grad=True)).sum().backward()
print("ok")
