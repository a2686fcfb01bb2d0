# Early exit: a ModuleList iterated to a depth that varies per call (layer dropping).
import torch, torch.nn as nn

class Deep(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(8, 8) for _ in range(6))

    def forward(self, x, depth):
        for layer in self.layers[:depth]:
            x = torch.relu(layer(x))
        return x

m = torch.compile(Deep(), backend="eager")
for depth in (6, 4, 5, 3):
    m(torch.randn(2, 8), depth)
print("ok")
