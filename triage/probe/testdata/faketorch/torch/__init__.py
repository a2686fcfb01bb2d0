"""Fake torch for torchtriage probe tests (not PyTorch)."""
from . import cuda, distributed, version

__version__ = "9.9.0+fake"


def get_default_dtype():
    return "torch.float32"


def get_float32_matmul_precision():
    return "highest"


def are_deterministic_algorithms_enabled():
    return False
