import logging, os
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
if rank == 1:
    logging.disable(logging.CRITICAL)  # rank 1's program silences logging: its records never print

def f(x):
    print("step")  # a graph break on every rank
    return x * 2

cf = torch.compile(f, backend="eager")
cf(torch.ones(4))
dist.barrier()
dist.destroy_process_group()
