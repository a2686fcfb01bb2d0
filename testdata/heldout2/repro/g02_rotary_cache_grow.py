# Rotary position embeddings with a cos/sin table cached on the module and rebuilt, longer, when a longer
# sequence arrives (grown lazily, as many LLM codebases do).
import torch, torch.nn as nn

class Rotary(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.dim = dim
        self.cached_len = 0
        self.cos = self.sin = None

    def _build(self, n):
        inv = 1.0 / (10000 ** (torch.arange(0, self.dim, 2).float() / self.dim))
        ang = torch.outer(torch.arange(n).float(), inv)
        self.cos, self.sin = ang.cos(), ang.sin()
        self.cached_len = n

    def forward(self, x):
        t = x.shape[1]
        if t > self.cached_len:
            self._build(t)
        x1, x2 = x[..., ::2], x[..., 1::2]
        c, s = self.cos[:t], self.sin[:t]
        return torch.cat([x1 * c - x2 * s, x1 * s + x2 * c], dim=-1)

rope = torch.compile(Rotary(), backend="eager")
for t in (4, 8, 16, 8):
    y = rope(torch.randn(2, t, 8))
print("ok", rope.cached_len)
