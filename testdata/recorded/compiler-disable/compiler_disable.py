# A function wrapped in torch.compiler.disable, called from a compiled one: Dynamo breaks the graph there on
# purpose and runs it eagerly.
import torch


@torch.compiler.disable
def helper(x):
    return x + 1


def f(x):
    x = x * 2
    x = helper(x)
    return x.sin()


fc = torch.compile(f, backend="eager")
for _ in range(2):
    fc(torch.randn(4))
print("done")
