import torch

def f(x, n):
    return x * n

cf = torch.compile(f, backend="eager")
for i in range(6):
    cf(torch.ones(4), i)

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.step = 0
    def forward(self, x):
        self.step += 1
        return x * self.step

m = torch.compile(M(), backend="eager")
for i in range(4):
    m(torch.ones(4))

K = 0
def g(x):
    return x + K

cg = torch.compile(g, backend="eager")
for i in range(4):
    K = i
    cg(torch.ones(4))
print("done")
