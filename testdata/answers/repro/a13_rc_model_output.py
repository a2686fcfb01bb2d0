# A ModelOutput-like dataclass whose optional field is None on one call and a tensor on the next.
import dataclasses
from typing import Optional
import torch

@dataclasses.dataclass
class Output:
    logits: torch.Tensor
    loss: Optional[torch.Tensor] = None

@torch.compile(backend="eager")
def post(out):
    if out.loss is not None:
        return out.logits.sum() + out.loss
    return out.logits.sum()

x = torch.randn(4)
post(Output(x))
post(Output(x, torch.tensor(1.0)))
post(Output(x))
print("done")
