# A training loop whose batch shrinks at step 30 (the last short batch of an epoch); SHORT=0 keeps every batch full.
import os

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)


@torch.compile
def forward(x):
    return model(x)


short = os.environ.get("SHORT", "1") == "1"
for step in range(40):
    n = 5 if short and step == 30 else 8
    x, y = torch.randn(n, 16), torch.randn(n, 1)
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(forward(x), y)
    loss.backward()
    opt.step()
print("done", float(loss))
