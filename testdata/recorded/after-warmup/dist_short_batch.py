# Two ranks train in lockstep (gloo, the loss all-reduced each step); only rank 1's batch shrinks at step 30.
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)


@torch.compile
def forward(x):
    return model(x)


for step in range(40):
    n = 5 if rank == 1 and step == 30 else 8
    x, y = torch.randn(n, 16), torch.randn(n, 1)
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(forward(x), y)
    loss.backward()
    opt.step()
    dist.all_reduce(loss.detach())
dist.destroy_process_group()
print("done")
