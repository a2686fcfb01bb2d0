# loss.backward() inside the compiled function: a graph break.
import torch

lin = torch.nn.Linear(4, 1)

@torch.compile(backend="eager")
def train_step(x):
    loss = lin(x).sum()
    loss.backward()
    return loss

train_step(torch.randn(2, 4))
print("done")
