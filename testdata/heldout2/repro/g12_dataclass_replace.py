# A frozen config dataclass; forward derives an eval-time copy with dataclasses.replace.
import dataclasses, torch, torch.nn as nn

@dataclasses.dataclass(frozen=True)
class Cfg:
    scale: float = 1.0
    dropout: float = 0.1

class Head(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        cfg = self.cfg if self.training else dataclasses.replace(self.cfg, dropout=0.0)
        return nn.functional.dropout(self.fc(x) * cfg.scale, cfg.dropout, self.training)

head = Head(Cfg()).eval()
f = torch.compile(head, backend="eager")
with torch.no_grad():
    for _ in range(2):
        y = f(torch.randn(4, 8))
print("ok", y.shape)
