# A decoder block with a KV cache: prefill (past=None), then decode steps that cat onto the cache.
import torch, torch.nn as nn, torch.nn.functional as F

class Block(nn.Module):
    def __init__(self, d=16, h=2):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, past=None):
        b, t, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.h, d // self.h).transpose(1, 2) for z in (q, k, v))
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=past is None)
        y = y.transpose(1, 2).reshape(b, t, d)
        return self.out(y), (k, v)

torch.manual_seed(0)
model = torch.compile(Block(), backend="eager")
with torch.no_grad():
    y, past = model(torch.randn(1, 5, 16))          # prefill
    for _ in range(4):                               # decode, one token at a time
        y, past = model(torch.randn(1, 1, 16), past)
print("generated", past[0].shape)
