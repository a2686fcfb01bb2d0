# --- torch.compile's call sites (triage/probe/compile_site.py; Install appends it to sitecustomize.py) ---
# Where the user called torch.compile, per compiled object: when torch is imported, torch.compile is wrapped
# (functools.wraps; every argument passed through, its result and its exceptions unchanged) to note the first
# frame of the caller outside torch and this probe (file, line, function) and what it compiles: a module's class
# (a DDP-like wrapper with a .module: "DistributedDataParallel(Net)", as module_frames names it) with its forward's
# code, or a function's name and code. Another wrapper of torch.compile (the ladder's force_backend.py) chains
# with it in either order: each wraps whatever torch.compile is when it runs. `torch.compile(mode=...)` used as a
# decorator calls torch.compile again with the function: that call is noted (at the decorator's line).
# nn.Module.compile() calls torch.compile too: its site is the user's .compile() line.
# Written at exit in rank*.json as "compile_sites": [{"object", "kind" ("module" or "function"), "code_file",
# "code_line", "file", "line", "function", and the call's "dynamic" (true/false, absent when not given or None:
# automatic dynamic), "mode" (a string) and "fullgraph" (only when true)}] (triage/probe: CompileSite), at most
# 64, one per object and site.
# Guarded like the rest of the probe: a failure notes nothing and never reaches the program.

_COMPILE_SITES = []


def _compile_site_on_import(sys, torch):
    import functools

    original = getattr(torch, "compile", None)
    if original is None or getattr(original, "_torchtriage_site", False):
        return

    @functools.wraps(original)
    def compile(*args, **kwargs):
        try:
            model = args[0] if args else kwargs.get("model")
            if model is not None:
                _compile_site_note(sys, torch, model, kwargs)
        except Exception:
            pass
        return original(*args, **kwargs)

    compile._torchtriage_site = True
    try:
        torch.compile = compile
    except Exception:
        pass


def _compile_site_note(sys, torch, model, kwargs):
    if len(_COMPILE_SITES) >= 64:
        return
    kind, name, code = "function", "", None
    if isinstance(model, torch.nn.Module):
        kind = "module"
        cls = type(model)
        name = cls.__qualname__
        inner = getattr(model, "module", None)
        if isinstance(inner, torch.nn.Module):
            name += "(" + type(inner).__qualname__ + ")"
        code = getattr(getattr(cls, "forward", None), "__code__", None)
    else:
        name = str(getattr(model, "__qualname__", "") or getattr(model, "__name__", "") or type(model).__qualname__)
        code = getattr(model, "__code__", None) or getattr(getattr(model, "__func__", None), "__code__", None)
    calls = _user_calls(sys)
    if not calls:
        return
    site = {"object": name, "kind": kind, "code_file": str(getattr(code, "co_filename", "") or ""),
            "code_line": int(getattr(code, "co_firstlineno", 0) or 0), "file": calls[0]["file"],
            "line": calls[0]["line"], "function": calls[0]["function"]}
    if isinstance(kwargs.get("dynamic"), bool):
        site["dynamic"] = kwargs["dynamic"]
    if isinstance(kwargs.get("mode"), str):
        site["mode"] = kwargs["mode"]
    if kwargs.get("fullgraph") is True:
        site["fullgraph"] = True
    for s in _COMPILE_SITES:
        if s["object"] == site["object"] and s["file"] == site["file"] and s["line"] == site["line"]:
            return
    _COMPILE_SITES.append(site)
