# micro-repro: a graph break Dynamo cannot resume from (inside try/finally) -> the frame is skipped (runs eager)
import torch

def f(x):
    y = x * 2
    try:
        print("inside try")          # graph break inside try: cannot resume -> frame skip
        y = y + 1
    finally:
        y = y - 1
    return y.cos()

cf = torch.compile(f, backend="eager")
cf(torch.randn(4))
cf(torch.randn(4))
print("done")
