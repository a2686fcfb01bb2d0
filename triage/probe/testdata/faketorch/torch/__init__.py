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


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None, disable=False):
    """torch.compile's signature: returns what it was asked, for the probe's backend forcing (force_backend.py)."""
    asked = {"backend": backend, "mode": mode, "options": options, "fullgraph": fullgraph}
    if model is None:
        return lambda m: ("compiled", m, asked)
    return ("compiled", model, asked)
