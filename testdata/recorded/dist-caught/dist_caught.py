import logging, os
import torch
import torch.distributed as dist

logging.basicConfig()
dist.init_process_group("gloo")
rank = dist.get_rank()

def f(x):
    x = x + 1
    if rank == 1:
        torch._dynamo.graph_break()
    return x * 2

try:
    out = torch.compile(f, backend="eager", fullgraph=True)(torch.randn(3))
except Exception:
    logging.getLogger("app").exception("rank %d: compile failed, going eager", rank)
    out = f(torch.randn(3))
dist.all_reduce(out)
dist.destroy_process_group()
print("rank", rank, "done")
