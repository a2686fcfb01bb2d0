# Code that checks whether it is being compiled or scripted and takes a slower, checked path in eager.
import torch, torch.nn as nn

class Norm(nn.Module):
    def forward(self, x):
        if not torch.compiler.is_compiling() and not torch.jit.is_scripting():
            assert torch.isfinite(x).all(), "non-finite input"
            print("eager path")
        return x / x.norm(dim=-1, keepdim=True).clamp_min(1e-6)

m = torch.compile(Norm(), backend="eager")
for _ in range(3):
    y = m(torch.randn(4, 8))
print("ok", y.shape)
