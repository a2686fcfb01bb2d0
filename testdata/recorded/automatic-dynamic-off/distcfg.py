import os, torch, torch.distributed as dist
dist.init_process_group("gloo")
if dist.get_rank() == 1:
    torch._dynamo.config.automatic_dynamic_shapes = False
@torch.compile(backend="eager")
def f(x):
    return x * 2 + 1
for n in (3,4): f(torch.randn(n))
dist.barrier()
dist.destroy_process_group()
