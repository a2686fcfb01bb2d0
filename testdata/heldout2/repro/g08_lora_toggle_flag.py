# A linear layer with a LoRA adapter that training code switches on and off through a flag on the module.
import torch, torch.nn as nn

class LoRALinear(nn.Module):
    def __init__(self, d=16, r=2):
        super().__init__()
        self.base = nn.Linear(d, d)
        self.a = nn.Parameter(torch.randn(d, r) * 0.01)
        self.b = nn.Parameter(torch.zeros(r, d))
        self.lora_enabled = True

    def forward(self, x):
        y = self.base(x)
        if self.lora_enabled:
            y = y + x @ self.a @ self.b
        return y

layer = LoRALinear()
f = torch.compile(layer, backend="eager")
for enabled in (True, False, True, False):
    layer.lora_enabled = enabled
    y = f(torch.randn(4, 16))
print("ok", y.shape)
