# logging.error, then the exception is raised again: the process dies of it.
import logging

import torch

logging.basicConfig()


@torch.compile(backend="eager", fullgraph=True)
def strict_step(x):
    print("inside a fullgraph function")  # a graph break under fullgraph=True: torch._dynamo.exc.Unsupported
    return x * 2


@torch.compile(backend="eager")
def warmup(x):
    return x.cos() + 1


for n in (4, 8):
    warmup(torch.randn(n))
print("warmup ok")
try:
    strict_step(torch.randn(4))
except Exception:
    logging.error("strict step failed, giving up")
    raise
