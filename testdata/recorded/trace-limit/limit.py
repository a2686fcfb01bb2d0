import torch
torch._dynamo.config.recompile_limit = 2
@torch.compile(backend="eager")
def f(x, mode):
    if mode == "a": return x + 1
    return x * 2
for m in ["a", "b", "c", "d", "e"]:
    f(torch.randn(3), m)
print("ok")
