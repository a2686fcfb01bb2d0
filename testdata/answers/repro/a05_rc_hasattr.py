# A lazily created buffer: forward sets self.pe on its first call, so the second call fails a hasattr guard.
import torch

class PosEnc(torch.nn.Module):
    def forward(self, x):
        if not hasattr(self, "pe"):
            self.pe = torch.arange(x.shape[-1], dtype=x.dtype)
        return x + self.pe

m = torch.compile(PosEnc(), backend="eager")
x = torch.randn(2, 8)
for _ in range(3):
    m(x)
print("done")
