import torch
torch._dynamo.config.cache_size_limit = 2
torch._dynamo.config.recompile_limit = 2
@torch.compile(backend="eager", dynamic=False)
def f(x, k):
    return x * k
for k in range(6):
    f(torch.randn(3), k)
