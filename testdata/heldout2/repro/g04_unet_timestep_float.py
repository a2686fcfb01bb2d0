# A diffusion UNet block conditioned on the timestep, which the sampler passes as a Python float t / T.
import math, torch, torch.nn as nn

class Block(nn.Module):
    def __init__(self, c=8, d=16):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.emb = nn.Linear(d, c)
        self.d = d

    def forward(self, x, t):
        half = self.d // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half) / half)
        e = torch.cat([torch.sin(t * freqs), torch.cos(t * freqs)])
        return torch.relu(self.conv(x) + self.emb(e)[None, :, None, None])

blk = torch.compile(Block(), backend="eager")
x = torch.randn(1, 8, 8, 8)
with torch.no_grad():
    for step in (999, 749, 499, 249):
        x = blk(x, step / 1000.0)
print("ok", x.shape)
