import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()

@torch.compile(backend="eager")
def f(x):
    return x * 2 + 1

f(torch.randn(4))
if rank == 1:
    raise RuntimeError("boom on rank 1")
t = torch.ones(1)
dist.all_reduce(t)
dist.destroy_process_group()
