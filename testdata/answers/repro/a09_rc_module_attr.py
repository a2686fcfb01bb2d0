# A module attribute changed between calls (a plain Python number on the module): the guard is on self.scale.
import torch

class Scale(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.scale = 1

    def forward(self, x):
        return self.lin(x) * self.scale

m = Scale()
cm = torch.compile(m, backend="eager")
x = torch.randn(2, 4)
for s in (1, 2, 3):
    m.scale = s
    cm(x)
print("done")
