# A VAE step: reparameterised sample, reconstruction + KL; the KL is read with .item() to anneal beta.
import torch, torch.nn as nn, torch.nn.functional as F

class VAE(nn.Module):
    def __init__(self, d=16, z=4):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Linear(z, d)
        self.beta = 1.0

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        zs = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        kl = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(-1).mean()
        if kl.item() < 0.05:
            self.beta = self.beta * 0.5
        return F.mse_loss(self.dec(zs), x) + self.beta * kl

vae = torch.compile(VAE(), backend="eager")
for _ in range(3):
    loss = vae(torch.randn(4, 16))
print("ok", float(loss))
