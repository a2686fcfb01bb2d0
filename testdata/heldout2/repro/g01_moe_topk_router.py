# A Mixture-of-Experts layer: a router picks the top-2 experts per token, each expert runs on its tokens,
# index_add_ scatters the weighted outputs back.
import torch, torch.nn as nn

class MoE(nn.Module):
    def __init__(self, d=16, n=4, k=2):
        super().__init__()
        self.k = k
        self.router = nn.Linear(d, n)
        self.experts = nn.ModuleList(nn.Linear(d, d) for _ in range(n))

    def forward(self, x):
        w, idx = self.router(x).softmax(-1).topk(self.k, dim=-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            tok, slot = (idx == e).nonzero(as_tuple=True)
            out.index_add_(0, tok, expert(x[tok]) * w[tok, slot, None])
        return out

torch.manual_seed(0)
moe = torch.compile(MoE(), backend="eager")
with torch.no_grad():
    for _ in range(3):
        y = moe(torch.randn(12, 16))
print("ok", y.shape)
