import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(512, 512) for _ in range(3)])

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


dist.init_process_group("gloo")
torch.manual_seed(0)
ddp = DDP(Net(), bucket_cap_mb=1)  # a 512x512 weight is 1 MiB: one bucket per layer
cm = torch.compile(ddp, backend="aot_eager")
opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
for i in range(2):
    loss = cm(torch.randn(8, 512)).sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
print("rank", dist.get_rank(), "done")
dist.destroy_process_group()
