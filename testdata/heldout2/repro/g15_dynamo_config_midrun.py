# A metric that reads a count with .item(); after a few steps the script turns on
# torch._dynamo.config.capture_scalar_outputs to avoid the break, mid-run.
import torch

@torch.compile(backend="eager")
def metric(pred, target):
    correct = (pred.argmax(-1) == target).sum()
    n = correct.item()
    return torch.tensor(n / target.numel())

for step in range(4):
    if step == 2:
        torch._dynamo.config.capture_scalar_outputs = True
    acc = metric(torch.randn(8 + step, 3), torch.randint(0, 3, (8 + step,)))
print("ok", float(acc))
