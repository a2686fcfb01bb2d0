# A whole training step compiled: forward, backward, grad clipping, AdamW, a StepLR scheduler.
import torch, torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.9)

@torch.compile(backend="eager")
def train_step(x, y):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    opt.zero_grad(set_to_none=True)
    return loss

for step in range(3):
    loss = train_step(torch.randn(4, 8), torch.randn(4, 1))
    sched.step()
print("loss", loss.item())
