"""Fake torch for torchtriage probe tests (not PyTorch)."""
import os

if os.environ.get("FAKETORCH_IMPORT_ERROR"):
    raise OSError(os.environ["FAKETORCH_IMPORT_ERROR"])

from . import _logging, cuda, distributed, version  # noqa: E402

__version__ = os.environ.get("FAKETORCH_VERSION", "9.9.0+fake")


def get_default_dtype():
    return "torch.float32"


def get_float32_matmul_precision():
    return "highest"


def are_deterministic_algorithms_enabled():
    return False


# like PyTorch: an unknown TORCH_LOGS name fails `import torch`
_logging._init_logs()


class _Module(object):
    """torch.nn.Module's stand-in: what the probe's torch.compile wrapper tells a module by."""

    def forward(self, x):
        return x


class nn(object):  # torch.nn: only Module
    Module = _Module


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None, disable=False):
    """torch.compile's signature; like PyTorch, without a model it returns a decorator that calls compile (the
    module's global, so whatever wraps torch.compile) again. backend="raise" raises, as a bad backend does. It
    returns what it was asked: the backend, and the settings the probe's backend forcing (force_backend.py) changes."""
    if model is None:
        def fn(model):
            return compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode, options=options,
                           disable=disable)
        return fn
    if backend == "raise":
        raise ValueError("bad backend")
    asked = {"backend": backend, "mode": mode, "options": options, "fullgraph": fullgraph}
    return ("compiled", model, backend, asked)
