
# --- optimizer scan (triage/probe/optim_scan.py; Install appends it to sitecustomize.py) ---
# At exit, what each live torch.optim.Optimizer's `step` is: the class's own (no `step` on the instance), the
# wrapper an LR scheduler sets, or another callable set on the instance. Torch 2.6 breaks the graph at a
# compiled `opt.step()` with `call_method OptimizerVariable(Adam) step [] {}` whenever the instance has a
# `step` of its own (Dynamo 2.6 calls only the class's), and the log does not say whose it is.
#
# LRScheduler.__init__ (torch/optim/lr_scheduler.py, 2.6.0 and 2.14.1 alike) does
#     opt.step = wrap_step(opt.step)
# where wrap_step returns a function named `wrapper`, defined in that file, made with functools.wraps(func)
# (so `__wrapped__` is the class's `step`: func is the bound method's __func__) and marked
# `wrapper._wrapped_by_lr_sched = True`. The mark alone is not enough: functools.wraps copies `__dict__`, so a
# program's wrapper made with functools.wraps(opt.step) over the scheduler's carries the mark too. A step is
# the scheduler's only when it is a plain function marked so, whose code is in torch/optim/lr_scheduler.py and
# whose `__wrapped__` is the class's `step`.
#
# Cheap and safe: gc.get_objects() filtered by type in C (map, set, itertools.compress) in chunks under a time
# bound; type(obj) and issubclass on types run no code of the program (isinstance could: it reads __class__);
# attributes are read from __dict__s, never through the program's __getattr__/__getattribute__. It imports
# nothing of torch: no torch.optim in sys.modules, no field. Any failure: no field.

_OPTIM_SECONDS = 0.5  # the scan's time bound; past it the scan is "partial"
_OPTIM_CHUNK = 1 << 18  # objects per chunk between time checks
_OPTIM_MAX = 256  # optimizers classified at most
_OPTIM_KINDS = 16  # distinct (class, step, wrapper) entries at most


def _optimizer_steps(sys):
    """{"scan": "complete"|"partial", "optimizers": [{"class", "step", "count"[, "wrapper", "file", "line"]}]},
    or None (torch.optim not imported, or the scan failed)."""
    try:
        base = getattr(sys.modules.get("torch.optim"), "Optimizer", None)
        if type(base) is not type:
            return None
        return _scan_optimizers(base)
    except Exception:
        return None


def _scan_optimizers(base):
    import gc
    import itertools
    import time

    deadline = time.monotonic() + _OPTIM_SECONDS
    scan, found, known, hits = "complete", [], {}, set()
    objs = gc.get_objects()
    try:
        for start in range(0, len(objs), _OPTIM_CHUNK):
            if time.monotonic() > deadline:
                scan = "partial"
                break
            chunk = objs[start : start + _OPTIM_CHUNK]
            for t in set(map(type, chunk)).difference(known):
                known[t] = issubclass(t, base)
                if known[t]:
                    hits.add(t)
            if hits:
                found.extend(itertools.compress(chunk, map(hits.__contains__, map(type, chunk))))
            del chunk
    finally:
        del objs
    if len(found) > _OPTIM_MAX:
        scan, found = "partial", found[:_OPTIM_MAX]
    kinds = {}
    for opt in found:
        try:
            key = _optimizer_step(opt)
        except Exception:
            scan = "partial"
            continue
        if key not in kinds and len(kinds) >= _OPTIM_KINDS:
            scan = "partial"
            continue
        kinds[key] = kinds.get(key, 0) + 1
    del found
    out = []
    for (cls, step, wrapper, path, line), n in sorted(kinds.items()):
        entry = {"class": cls, "step": step, "count": n}
        if wrapper or path:
            entry.update(wrapper=wrapper, file=path, line=line)
        out.append(entry)
    return {"scan": scan, "optimizers": out}


def _optimizer_step(opt):
    """(class name, "original"|"lr_scheduler"|"other", wrapper name, file, line) of one optimizer."""
    import functools
    import types

    cls = type(opt)
    name = str(type.__dict__["__name__"].__get__(cls))
    try:
        inst = object.__getattribute__(opt, "__dict__")
    except AttributeError:  # __slots__: no attribute of the instance's own
        inst = {}
    if type(inst) is not dict or "step" not in inst:
        return (name, "original", "", "", 0)
    step = inst["step"]
    own = None
    for k in type.__dict__["__mro__"].__get__(cls):
        d = type.__dict__["__dict__"].__get__(k)
        if "step" in d:
            own = d["step"]
            break
    if type(step) is types.FunctionType:
        attrs = step.__dict__
        path = step.__code__.co_filename.replace("\\", "/")
        if (
            attrs.get("_wrapped_by_lr_sched") is True
            and path.endswith("torch/optim/lr_scheduler.py")
            and attrs.get("__wrapped__") is own
        ):
            return (name, "lr_scheduler", "", "", 0)
        inner = attrs.get("__wrapped__") if path.endswith("torch/optim/lr_scheduler.py") else None
        if type(inner) is types.FunctionType:  # the scheduler's wrapper over a wrapper not the class's step
            return (name, "other") + _code_site(inner.__code__)
        return (name, "other") + _code_site(step.__code__)
    if type(step) is types.MethodType and type(step.__func__) is types.FunctionType:
        return (name, "other") + _code_site(step.__func__.__code__)
    if type(step) is functools.partial and type(step.func) is types.FunctionType:
        return (name, "other") + _code_site(step.func.__code__)
    t = type(step)
    return (name, "other", "%s.%s" % (t.__module__, t.__qualname__), "", 0)


def _code_site(code):
    """(qualified name, file, first line) of a code object: its def, whatever functools.wraps copied."""
    return (str(getattr(code, "co_qualname", code.co_name)), str(code.co_filename), int(code.co_firstlineno))
