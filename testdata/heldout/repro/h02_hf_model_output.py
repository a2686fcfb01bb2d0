# An HF-style ModelOutput (an OrderedDict dataclass) returned by forward; loss is None at eval, a tensor in training.
from collections import OrderedDict
from dataclasses import dataclass, fields
from typing import Optional
import torch, torch.nn as nn, torch.nn.functional as F

@dataclass
class ModelOutput(OrderedDict):
    loss: Optional[torch.Tensor] = None
    logits: Optional[torch.Tensor] = None

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if v is not None:
                self[f.name] = v

class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, x, labels=None):
        logits = self.body(x)
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits, labels)
        return ModelOutput(loss=loss, logits=logits)

model = torch.compile(Classifier(), backend="eager")
x = torch.randn(4, 8)
out = model(x)                                   # eval: no labels
out = model(x, labels=torch.tensor([0, 1, 2, 0]))  # train: labels
out.loss.backward()
print("loss", float(out.loss))
