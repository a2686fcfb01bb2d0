# Gradient accumulation: the loss is divided by the number of micro-batches in this step, passed as a float;
# the epoch's last step has fewer micro-batches, so the divisor changes.
import torch, torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

@torch.compile(backend="eager")
def micro_loss(x, y, inv_accum: float):
    return nn.functional.mse_loss(model(x), y) * inv_accum

batches = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(7)]
accum = 4
for start in range(0, len(batches), accum):
    group = batches[start:start + accum]
    for x, y in group:
        micro_loss(x, y, 1.0 / len(group)).backward()
    opt.step()
    opt.zero_grad()
print("steps done")
