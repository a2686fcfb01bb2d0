# c01_mlp on 2 ranks (torchrun, gloo): each rank compiles the same model. CACHE_DIR_RANK<R>, when
# set, becomes that rank's TORCHINDUCTOR_CACHE_DIR (set before torch is imported), so one rank
# can start warm and the other cold. Prints the time the two steps took.
import os
import time

rank = int(os.environ.get("RANK", "0"))
own = os.environ.get("CACHE_DIR_RANK%d" % rank)
if own:
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = own

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 8))
step = torch.compile(model)
t0 = time.perf_counter()
for batch in (16, 32):
    x = torch.randn(batch, 64)
    step(x).sum().backward()
dist.barrier()
print("metric: %.3f" % (time.perf_counter() - t0), flush=True)
dist.destroy_process_group()
