import torch


@torch.compile(backend="eager")
def f(x):
    with torch.no_grad():
        for i in range(3):
            x = x + 1
            print("step", i)  # a graph break inside a loop under a context manager
    return x


print(f(torch.randn(4)).shape)
print("done")
