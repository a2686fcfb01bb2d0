# A training loop that evaluates once, at step 20: the evaluation's compiled function first compiles there.
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)


@torch.compile
def forward(x):
    return model(x)


@torch.compile
def evaluate(x, y):
    with torch.no_grad():
        return torch.nn.functional.l1_loss(model(x), y)


for step in range(25):
    x, y = torch.randn(8, 16), torch.randn(8, 1)
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(forward(x), y)
    loss.backward()
    opt.step()
    if step == 20:
        print("eval", float(evaluate(x, y)))
print("done")
