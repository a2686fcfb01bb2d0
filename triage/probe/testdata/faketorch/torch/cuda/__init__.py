import os


def is_available():
    return os.environ.get("FAKETORCH_CUDA") == "1"


def is_initialized():
    return os.environ.get("FAKETORCH_CUDA") == "1"


def current_device():
    return 0


def get_device_name(device=None):
    return "Fake GPU 9000"


def get_device_capability(device=None):
    return (9, 0)


def device_count():
    return 1 if is_available() else 0
