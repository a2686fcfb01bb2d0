import torch, time, traceback, sys
@torch.compile(backend="eager")
def f(x): return x + 1
f(torch.randn(3))
try:
    while True: time.sleep(1)
except KeyboardInterrupt:
    traceback.print_exc()
    raise RuntimeError("interrupted while waiting for data loader")
