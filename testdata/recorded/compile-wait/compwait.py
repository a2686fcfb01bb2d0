import os, time, torch, torch.distributed as dist
dist.init_process_group("gloo")
r = dist.get_rank()
@torch.compile
def f(x):
    for i in range(30):
        x = torch.sin(x) * 2 + torch.cos(x * i)
    return x
x = torch.ones(64)
if r == 1:
    x = f(x)
dist.all_reduce(x)
print(f"done rank {r}", flush=True)
if r == 0:
    dist.barrier()
print("end", flush=True)
