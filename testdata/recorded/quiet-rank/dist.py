import os, torch, torch.distributed as dist
dist.init_process_group("gloo")
r = dist.get_rank()
@torch.compile(backend="eager")
def f(x):
    x = x + 1
    if r == 1:
        print("rank1")
    return x * 2
f(torch.randn(3))
dist.barrier()
dist.destroy_process_group()
