# An inference loop with no optimizer: every request is 8 tokens long but request 20, which is 12.
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Embedding(100, 16), torch.nn.Linear(16, 16))


@torch.compile
def serve(tokens):
    return model(tokens)


with torch.no_grad():
    for request in range(30):
        print("serving request %d" % request, flush=True)
        n = 12 if request == 20 else 8
        serve(torch.randint(0, 100, (1, n)))
print("done")
