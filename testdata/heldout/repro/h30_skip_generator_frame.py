# A compiled function that iterates a generator defined in the program, with a print inside the generator loop.
import torch

def chunks(x, n):
    for i in range(0, x.shape[0], n):
        print("chunk", i)
        yield x[i:i + n]

@torch.compile(backend="eager")
def total(x):
    s = 0
    for c in chunks(x, 2):
        s = s + c.sum()
    return s

print(total(torch.randn(6)))
print(total(torch.randn(6)))
