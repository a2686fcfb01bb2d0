import torch

torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.9**e)


@torch.compile(backend="eager")
def opt_step():
    opt.step()


x, y = torch.randn(8, 8), torch.randn(8, 1)
for i in range(10):
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt_step()
    opt.zero_grad()
    sched.step()
print("done", sched.get_last_lr())
