# A training loop that catches the exceptions of a compiled step, logs them with logging.exception and goes on:
# the exceptions are not what the process died of (it does not die).
import logging

import torch

logging.basicConfig()  # the default format: "LEVEL:logger:message"


@torch.compile(backend="eager", fullgraph=True)
def strict_step(x):
    print("inside a fullgraph function")  # a graph break under fullgraph=True: torch._dynamo.exc.Unsupported
    return x * 2


@torch.compile(backend="eager")
def step(x):
    y = x * 2 + 1
    if y.sum() > 1e6:  # data-dependent branch: a graph break, then the raise runs eagerly
        raise RuntimeError("loss diverged")
    return y


try:
    strict_step(torch.randn(4))
except Exception:
    logging.exception("strict step failed, falling back")

for n in (4, 8, 16):  # new sizes: recompiles
    step(torch.randn(n))
    print("step ok", n)

try:
    step(torch.full((4,), 1e6))
except RuntimeError:
    logging.exception("step %d diverged, skipping the batch", 4)

for n in (32, 64):
    step(torch.randn(n, 2))
    print("step ok", n)
print("done")
