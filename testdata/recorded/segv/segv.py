import faulthandler, os, signal
import torch
faulthandler.enable()
f = torch.compile(lambda x: x * 2, backend="eager")
f(torch.randn(3))
os.kill(os.getpid(), signal.SIGSEGV)
