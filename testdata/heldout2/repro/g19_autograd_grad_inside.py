# A gradient penalty (WGAN-GP style): torch.autograd.grad of the critic's output inside the compiled loss.
import torch, torch.nn as nn

critic = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))

@torch.compile(backend="eager")
def gp_loss(x):
    x = x.requires_grad_(True)
    out = critic(x).sum()
    (g,) = torch.autograd.grad(out, x, create_graph=True)
    return ((g.norm(dim=1) - 1) ** 2).mean()

for _ in range(2):
    gp_loss(torch.randn(4, 8)).backward()
print("ok")
