import torch


@torch.compile(dynamic=False)
def three_sizes(x):
    return x * 2


@torch.compile
def static_dim(x):
    return x + 1


@torch.compile(dynamic=False)
def int_static(x, n):
    return x * n


@torch.compile
def int_auto(x, n):
    return x - n


@torch.compile
def duck(x, y):
    return x * y.sum()


for n in (8, 16, 32):
    three_sizes(torch.randn(n))

for n in (8, 16):
    t = torch.randn(n)
    torch._dynamo.mark_static(t, 0)
    static_dim(t)

for n in (2, 3):
    int_static(torch.randn(4), n)
    int_auto(torch.randn(4), n)

duck(torch.randn(4), torch.randn(4))
duck(torch.randn(8), torch.randn(4))
duck(torch.randn(8), torch.randn(8))
