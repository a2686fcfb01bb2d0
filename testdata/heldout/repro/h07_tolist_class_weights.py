# .tolist() in a loss: per-class weights from label counts, turned into a Python list.
import torch
import torch.nn.functional as F

@torch.compile(backend="eager")
def weighted_loss(logits, labels):
    counts = torch.bincount(labels, minlength=3).float()
    w = (counts.sum() / (counts + 1)).tolist()
    weight = torch.tensor(w)
    return F.cross_entropy(logits, labels, weight=weight)

for _ in range(2):
    print(weighted_loss(torch.randn(6, 3), torch.tensor([0, 1, 2, 2, 1, 0])).item())
