# A program that catches torch.compile's failure under fullgraph=True, logs it and goes on eagerly without
# logging anything more: the traceback is the last line of its stderr, and it exits 0.
import logging
import torch

logging.basicConfig()


def f(x):
    x = x + 1
    torch._dynamo.graph_break()
    return x * 2


try:
    out = torch.compile(f, backend="eager", fullgraph=True)(torch.randn(3))
except Exception:
    logging.getLogger("app").exception("compile failed")
    out = f(torch.randn(3))
print("done", out.shape)
