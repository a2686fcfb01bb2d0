# torchtriage probe. torchtriage writes this file into <run dir>/probe/ and puts that directory
# first on PYTHONPATH, so Python loads it as `sitecustomize` at start-up. It must never change what
# the program does: every step is guarded, it prints nothing, it never imports torch (it only looks
# at sys.modules at exit), and it hands over to the sitecustomize it shadows.
#
# What it does:
#   1. removes its own directory from sys.path and runs the next `sitecustomize` on the path;
#   2. registers a faulthandler stack dump (all threads, to stderr) on SIGUSR1 when SIGUSR1 still has
#      its default action, then writes <probe dir>/ready-<pid> (content: the process start time);
#   3. at exit, when torch was imported by a main process, writes <probe dir>/rank<R>-<pid>.json (with
#      what each live optimizer's `step` is: optim_scan.py, which Install appends to this file);
#   4. as soon as torch is imported, writes <probe dir>/start-rank<R>-<pid>.json (versions, and the main
#      thread's id, which names the process's thread in a stack dump), and once
#      torch._dynamo is imported, keeps <probe dir>/compile-rank<R>-<pid>.json up to date from torch's
#      compile start/end callbacks (phase, compile id, function, since when). It watches the two
#      imports with a meta-path finder that only wraps their loaders; it imports nothing itself;
#   5. from torch's import on, writes <probe dir>/steps-rank<R>-<pid>.jsonl: each compile with the step it came at
#      (steps.py, which Install appends to this file);
#   6. at exit, in every main process (torch or not), writes <probe dir>/modules-<pid>.json: the .py files of
#      the modules the run imported from under its start directory or its script's directory (not
#      site-packages, not torch, not the standard library), for torchtriage to keep with the run (code/).
# Appended: force_backend.py (TORCHTRIAGE_BACKEND forces the backend of every torch.compile, at torch's import).
# The probe dir comes from TORCHTRIAGE_PROBE_DIR; without it only step 1 runs.
# The one exception to "never change what the program does" is asked for by the user: --collective-timeout
# (collective_timeout.py, appended by Install) sets init_process_group's timeout, and says so on stderr.


def _torchtriage_probe():
    import os
    import sys

    here = os.path.normcase(os.path.dirname(os.path.abspath(__file__)))

    def same_dir(entry):
        try:  # "" (the current directory) is the user's, whatever it is
            return bool(entry) and os.path.normcase(os.path.abspath(entry)) == here
        except Exception:
            return False

    try:
        sys.path[:] = [p for p in sys.path if not same_dir(p)]
    except Exception:
        pass
    _chain_sitecustomize(sys)

    probe_dir = os.environ.get("TORCHTRIAGE_PROBE_DIR", "")
    if not probe_dir or not os.path.isdir(probe_dir):
        return
    pid = os.getpid()
    try:
        start_dir = os.getcwd()
    except Exception:
        start_dir = ""
    # torch writes these itself when unset (cache_dir()): unset now, torch's default at exit is torch's doing
    unset_at_start = [name for name in _TORCH_WRITES if name not in os.environ]
    marker = None
    try:
        marker = _register_stack_dump(os, sys, probe_dir, pid)
    except Exception:
        marker = None

    def at_exit():
        if os.getpid() != pid:  # a forked child that exits normally: not ours to report
            return
        if marker:
            try:
                os.unlink(marker)
            except Exception:
                pass
        try:
            _write_modules(os, sys, probe_dir, pid, start_dir)
        except Exception:
            pass
        try:
            _write_info(os, sys, probe_dir, pid, unset_at_start)
        except Exception:
            pass

    try:
        import atexit

        atexit.register(at_exit)
    except Exception:
        pass
    try:
        _watch_imports(os, sys, probe_dir, pid)
    except Exception:
        pass


def _chain_sitecustomize(sys):
    """Runs the sitecustomize this file shadows, under the name `sitecustomize`, reporting its
    errors the way CPython's site.py does."""
    try:
        import importlib.machinery
        import importlib.util

        spec = importlib.machinery.PathFinder.find_spec("sitecustomize", list(sys.path))
        if spec is None or spec.loader is None:
            return
        module = importlib.util.module_from_spec(spec)
    except Exception:
        return
    previous = sys.modules.get("sitecustomize")
    sys.modules["sitecustomize"] = module
    try:
        spec.loader.exec_module(module)
    except ImportError as exc:
        if previous is not None:
            sys.modules["sitecustomize"] = previous
        if exc.name != "sitecustomize":
            _site_error(sys, exc)
    except Exception as exc:
        if previous is not None:
            sys.modules["sitecustomize"] = previous
        _site_error(sys, exc)


def _site_error(sys, err):
    # The same report CPython's site.execsitecustomize gives for a failing sitecustomize.
    try:
        if sys.flags.verbose:
            sys.excepthook(*sys.exc_info())
        else:
            sys.stderr.write(
                "Error in sitecustomize; set PYTHONVERBOSE for traceback:\n"
                "%s: %s\n" % (err.__class__.__name__, err)
            )
    except Exception:
        pass


def _register_stack_dump(os, sys, probe_dir, pid):
    import faulthandler
    import signal

    if not hasattr(signal, "SIGUSR1") or sys.stderr is None:
        return None
    if signal.getsignal(signal.SIGUSR1) != signal.SIG_DFL:
        return None  # someone else owns SIGUSR1: leave it, and write no marker
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True, chain=False)
    start = ""
    try:
        with open("/proc/self/stat", "rb") as f:
            start = f.read().rsplit(b")", 1)[1].split()[19].decode()
    except Exception:
        start = ""
    marker = os.path.join(probe_dir, "ready-%d" % pid)
    tmp = marker + ".tmp"
    with open(tmp, "w") as f:
        f.write(start + "\n")
    os.replace(tmp, marker)
    return marker


def _early_rank(os):
    try:
        return int(os.environ["RANK"]), "env"
    except Exception:
        return 0, "default"


def _write_json(os, path, data):
    import json

    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(data, sort_keys=True, allow_nan=False, default=str))
    os.replace(tmp, path)


class _ImportWatch(object):
    """A meta-path finder that finds nothing itself: for a watched module it asks the finders after
    it for the spec and wraps that spec's loader so that `loaded(name, module)` runs after the
    module executed. Each name is watched once; the finder leaves sys.meta_path when done."""

    def __init__(self, sys, names, loaded):
        self.sys, self.pending, self.loaded = sys, set(names), loaded

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.pending:
            return None
        self.pending.discard(fullname)
        if not self.pending:
            try:
                self.sys.meta_path.remove(self)
            except Exception:
                pass
        spec = None
        for finder in list(self.sys.meta_path):
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                break
        loader = getattr(spec, "loader", None)
        exec_module = getattr(loader, "exec_module", None)
        if exec_module is None:
            return spec
        loaded = self.loaded

        def exec_and_tell(module):
            exec_module(module)
            try:
                loaded(fullname, module)
            except Exception:
                pass

        try:
            loader.exec_module = exec_and_tell
        except Exception:
            pass
        return spec


def _watch_imports(os, sys, probe_dir, pid):
    if "torch" in sys.modules:
        return
    rank, source = _early_rank(os)
    state = {"pid": pid, "rank": rank, "rank_source": source, "phase": "idle", "compiles": 0}
    try:  # this runs in the main thread: its id is what a faulthandler dump prints ("Current thread 0x…")
        import _thread

        thread = _thread.get_ident()
    except Exception:
        thread = 0
    compile_path = os.path.join(probe_dir, "compile-rank%d-%d.json" % (rank, pid))
    steps = {"start": __import__("time").time()}  # the step clocks (steps.py, appended by Install)

    def loaded(name, module):
        import time

        if state.get("skip"):
            return
        if name == "torch.distributed.run" and "RANK" not in os.environ:
            state["skip"] = True  # torchrun's agent imported torch first: it is no rank after all
            try:
                os.unlink(os.path.join(probe_dir, "start-rank%d-%d.json" % (rank, pid)))
            except Exception:
                pass
            return
        if name == "torch" and (_role(os, sys, module) != "main" or _launching(os, sys)):
            state["skip"] = True  # torchrun's agent, torch's compile workers: not a rank
            return
        if name == "torch":
            cuda = getattr(getattr(module, "version", None), "cuda", None)
            start = {"pid": pid, "rank": rank, "rank_source": source, "python": sys.version.split()[0],
                     "torch": str(getattr(module, "__version__", "")), "cuda": str(cuda or ""), "time": time.time(),
                     "thread": thread}
            _write_json(os, os.path.join(probe_dir, "start-rank%d-%d.json" % (rank, pid)), start)
            _force_backend(os, module)  # the ladder's tier (force_backend.py)
        elif name == "torch._dynamo":
            _compile_callbacks(os, sys, module, state, compile_path)
        if name in ("torch", "torch._dynamo"):
            _steps_on_import(os, sys, probe_dir, pid, rank, steps, name, module)
        if name == "torch":
            _compile_site_on_import(sys, module)  # compile_site.py, appended by Install

    sys.meta_path.insert(0, _ImportWatch(sys, ("torch", "torch._dynamo", "torch.distributed.run"), loaded))


def _launching(os, sys):
    """torchrun / python -m torch.distributed.run before it imported its module."""
    if "RANK" in os.environ:
        return False
    main = sys.modules.get("__main__")
    name = str(getattr(getattr(main, "__spec__", None), "name", "") or "")
    argv0 = os.path.basename((sys.argv or [""])[0])
    return argv0 == "torchrun" or name in ("torch.distributed.run", "torch.distributed.launch")


def _compiling_function(sys):
    """The name and file of the code object Dynamo is compiling, from the caller frames."""
    try:
        f = sys._getframe(2)
        while f is not None:
            if f.f_code.co_name in ("_compile", "compile_inner", "_compile_inner"):
                code = f.f_locals.get("code")
                if code is not None and hasattr(code, "co_name"):
                    return code.co_name, code.co_filename, code.co_firstlineno
            f = f.f_back
    except Exception:
        pass
    return "", "", 0


# The compiled torch.nn modules Dynamo traced through torch's wrapper `inner` (external_utils.wrap_inline, for a
# module whose forward torch's trace rules skip: torch's own layers, DDP): by frame id, the module's class and
# the user's frames that called it. Written at exit (module_frames in rank*.json): a recompile of `inner` is
# named after the module and the user's code, not the wrapper.
_MODULE_FRAMES = {}


def _note_module_frame(sys, cid):
    try:
        frame_id = str(cid).split("/")[0] if cid else ""
        if not frame_id:  # 2.6 calls the callback without a compile id: Dynamo's own context has it
            guards = sys.modules.get("torch._guards")
            current = getattr(getattr(guards, "CompileContext", None), "current_compile_id", None)
            got = current() if current else None
            frame_id = str(getattr(got, "frame_id", "") if got is not None else "")
        if not frame_id or frame_id in _MODULE_FRAMES or len(_MODULE_FRAMES) >= 64:
            return
        module, module_file, module_line = _wrapped_module(sys)
        _MODULE_FRAMES[frame_id] = {"frame_id": int(frame_id), "module": module, "module_file": module_file,
                                    "module_line": module_line, "calls": _user_calls(sys)}
    except Exception:
        pass


def _wrapped_module(sys):
    """The class of the module the wrapper calls (its closure's fn), and where the class is defined; a DDP-like
    wrapper with a .module names it too: "DistributedDataParallel(Net)"."""
    torch = sys.modules.get("torch")
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_name in ("_compile", "compile_inner", "_compile_inner"):
            for cell in f.f_locals.get("closure") or ():
                try:
                    obj = cell.cell_contents
                except Exception:
                    continue
                if torch is not None and isinstance(obj, torch.nn.Module):
                    cls = type(obj)
                    name = cls.__qualname__
                    inner = getattr(obj, "module", None)
                    if isinstance(inner, torch.nn.Module):
                        name += "(" + type(inner).__qualname__ + ")"
                        cls = type(inner)
                    file, line = "", 0
                    try:
                        import inspect

                        file = inspect.getsourcefile(cls) or ""
                        line = inspect.getsourcelines(cls)[1]
                    except Exception:
                        pass
                    return name, file, line
        f = f.f_back
    return "", "", 0


def _user_calls(sys):
    """The first frames outside torch and this probe (its directory) on the stack of the compile (innermost first,
    at most 3): the user's code that called the compiled module."""
    import os

    torch = sys.modules.get("torch")
    torch_dir = os.path.dirname(os.path.abspath(getattr(torch, "__file__", "") or "")) + os.sep if torch else None
    here = os.path.abspath(__file__)
    try:
        import sysconfig

        stdlib = tuple(os.path.abspath(sysconfig.get_paths()[k]) + os.sep for k in ("stdlib", "platstdlib"))
    except Exception:
        stdlib = ()
    out = []
    f = sys._getframe(2)
    while f is not None and len(out) < 3:
        file = os.path.abspath(f.f_code.co_filename)
        theirs = (torch_dir and file.startswith(torch_dir)) or file == here or file.startswith(stdlib) or \
            os.path.dirname(file) == os.path.dirname(here) or \
            "/site-packages/" in file or "/dist-packages/" in file or f.f_code.co_filename.startswith("<")
        if not theirs:
            out.append({"file": file, "line": f.f_lineno, "function": f.f_code.co_name})
        f = f.f_back
    return out


def _compile_callbacks(os, sys, dynamo, state, path):
    handler = getattr(getattr(dynamo, "callback", None), "callback_handler", None)
    if handler is None:
        return

    def start(*args):
        import time

        try:
            trigger = str(getattr(getattr(args[0], "callback_trigger", None), "name", "")) if args else ""
            cid = str(getattr(args[0], "compile_id", "") or "") if args else ""
            fn, file, line = _compiling_function(sys)
            if trigger == "LAZY_BACKWARD" and not fn:
                fn = "backward"
            if fn == "inner" and file.replace("\\", "/").endswith("torch/_dynamo/external_utils.py"):
                _note_module_frame(sys, cid)
            state.update(phase="compiling", trigger=trigger, compile_id=cid, function=fn, file=file,
                         line=line, since=time.time())
            _write_json(os, path, state)
        except Exception:
            pass

    def end(*args):
        import time

        try:
            state.update(phase="idle", since=time.time(), compiles=state.get("compiles", 0) + 1)
            _write_json(os, path, state)
        except Exception:
            pass

    handler.register_start_callback(start)
    handler.register_end_callback(end)


_DYNAMO_KEYS = (
    "recompile_limit", "cache_size_limit", "accumulated_recompile_limit",
    "accumulated_cache_size_limit", "fail_on_recompile_limit_hit", "automatic_dynamic_shapes",
    "assume_static_by_default", "specialize_int", "specialize_float", "capture_scalar_outputs",
    "capture_dynamic_output_shape_ops", "optimize_ddp", "suppress_errors",
    "inline_inbuilt_nn_modules", "force_parameter_static_shapes", "enable_compiler_collectives",
    "disable",  # torch.compile off (TORCH_COMPILE_DISABLE=1, or set in code)
)
_INDUCTOR_KEYS = (
    "triton.cudagraphs", "max_autotune", "freezing", "fallback_random", "graph_partition",
    # CUDA graphs and dynamic shapes (gpu-cuda-graphs-2.11.md §1, §4)
    "triton.cudagraph_skip_dynamic_graphs", "triton.cudagraph_dynamic_shape_warn_limit",
    # compile-time and cache knobs (compile-time-and-caches.md §5)
    "fx_graph_cache", "fx_graph_remote_cache", "force_disable_caches", "compile_threads",
    "max_autotune_gemm", "max_autotune_pointwise", "coordinate_descent_tuning", "shape_padding",
    "comprehensive_padding",
)
_COMPILER_KEYS = ("job_id", "cache_key_tag", "force_disable_caches")
_FUNCTORCH_KEYS = ("enable_autograd_cache", "autograd_cache_allow_custom_autograd_functions")
_ENV_PREFIXES = ("TORCH", "NCCL_", "CUDA_", "PYTORCH_")
_SECRET_WORDS = ("TOKEN", "KEY", "SECRET", "PASSWORD", "CREDENTIAL")
# Knobs whose names hold a secret word but whose values are no secret (compile cache key parts).
_NOT_SECRET = ("TORCH_COMPILE_CACHE_KEY_TAG", "TORCH_COMPILE_STICKY_PGO_KEY")
# Set per worker by launchers, so they differ between ranks by design: kept out of the hash.
# Variables torch writes itself when unset: cache_dir() sets TORCHINDUCTOR_CACHE_DIR to its default
# (torch/_inductor/runtime/cache_dir_utils.py, 2.6 and 2.14.1).
_TORCH_WRITES = ("TORCHINDUCTOR_CACHE_DIR",)
_PER_RANK_ENV = ("CUDA_VISIBLE_DEVICES", "TORCHELASTIC_ERROR_FILE")


def _plain(value):
    import math

    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    return repr(value)[:200]


def _number(value):
    import math

    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def _role(os, sys, torch):
    """'main' for the user's processes; 'launcher' for torchrun's agent; 'helper' for processes
    torch starts for itself (compile workers) or that only ran torch code somebody else owns."""
    if ("torch.distributed.run" in sys.modules or "torch.distributed.launch" in sys.modules) and (
        "RANK" not in os.environ
    ):
        return "launcher"
    try:
        torch_dir = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
        # CPython deletes __main__.__file__ once the script has run; its loader keeps the path.
        main = sys.modules.get("__main__")
        main_file = (
            getattr(main, "__file__", None)
            or getattr(getattr(main, "__loader__", None), "path", None)
            or getattr(getattr(main, "__spec__", None), "origin", None)
        )
        if main_file and os.path.abspath(main_file).startswith(torch_dir):
            return "helper"
    except Exception:
        pass
    return "main"


def _torch_cache_default(os):
    """torch's default Inductor cache dir, as its cache_dir() writes it into TORCHINDUCTOR_CACHE_DIR."""
    try:
        from torch._inductor.runtime.cache_dir_utils import default_cache_dir

        return os.path.abspath(default_cache_dir())
    except Exception:
        return None


def _write_modules(os, sys, probe_dir, pid, start_dir):
    """Writes <probe dir>/modules-<pid>.json: {"pid", "files"}, the user's imported .py files (step 5)."""
    roots = []
    script = ""  # the script's directory: Python drops __main__.__file__ after the script ran; argv[0] stays
    argv0 = (getattr(sys, "argv", None) or [""])[0]
    if argv0 and argv0 != "-c" and os.path.isfile(os.path.join(start_dir, argv0)):
        script = os.path.dirname(os.path.join(start_dir, argv0))
    for d in (start_dir, script):
        if d:
            d = os.path.realpath(d)
            if d not in roots:
                roots.append(d)
    if not roots:
        return
    skip = [os.path.realpath(probe_dir)]
    for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, getattr(sys, "base_exec_prefix", "")}:
        if p:
            skip.append(os.path.realpath(p))

    def under(path, dirs):
        return any(path == d or path.startswith(d.rstrip(os.sep) + os.sep) for d in dirs)

    files = []
    for name, module in list(sys.modules.items()):
        if name == "torch" or name.startswith("torch.") or name == "sitecustomize":
            continue
        f = getattr(module, "__file__", None)
        if not isinstance(f, str) or not f.endswith(".py"):
            continue
        f = os.path.realpath(f)
        parts = f.split(os.sep)
        if "site-packages" in parts or "dist-packages" in parts or "__pycache__" in parts:
            continue
        if under(f, skip) or not under(f, roots) or f in files:
            continue
        if os.path.isfile(f):
            files.append(f)
    if not files:
        return
    import json

    path = os.path.join(probe_dir, "modules-%d.json" % pid)
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        out.write(json.dumps({"pid": pid, "files": sorted(files)}))
    os.replace(path + ".tmp", path)


def _write_info(os, sys, probe_dir, pid, unset_at_start=()):
    torch = sys.modules.get("torch")
    if torch is None:
        return
    if _role(os, sys, torch) != "main":
        return
    env = os.environ
    info = {"pid": pid, "python": sys.version.split()[0], "argv0": (sys.argv or [""])[0]}
    info["torch"] = str(getattr(torch, "__version__", ""))
    info["cuda"] = str(getattr(getattr(torch, "version", None), "cuda", None) or "")
    try:
        import socket

        info["host"] = socket.gethostname()
    except Exception:
        pass

    counters = {}
    utils = sys.modules.get("torch._dynamo.utils")
    try:
        for name, sub in list(getattr(utils, "counters", {}).items()):
            values = {}
            for key, value in list(sub.items()):
                value = _number(value)
                if value is not None:
                    values[str(key)] = value
            counters[str(name)] = values
    except Exception:
        pass
    info["counters"] = counters
    info["compile_times"] = _compile_times(utils)
    if _MODULE_FRAMES:
        info["module_frames"] = sorted(_MODULE_FRAMES.values(), key=lambda m: m["frame_id"])
    if _COMPILE_SITES:  # compile_site.py
        info["compile_sites"] = list(_COMPILE_SITES)

    # Multiprocessing children (spawned DataLoader workers...) report only when they compiled or
    # joined a process group; torch.multiprocessing.spawn ranks do both.
    mp = sys.modules.get("multiprocessing")
    dist = sys.modules.get("torch.distributed")
    initialised = False
    try:
        initialised = bool(dist.is_available() and dist.is_initialized())
    except Exception:
        initialised = False
    try:
        child = mp is not None and mp.parent_process() is not None
    except Exception:
        child = False
    if child and not initialised and not any(counters.values()):
        return

    rank, source = 0, "default"
    try:
        rank, source = int(env["RANK"]), "env"
    except Exception:
        if initialised:
            try:
                rank, source = int(dist.get_rank()), "dist"
            except Exception:
                pass
    world = 1
    try:
        world = int(env["WORLD_SIZE"])
    except Exception:
        if initialised:
            try:
                world = int(dist.get_world_size())
            except Exception:
                pass
    local = 0
    try:
        local = int(env["LOCAL_RANK"])
    except Exception:
        pass
    info.update(rank=rank, rank_source=source, local_rank=local, world_size=world)

    try:
        cuda = torch.cuda
        # Only a process that already uses CUDA is asked: asking creates a context otherwise.
        if cuda.is_initialized() and cuda.is_available():
            dev = cuda.current_device()
            info["gpu"] = str(cuda.get_device_name(dev))
            info["capability"] = "%d.%d" % tuple(cuda.get_device_capability(dev))[:2]
    except Exception:
        pass

    try:
        # The NVIDIA kernel driver, when there is one: a file read, no CUDA call.
        with open("/proc/driver/nvidia/version") as f:
            for word in f.readline().split():
                if word[:1].isdigit() and "." in word:
                    info["driver"] = word
                    break
    except Exception:
        pass

    info["config"] = _config(sys, torch)
    parity = {}
    for name, value in env.items():
        if name.startswith("TORCHTRIAGE_") or not name.startswith(_ENV_PREFIXES):
            continue
        if name in unset_at_start and value == _torch_cache_default(os):
            continue  # written by torch's cache_dir(), not set by the user
        if name not in _NOT_SECRET and any(word in name.upper() for word in _SECRET_WORDS):
            value = "<redacted>"
        parity[name] = value
    info["env"] = parity
    import hashlib

    hashed = "\n".join("%s=%s" % (k, parity[k]) for k in sorted(parity) if k not in _PER_RANK_ENV)
    info["env_hash"] = hashlib.sha256(hashed.encode("utf-8", "surrogateescape")).hexdigest()
    optim = _optimizer_steps(sys)  # optim_scan.py, appended to this file by Install
    if optim is not None:
        info["optim"] = optim

    import json

    data = json.dumps(info, sort_keys=True, allow_nan=False, default=str)
    path = os.path.join(probe_dir, "rank%d-%d.json" % (rank, pid))
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def _compile_times(utils):
    times = {}
    try:
        headers, values = utils.compile_times(repr="csv", aggregate=True)
        for name, value in zip(headers, values):
            try:
                times[str(name)] = float(value)
            except Exception:
                pass
    except Exception:
        times = {}
    if not times:
        try:
            for name, values in getattr(utils, "compilation_time_metrics", {}).items():
                times[str(name)] = float(sum(values))
        except Exception:
            pass
    return {k: v for k, v in times.items() if _number(v) is not None}


def _config(sys, torch):
    import warnings

    config = {}

    def read(prefix, module, keys):
        if module is None:
            return
        for key in keys:
            try:
                value = module
                # a deprecated setting warns when read (2.14: inline_inbuilt_nn_modules): the probe's read, not the
                # program's, must print nothing into the run's stderr
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    for part in key.split("."):
                        value = getattr(value, part)
                config[prefix + key] = _plain(value)
            except Exception:
                pass

    read("dynamo.", sys.modules.get("torch._dynamo.config"), _DYNAMO_KEYS)
    read("inductor.", sys.modules.get("torch._inductor.config"), _INDUCTOR_KEYS)
    read("compiler.", sys.modules.get("torch.compiler.config"), _COMPILER_KEYS)
    read("functorch.", sys.modules.get("torch._functorch.config"), _FUNCTORCH_KEYS)
    for key, fn in (
        ("torch.default_dtype", "get_default_dtype"),
        ("torch.float32_matmul_precision", "get_float32_matmul_precision"),
        ("torch.deterministic_algorithms", "are_deterministic_algorithms_enabled"),
    ):
        try:
            value = getattr(torch, fn)()
            config[key] = value if isinstance(value, bool) else str(value)
        except Exception:
            pass
    return config


try:
    _torchtriage_probe()
except Exception:
    pass
