# Prefill then decode: `past is None` on the first call, a tensor after. Two expected variants.
import torch

@torch.compile(backend="eager")
def attend(q, past=None):
    if past is None:
        k = q
    else:
        k = torch.cat([past, q], dim=0)
    return (q @ k.T).softmax(-1), k

q = torch.randn(1, 8)
_, kv = attend(q)
for _ in range(3):
    _, kv = attend(q, kv[-4:].clone() if kv.shape[0] > 4 else kv)
print("done")
