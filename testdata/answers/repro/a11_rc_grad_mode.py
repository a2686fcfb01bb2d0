# Global state: the same call under torch.no_grad() and with grad on.
import torch

lin = torch.nn.Linear(4, 4)

@torch.compile(backend="eager")
def f(x):
    return lin(x).relu()

x = torch.randn(2, 4)
f(x)
with torch.no_grad():
    f(x)
f(x)
print("done")
