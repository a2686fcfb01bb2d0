# logger.exception, then the exception is raised again: logged once, then printed again as the process dies.
import logging

import torch

logging.basicConfig()
log = logging.getLogger("train")


@torch.compile(backend="eager")
def step(x):
    y = x * 2 + 1
    if y.sum() > 1e6:  # data-dependent branch: a graph break, then the raise runs eagerly
        raise RuntimeError("loss diverged")
    return y


for n in (4, 8):
    step(torch.randn(n))
print("warmup ok")
try:
    step(torch.full((4,), 1e6))
except RuntimeError:
    log.exception("step failed")
    raise
