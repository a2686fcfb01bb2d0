# cache_size_limit lowered to 2 and an int step argument with dynamic=False: the limit is hit.
import torch
import torch._dynamo

torch._dynamo.config.cache_size_limit = 2

@torch.compile(backend="eager", dynamic=False)
def warmup_lr(x, step):
    return x * min(1.0, (step + 1) / 10)

for step in range(5):
    warmup_lr(torch.randn(3), step)
print("ok")
