import torch

torch.manual_seed(0)
x, y = torch.randn(8, 8), torch.randn(8, 1)

model_a = torch.nn.Linear(8, 1)
opt_a = torch.optim.Adam(model_a.parameters(), lr=0.01)  # no scheduler


@torch.compile(backend="eager")
def step_a():
    opt_a.step()


for i in range(3):
    torch.nn.functional.mse_loss(model_a(x), y).backward()
    step_a()
    opt_a.zero_grad()

model_b = torch.nn.Linear(8, 1)
opt_b = torch.optim.Adam(model_b.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.LambdaLR(opt_b, lambda e: 1.0)  # constant LR: no lr recompile


@torch.compile(backend="eager")
def step_b():
    opt_b.step()


for i in range(3):
    torch.nn.functional.mse_loss(model_b(x), y).backward()
    step_b()
    opt_b.zero_grad()
    sched.step()
print("done")
