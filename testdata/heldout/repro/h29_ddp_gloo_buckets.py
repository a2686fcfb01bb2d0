# 2-rank DDP (gloo, CPU) of a compiled model with small buckets: DDPOptimizer splits the graph at bucket ends.
import os
import torch, torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
model = nn.Sequential(*[nn.Linear(64, 64) for _ in range(4)])
ddp = DDP(model, bucket_cap_mb=0.02)
cmodel = torch.compile(ddp, backend="aot_eager")
for _ in range(2):
    cmodel(torch.randn(8, 64)).sum().backward()
dist.barrier()
print("rank", dist.get_rank(), "done")
dist.destroy_process_group()
