import os, torch, torch.distributed as dist
dist.init_process_group("gloo")
r = dist.get_rank()
@torch.compile
def f(x):
    return x * 2 + 1
x = torch.ones(4)
for step in range(3):
    y = f(x)
    dist.all_reduce(y)
    print(f"step {step} done rank {r}", flush=True)
if r == 0:
    dist.all_reduce(y)  # extra collective rank 1 never does
    print("rank0 extra done", flush=True)
else:
    import time; time.sleep(600)
dist.destroy_process_group()
