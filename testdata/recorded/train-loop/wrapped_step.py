import functools

import torch

torch.manual_seed(0)
x, y = torch.randn(8, 8), torch.randn(8, 1)
model = torch.nn.Linear(8, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)  # no scheduler
calls = 0
inner = opt.step


@functools.wraps(inner)
def counted_step(*args, **kwargs):
    global calls
    calls += 1
    return inner(*args, **kwargs)


opt.step = counted_step  # the program's own wrapper of opt.step, as a scheduler's is: an instance attribute


@torch.compile(backend="eager")
def opt_step():
    opt.step()


for i in range(3):
    torch.nn.functional.mse_loss(model(x), y).backward()
    opt_step()
    opt.zero_grad()
print("done", calls)
