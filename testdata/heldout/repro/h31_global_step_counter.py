# A global step counter incremented inside forward (for a warm-up schedule).
import torch

STEP = 0

@torch.compile(backend="eager")
def scaled(x):
    global STEP
    STEP += 1
    return x * min(1.0, STEP / 100)

for _ in range(4):
    scaled(torch.randn(3))
print("step", STEP)
