import os, time, torch, torch.distributed as dist
dist.init_process_group("gloo")
r = dist.get_rank()
@torch.compile
def f(x):
    y = x * 2
    print("debug")          # graph break on every rank
    return y + 1
x = torch.ones(4)
if r == 0:
    time.sleep(600)         # rank 0 stuck before it ever compiles (e.g. a hung data loader)
y = f(x)
dist.all_reduce(y)
print(f"done rank {r}", flush=True)
