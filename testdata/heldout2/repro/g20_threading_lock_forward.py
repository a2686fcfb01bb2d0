# A module shared with a background thread guards its running statistics with a threading.Lock in forward.
import threading, torch, torch.nn as nn

class Stats(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.lock = threading.Lock()
        self.register_buffer("mean", torch.zeros(8))

    def forward(self, x):
        y = self.fc(x)
        with self.lock:
            self.mean.mul_(0.9).add_(0.1 * y.detach().mean(0))
        return y

m = torch.compile(Stats(), backend="eager")
with torch.no_grad():
    for _ in range(3):
        y = m(torch.randn(4, 8))
print("ok", y.shape)
