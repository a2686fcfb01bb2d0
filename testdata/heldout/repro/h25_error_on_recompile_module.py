# error_on_recompile set in a test harness; the compiled module is called with a second temperature.
import torch, torch.nn as nn
import torch._dynamo

torch._dynamo.config.error_on_recompile = True

class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 5)

    def forward(self, x, temperature):
        return torch.softmax(self.proj(x) / temperature, dim=-1)

head = torch.compile(Head(), backend="eager")
head(torch.randn(2, 8), 1.0)
head(torch.randn(2, 8), 0.7)
print("ok")
