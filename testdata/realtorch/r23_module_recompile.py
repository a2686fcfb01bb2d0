# A compiled nn.Module whose input shape and a Python attribute change: recompiles of the module's forward.
import torch


class Scaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)
        self.mode = 0

    def forward(self, x):
        y = self.lin(x)
        if self.mode:
            y = y * 2
        return y.relu()


def step(model, x):
    return model(x).sum()


model = Scaler()
compiled = torch.compile(model)
for i, n in enumerate([4, 4, 5, 6]):
    compiled.mode = i % 2 if hasattr(compiled, "mode") else 0
    model.mode = i % 2
    step(compiled, torch.randn(n, 8))
print("done")
