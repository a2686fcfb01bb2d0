# A custom op with no fake kernel (no register_fake): compiling a call to it fails.
import torch

@torch.library.custom_op("tt::scale_rows", mutates_args=())
def scale_rows(x: torch.Tensor) -> torch.Tensor:
    return x * torch.arange(x.shape[0]).unsqueeze(1)

@torch.compile(backend="eager")
def f(x):
    return scale_rows(x) + 1

f(torch.randn(4, 4))
print("done")
