# numpy's RNG inside forward: a noise scale drawn with np.random.
import numpy as np
import torch

@torch.compile(backend="eager")
def augment(x):
    scale = np.random.uniform(0.9, 1.1)
    return x * scale + 0.01

np.random.seed(0)
for _ in range(3):
    augment(torch.randn(4))
print("augmented")
