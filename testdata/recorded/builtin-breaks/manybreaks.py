import copy, time, logging
import torch

def f1(x):
    t = time.time()
    return x + t

def f2(x):
    return torch.tensor(x.tolist()) + 1

def f3(x):
    y = copy.deepcopy(x)
    return y * 2

def f4(x):
    n = x.data_ptr()
    return x + 1

def f5(x):
    logging.getLogger("app").warning("in compiled code")
    return x + 1

def f6(x):
    return torch.nonzero(x > 0) + 1

def f7(x):
    d = {id(x): 1}
    return x + len(d)

for f in (f1, f2, f3, f4, f5, f6, f7):
    fc = torch.compile(f, backend="eager")
    try:
        fc(torch.randn(4))
    except Exception as e:
        print(f.__name__, "raised", type(e).__name__)
print("done")
