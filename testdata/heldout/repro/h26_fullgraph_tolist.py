# fullgraph=True on a function that turns a tensor of lengths into a Python list to split a batch.
import torch

@torch.compile(backend="eager", fullgraph=True)
def split_rows(x, lengths):
    parts = torch.split(x, lengths.tolist())
    return torch.stack([p.sum(0) for p in parts])

print(split_rows(torch.randn(6, 3), torch.tensor([2, 4])).shape)
