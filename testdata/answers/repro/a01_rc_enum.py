# A recompile per Enum member: a bounded set of variants (expected), not an identity problem.
import enum
import torch

class Mode(enum.Enum):
    TRAIN = 1
    EVAL = 2
    EXPORT = 3

@torch.compile(backend="eager")
def f(x, mode):
    if mode is Mode.TRAIN:
        return x * 2
    if mode is Mode.EVAL:
        return x + 1
    return x - 1

x = torch.randn(4)
for m in (Mode.TRAIN, Mode.EVAL, Mode.EXPORT, Mode.TRAIN):
    f(x, m)
print("done")
