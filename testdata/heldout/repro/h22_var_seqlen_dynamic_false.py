# Variable sequence lengths with dynamic=False: every new length compiles again.
import torch, torch.nn as nn

emb = nn.Embedding(50, 8)
enc = nn.GRUCell(8, 8)

@torch.compile(backend="eager", dynamic=False)
def encode(tokens):
    e = emb(tokens)
    return e.mean(dim=1).tanh()

for n in (7, 12, 19, 23, 31):
    encode(torch.randint(0, 50, (2, n)))
print("ok")
