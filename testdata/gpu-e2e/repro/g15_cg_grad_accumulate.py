# g15: a plain reduce-overhead training loop that lets .grad accumulate (no zero_grad(set_to_none=True)): the
# gradients are CUDA-graph outputs, so the second backward reads memory the next replay overwrote.
# Expect (2.11): RuntimeError "Error: accessing tensor output of CUDAGraphs that has been overwritten by a
# subsequent run. Stack trace: [Could not find stack trace]. ..." (gpu-cuda-graphs-2.11.md §5).
import torch

m = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)).cuda()
cm = torch.compile(m, mode="reduce-overhead")
x = torch.randn(16, 32, device="cuda")
for step in range(4):
    cm(x).sum().backward()
    print("g15 step", step, flush=True)
torch.cuda.synchronize()
print("g15 done (not expected)")
