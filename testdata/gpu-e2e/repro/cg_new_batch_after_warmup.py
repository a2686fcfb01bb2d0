# A reduce-overhead (CUDA graphs) training loop whose batch shrinks at step 30, after a 5-step warm-up: Dynamo
# recompiles for the new size and CUDA graphs record again at that step. SHORT=0 keeps every batch full.
# Needs a CUDA GPU (torch 2.11+ for the probe's CUDAGRAPH_RECORDING trigger).
import os

import torch

torch.manual_seed(0)
dev = "cuda"
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)


@torch.compile(mode="reduce-overhead")
def forward(x):
    return model(x)


short = os.environ.get("SHORT", "1") == "1"
for step in range(40):
    n = 5 if short and step == 30 else 8
    x, y = torch.randn(n, 16, device=dev), torch.randn(n, 1, device=dev)
    torch.compiler.cudagraph_mark_step_begin()
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(forward(x), y)
    loss.backward()
    opt.step()
torch.cuda.synchronize()
print("done", float(loss))
