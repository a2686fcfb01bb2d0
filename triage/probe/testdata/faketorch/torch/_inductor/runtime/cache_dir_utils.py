"""Fake torch._inductor.runtime.cache_dir_utils: default_cache_dir and cache_dir as torch 2.14.1's (cache_dir()
writes TORCHINDUCTOR_CACHE_DIR when it was unset, and creates the dir)."""
import getpass
import os
import re
import tempfile


def default_cache_dir():
    try:
        user = getpass.getuser()
    except Exception:
        user = "uid_%d" % os.getuid()
    return os.path.join(tempfile.gettempdir(), "torchinductor_" + re.sub(r'[\\/:*?"<>|]', "_", user))


def cache_dir():
    d = os.path.abspath(os.environ.get("TORCHINDUCTOR_CACHE_DIR") or default_cache_dir())
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = d
    os.makedirs(d, exist_ok=True)  # as 2.14.1 does: importing cpp_builder creates the dir (seen on real 2.14.1)
    return d
