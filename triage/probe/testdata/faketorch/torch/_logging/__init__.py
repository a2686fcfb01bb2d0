from ._internal import _init_logs  # noqa: F401
