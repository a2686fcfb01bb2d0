import torch

torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)
        self.step = 0

    def forward(self, x):
        self.step += 1
        return self.lin(x) * self.step


model = Net()
cm = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(10):
    loss = cm(torch.randn(4, 8)).sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
print("done", model.step)
