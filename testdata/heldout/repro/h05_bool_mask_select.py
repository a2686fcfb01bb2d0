# Data-dependent masking: keep only the tokens whose score passes a threshold, then pool them.
import torch

@torch.compile(backend="eager")
def pooled(scores, feats):
    keep = scores > 0.0
    picked = feats[keep]              # size depends on the data
    return picked.mean(dim=0) * 2

for _ in range(2):
    print(pooled(torch.randn(10), torch.randn(10, 4)).shape)
