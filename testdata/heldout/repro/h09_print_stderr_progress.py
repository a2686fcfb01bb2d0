# A progress print to stderr inside a compiled function (what a tqdm-free loop often does).
import sys
import torch

@torch.compile(backend="eager")
def layer_stack(x, ws):
    x = torch.tanh(x @ ws[0])
    print(f"block 1 done, norm shape {tuple(x.shape)}", file=sys.stderr)
    return torch.tanh(x @ ws[1])

ws = [torch.randn(4, 4) for _ in range(2)]
layer_stack(torch.randn(2, 4), ws)
print("finished")
