# A program that catches torch.compile's failure under fullgraph=True, logs it and goes on eagerly.
import logging
import torch

logging.basicConfig()
log = logging.getLogger("app")


def f(x):
    x = x + 1
    torch._dynamo.graph_break()
    return x * 2


try:
    out = torch.compile(f, backend="eager", fullgraph=True)(torch.randn(3))
except Exception:
    log.exception("compile failed")
    log.warning("going on eager")
    out = f(torch.randn(3))
print("done", out.shape)
