# Two ranks compile a function with a print (a graph break) and a Python float argument (recompiles); rank 1
# then raises. Run under torchrun --log-dir logs --tee 3 with the console saved next to the rank files.
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()


@torch.compile
def f(x, scale):
    y = x * scale
    print("side effect", rank)
    return y + 1


x = torch.ones(4)
for s in (1.0, 2.0, 3.0):
    f(x, s)
if rank == 1:
    raise RuntimeError("boom on rank 1")
dist.destroy_process_group()
