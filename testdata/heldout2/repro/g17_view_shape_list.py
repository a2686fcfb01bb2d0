# A manual rearrange (no einops): the target shape is built as a Python list from the head count the caller
# passes, then .view(*shape).
import torch

@torch.compile(backend="eager")
def split_heads(x, heads):
    b, t, d = x.shape
    shape = [b, t, heads, d // heads]
    return x.view(*shape).transpose(1, 2)

x = torch.randn(2, 5, 16)
for heads in (2, 4, 8):
    y = split_heads(x, heads)
print("ok", y.shape)
