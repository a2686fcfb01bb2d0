# A closure cell read through a helper: the compiled function calls a helper that closes over `shift`, and the
# program changes `shift` (nonlocal) between calls; Dynamo inlines the helper and guards on its cell's contents.
import torch


def make_helper():
    shift = 0.5

    def helper(x):
        return x + shift

    def set_shift(v):
        nonlocal shift
        shift = v

    return helper, set_shift


helper, set_shift = make_helper()


@torch.compile(backend="eager")
def g(x):
    return helper(x) * 2


x = torch.randn(4)
for v in (0.5, 1.5, 2.5):
    set_shift(v)
    g(x)
print("done")
