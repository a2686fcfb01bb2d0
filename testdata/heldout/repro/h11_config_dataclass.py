# A config dataclass held by the module and read in forward; the training script changes a field mid-run.
from dataclasses import dataclass
import torch, torch.nn as nn

@dataclass
class Config:
    hidden: int = 16
    residual_scale: float = 1.0
    use_gate: bool = True

class MLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.up = nn.Linear(8, cfg.hidden)
        self.down = nn.Linear(cfg.hidden, 8)

    def forward(self, x):
        h = self.up(x)
        if self.cfg.use_gate:
            h = h * torch.sigmoid(h)
        return x + self.cfg.residual_scale * self.down(h)

cfg = Config()
m = torch.compile(MLP(cfg), backend="eager")
m(torch.randn(2, 8))
cfg.use_gate = False            # ablation switched on mid-run
m(torch.randn(2, 8))
print("ok")
