# The optimizer step compiled on its own (torch.compile(opt.step)), with a cosine LR scheduler changing the lr.
import torch, torch.nn as nn

model = nn.Linear(8, 4)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)

@torch.compile(backend="eager")
def opt_step():
    opt.step()

for _ in range(4):
    model(torch.randn(2, 8)).sum().backward()
    opt_step()
    opt.zero_grad()
    sched.step()
print("ok")
