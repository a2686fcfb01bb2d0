# A manual weight update written in place on a leaf that requires grad, inside the compiled function
# (torch.no_grad() forgotten).
import torch

w = torch.randn(4, requires_grad=True)

@torch.compile(backend="eager")
def update(w, g, lr):
    w.sub_(lr * g)
    return w

update(w, torch.randn(4), 0.1)
print("ok", w)
