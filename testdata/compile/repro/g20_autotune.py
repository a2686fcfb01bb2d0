# max-autotune on a GPU: Inductor benchmarks Triton matmul configs (autotune) while compiling.
import torch


@torch.compile(mode="max-autotune-no-cudagraphs")
def f(a, b):
    return (a @ b).relu()


a = torch.randn(512, 512, device="cuda")
b = torch.randn(512, 512, device="cuda")
for _ in range(3):
    f(a, b)
torch.cuda.synchronize()
print("g20 done")
