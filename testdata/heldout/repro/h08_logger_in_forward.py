# A logger call inside forward (logging.Logger.info with the activation's shape).
import logging
import torch, torch.nn as nn

logging.basicConfig(level=logging.WARNING)
log = logging.getLogger("mymodel")

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        log.info("hidden %s", tuple(h.shape))
        return self.fc2(h)

net = torch.compile(Net(), backend="eager")
for _ in range(2):
    net(torch.randn(3, 8))
print("done")
