import os


def is_available():
    return True


def is_initialized():
    return "FAKETORCH_DIST_RANK" in os.environ


def get_rank():
    return int(os.environ["FAKETORCH_DIST_RANK"])


def get_world_size():
    return int(os.environ.get("FAKETORCH_DIST_WORLD", "1"))
