# torch.compile of one of torch's own modules (its forward is in torch's skip files, so Dynamo compiles torch's
# wrapper `inner`), called from the user's step(): a new sequence length recompiles it (automatic dynamic: expected
# once), and so does switching it to eval mode (its `training` flag is guarded).
import torch

torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=32, nhead=2, dim_feedforward=64, batch_first=True)
compiled = torch.compile(layer)


def step(x):
    return compiled(x).sum()


for seq in (8, 8, 16, 24):
    step(torch.randn(2, seq, 32))
layer.eval()
step(torch.randn(2, 24, 32))
print("done")
