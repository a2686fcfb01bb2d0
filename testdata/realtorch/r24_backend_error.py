import torch
import torch._dynamo

torch._dynamo.config.suppress_errors = True


def broken_backend(gm, example_inputs):
    raise RuntimeError("broken backend")


@torch.compile(backend=broken_backend)
def f(x):
    return torch.sin(x) + 1


print(f(torch.randn(4)).shape)
print("done")
