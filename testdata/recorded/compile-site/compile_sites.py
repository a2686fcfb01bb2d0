# torch.compile of the user's own module and, as a decorator, of a function, both with dynamic=False: each new
# batch size recompiles them (no automatic dynamic), so their recompiles name where torch.compile was called.
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)

    def forward(self, x):
        return torch.relu(self.lin(x))


@torch.compile(dynamic=False)
def loss_fn(y):
    return y.pow(2).mean()


torch.manual_seed(0)
model = torch.compile(Net(), dynamic=False)
for batch in (2, 4, 6):
    loss_fn(model(torch.randn(batch, 8)))
print("done")
