# torchtriage doctor: what the python that `torchtriage run` would use has, as JSON in the file named by argv[1].
# Run once by `torchtriage doctor` (python -c). It never needs a GPU and never writes anything else: it reads
# versions, asks torch which TORCH_LOGS names it accepts and where its compile caches would go. Python 3.6+.
import importlib.util
import json
import os
import sys

out = {
    "python": sys.executable,
    "python_version": "%d.%d.%d" % sys.version_info[:3],
    "prefix": sys.prefix,
    "venv": sys.prefix != getattr(sys, "base_prefix", sys.prefix),
}


def err(e):
    """One line: the exception's type and the first line of its message."""
    lines = str(e).strip().splitlines()
    return type(e).__name__ + (": " + lines[0] if lines else "")


# The cache variables as the user set them: torch writes TORCHINDUCTOR_CACHE_DIR itself when one of its modules
# calls cache_dir() (2.14.1: importing torch._inductor.cpp_builder, asked below), so it is read before torch runs.
user_inductor_dir = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
user_triton_dir = os.environ.get("TRITON_CACHE_DIR")

# PyTorch validates TORCH_LOGS at `import torch` and fails the import on an unknown name (torch/__init__.py calls
# _logging._init_logs()): take it out of the way, import, then ask torch's own parser about it.
torch_logs = os.environ.pop("TORCH_LOGS", None)
if torch_logs is not None:
    out["torch_logs"] = torch_logs

torch = None
try:
    if importlib.util.find_spec("torch") is None:
        out["torch_missing"] = True
    else:
        import torch
except Exception as e:  # a broken install: a missing CUDA library, an ABI mismatch
    out["torch_error"] = err(e)

if torch is not None:
    t = {"version": str(getattr(torch, "__version__", "")), "file": str(getattr(torch, "__file__", ""))}
    version = getattr(torch, "version", None)
    t["cuda"] = str(getattr(version, "cuda", None) or "")
    t["hip"] = str(getattr(version, "hip", None) or "")
    try:
        t["cuda_available"] = bool(torch.cuda.is_available())
        if t["cuda_available"]:
            t["device_count"] = int(torch.cuda.device_count())
            t["gpu"] = str(torch.cuda.get_device_name(0))
            t["capability"] = "%d.%d" % tuple(torch.cuda.get_device_capability(0))
    except Exception as e:
        t["cuda_error"] = err(e)
    try:
        t["distributed"] = bool(torch.distributed.is_available())
    except Exception:
        t["distributed"] = False
    out["torch"] = t

    # The names torch accepts are those of its "Valid settings:" message: "all", the registered log aliases and
    # the registered artifact names (torch/_logging/_internal.py, _invalid_settings_err_msg, 2.6 and 2.14.1).
    try:
        from torch._logging import _internal

        reg = _internal.log_registry
        out["log_names"] = ["all"] + sorted(set(reg.log_alias_to_log_qnames) | set(reg.artifact_names))
    except Exception as e:
        out["log_names_error"] = err(e)
    if torch_logs is not None:
        # what `import torch` does with it (torch/__init__.py: _logging._init_logs()): parse it, import the modules
        # it names, set the levels; an empty value or a dotted name of no module fails there, not in the parser
        init = None
        try:
            from torch._logging import _internal

            init = getattr(_internal, "_init_logs", None)
        except Exception as e:  # no such module in this torch: Go falls back to the names
            out["torch_logs_check_error"] = err(e)
        if init is not None:
            os.environ["TORCH_LOGS"] = torch_logs
            try:
                init()
            except ValueError as e:  # PyTorch's "Invalid log settings: ..." message, whole
                out["torch_logs_error"] = str(e)
            except Exception as e:  # `import torch` fails the same way: an empty value, a dotted name of no module
                out["torch_logs_error"] = err(e)
            finally:
                del os.environ["TORCH_LOGS"]
        elif "torch_logs_check_error" not in out:
            out["torch_logs_check_error"] = "no torch._logging._internal._init_logs"
    try:
        out["distributed_run"] = importlib.util.find_spec("torch.distributed.run") is not None
    except Exception:
        out["distributed_run"] = False
    # Inductor builds its CPU kernels with the C++ compiler torch's own search finds (torch/_inductor/cpp_builder.py
    # get_cpp_compiler: torch._inductor.config.cpp.cxx, $CXX, else g++; it runs `<cxx> --version`). Not asked
    # where torch would install one (TORCH_INDUCTOR_INSTALL_GXX): doctor writes nothing.
    # Importing it creates Inductor's cache dir (2.14.1): pointed at a temporary one, removed after, so doctor
    # leaves nothing behind (the user's dir was read before torch was imported).
    if not os.environ.get("TORCH_INDUCTOR_INSTALL_GXX"):
        import shutil
        import tempfile

        scratch = tempfile.mkdtemp(prefix="torchtriage-doctor-")
        saved = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = scratch
        try:
            from torch._inductor.cpp_builder import get_cpp_compiler

            out["cpp_compiler"] = str(get_cpp_compiler())
        except Exception as e:
            out["cpp_compiler_error"] = err(e)
        finally:
            if saved is None:
                del os.environ["TORCHINDUCTOR_CACHE_DIR"]
            else:
                os.environ["TORCHINDUCTOR_CACHE_DIR"] = saved
            shutil.rmtree(scratch, ignore_errors=True)


def default_cache_dir():
    """torch's own default_cache_dir(), else its rule: <tempfile.gettempdir()>/torchinductor_<user>, the user name
    with \\/:*?"<>| made "_" (torch/_inductor/runtime/cache_dir_utils.py, 2.6 :18-23, 2.14.1 :24-34)."""
    if torch is not None:
        try:
            from torch._inductor.runtime.cache_dir_utils import default_cache_dir as torch_default

            return torch_default()
        except Exception:
            pass
    import getpass
    import re
    import tempfile

    try:
        user = getpass.getuser()
    except Exception:
        user = "uid_%d" % os.getuid() if hasattr(os, "getuid") else "unknown_user"
    return os.path.join(tempfile.gettempdir(), "torchinductor_" + re.sub(r'[\\/:*?"<>|]', "_", user))


# TORCHINDUCTOR_CACHE_DIR else the default; TRITON_CACHE_DIR else <inductor dir>/triton/<device>
# (compile-time-and-caches.md §3.0; cache_dir_utils.py cache_dir() and triton_cache_dir()).
inductor = user_inductor_dir
out["inductor_cache_dir_env"] = inductor is not None
out["inductor_cache_dir"] = os.path.abspath(inductor if inductor is not None else default_cache_dir())
triton = user_triton_dir
out["triton_cache_dir_env"] = triton is not None
out["triton_cache_dir"] = os.path.abspath(triton if triton is not None else os.path.join(out["inductor_cache_dir"], "triton"))

with open(sys.argv[1], "w") as f:
    json.dump(out, f)
