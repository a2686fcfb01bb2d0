# suppress_errors=True hides a compile failure: a custom_op without register_fake.
import torch
import torch._dynamo

torch._dynamo.config.suppress_errors = True

@torch.library.custom_op("hx::gate", mutates_args=())
def gate(x: torch.Tensor) -> torch.Tensor:
    return x * torch.sigmoid(x)

@torch.compile(backend="eager")
def f(x):
    return gate(x).sum()

for _ in range(2):
    f(torch.randn(4))
print("ok")
