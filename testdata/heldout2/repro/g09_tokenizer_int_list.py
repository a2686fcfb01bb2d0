# Tokenizer-like preprocessing inside the compiled function: a Python loop over a list of token ids maps
# each through a merge rule before the embedding lookup.
import torch, torch.nn as nn

emb = nn.Embedding(64, 8)

@torch.compile(backend="eager")
def encode(ids):
    merged = []
    for i in ids:
        merged.append(i // 2 if i > 40 else i)
    return emb(torch.tensor(merged)).mean(0)

for ids in ([3, 17, 42, 8], [5, 44, 9, 12], [61, 2, 33, 7]):
    v = encode(ids)
print("ok", v.shape)
