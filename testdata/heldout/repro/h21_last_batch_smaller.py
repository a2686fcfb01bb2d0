# An epoch over a dataset of 30 samples with batch size 8: the last batch has 6 (no drop_last).
import torch, torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
ds = TensorDataset(torch.randn(30, 8), torch.randn(30, 1))
model = torch.compile(nn.Linear(8, 1), backend="eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for x, y in DataLoader(ds, batch_size=8):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
print("epoch done")
