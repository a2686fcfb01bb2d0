# An nn.LSTM inside a compiled module: Dynamo does not trace RNN/GRU/LSTM unless allow_rnn is set.
import torch

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = torch.nn.LSTM(8, 8, batch_first=True)
        self.head = torch.nn.Linear(8, 2)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out[:, -1])

m = torch.compile(M(), backend="eager")
m(torch.randn(2, 5, 8))
print("done")
