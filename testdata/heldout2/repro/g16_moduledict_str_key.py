# A multi-task model: the task name, a string argument, picks the head from an nn.ModuleDict.
import torch, torch.nn as nn

class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)
        self.heads = nn.ModuleDict({"cls": nn.Linear(8, 3), "reg": nn.Linear(8, 1), "seg": nn.Linear(8, 5)})

    def forward(self, x, task):
        return self.heads[task](torch.relu(self.body(x)))

m = torch.compile(MultiTask(), backend="eager")
with torch.no_grad():
    for task in ("cls", "reg", "seg", "cls"):
        y = m(torch.randn(4, 8), task)
print("ok", y.shape)
