# A 2-layer MLP under torch.compile (default mode, CPU inductor): forward + backward at batch 16,
# then at batch 32 (automatic dynamic recompiles the frame with a dynamic batch). Prints the time
# the two steps took. Used for the compile-time and compile-cache fixtures (see ../README.md).
import time

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 8))
step = torch.compile(model)
t0 = time.perf_counter()
for batch in (16, 32):
    x = torch.randn(batch, 64)
    step(x).sum().backward()
print("metric: %.3f" % (time.perf_counter() - t0), flush=True)
