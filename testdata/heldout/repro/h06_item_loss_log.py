# .item() in a loss: the running loss is logged as a Python float and a spike check branches on it.
import torch, torch.nn as nn

model = nn.Linear(8, 1)
history = []

@torch.compile(backend="eager")
def step(x, y):
    loss = nn.functional.mse_loss(model(x), y)
    val = loss.item()
    if val > 100.0:
        loss = loss * 0.0
    return loss

for _ in range(3):
    history.append(step(torch.randn(4, 8), torch.randn(4, 1)))
print("ok", len(history))
