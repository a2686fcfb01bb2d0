import os, torch, torch.distributed as dist
r = int(os.environ["RANK"])
@torch.compile(backend="eager")
def step(x):
    if r == 1:
        print("only rank1 breaks")
    return x * 2
step(torch.randn(4))
dist.init_process_group("gloo")
step(torch.randn(4))
t = torch.ones(1); dist.all_reduce(t)
dist.destroy_process_group()
