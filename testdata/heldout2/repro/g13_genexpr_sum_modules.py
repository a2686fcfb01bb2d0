# A multi-branch block summing its branches with a generator expression over the modules.
import torch, torch.nn as nn

class Branches(nn.Module):
    def __init__(self, n=3):
        super().__init__()
        self.branches = nn.ModuleList(nn.Linear(8, 8) for _ in range(n))

    def forward(self, x):
        return sum(b(x) for b in self.branches) / len(self.branches)

m = torch.compile(Branches(), backend="eager")
with torch.no_grad():
    for _ in range(3):
        y = m(torch.randn(4, 8))
print("ok", y.shape)
