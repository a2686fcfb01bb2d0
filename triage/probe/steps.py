# --- steps and compile events (triage/probe/steps.py; Install appends it to sitecustomize.py) ---
# Where in the program's life each compile happened, for "did anything compile after warm-up": every compile the
# process starts is written as one line of <probe dir>/steps-rank<R>-<pid>.jsonl, stamped with three clocks, and
# a last line at exit says how far each clock got. torchtriage picks the clock (triage/probe/steps.go):
#   - optimizer: optimizer.step() calls completed so far, counted by torch's global step post-hook
#     (torch.optim.optimizer.register_optimizer_step_post_hook, 2.0+), for the first optimizer that steps only
#     (a GAN's two optimizers, or a scheduler's, would count each step twice);
#   - marker: only when TORCHTRIAGE_STEP_MARKER is set (check/run --step-marker), lines of the program's stdout and
#     stderr matched by that regular expression: its group 1 is the step number, else each match is one step. To
#     see them the probe puts a thin writer in front of sys.stdout and sys.stderr when torch is imported (opt-in:
#     only with a marker): lines written through them from then on are seen, not those of a logging handler made
#     before (it holds the stream itself) nor bytes written to sys.stdout.buffer or the file descriptors;
#   - time: seconds since the process started.
# Each compile line: {"ev": "compile", "t", "opt", "marker", "trigger", "compile_id", "frame", "file", "line",
# "reason"}: trigger is torch's callback trigger (DYNAMO, LAZY_BACKWARD, CUDAGRAPH_RECORDING; "" in 2.6), reason
# the first guard failure Dynamo found when the compile is a recompile (torch._dynamo.convert_frame's call of
# get_and_maybe_log_recompilation_reasons, 2.6's get_and_maybe_log_recompilation_reason, wrapped to see its answer).
# The exit line: {"ev": "end", "t", "opt", "marker", "optimizer"}, written by a process that compiled or stepped.
# Guarded like the rest of the probe: any failure writes nothing more.

_STEPS_REASON_MAX = 400


def _steps_on_import(os, sys, probe_dir, pid, rank, ctx, name, module):
    """Called by the import watch once torch, then torch._dynamo, is imported by a process that is a rank (or the
    one process); ctx holds the clocks ({"start": the probe's start time} at first)."""
    if name == "torch":
        ctx.update(opt=0, optimizer=None, optimizer_class=None, marker=None, reason=None,
                   path=os.path.join(probe_dir, "steps-rank%d-%d.jsonl" % (rank, pid)))
        marker = os.environ.get("TORCHTRIAGE_STEP_MARKER", "")
        if marker:
            try:
                _steps_watch_output(sys, marker, ctx)
            except Exception:
                pass
        _steps_count_optimizer(sys, ctx)

        def at_exit():
            # not a forked child's exit; a process that neither compiled nor stepped (torchrun's agent, a tool that
            # only imported torch) writes no file
            if os.getpid() == pid and (ctx.get("wrote") or ctx["opt"] or ctx["marker"] is not None):
                try:
                    _steps_write(ctx, {"ev": "end", "optimizer": ctx["optimizer_class"]})
                except Exception:
                    pass

        import atexit

        atexit.register(at_exit)
    elif name == "torch._dynamo" and "path" in ctx:
        _steps_compile_events(sys, module, ctx)


def _steps_write(ctx, entry):
    import json
    import time

    entry["t"] = round(time.time() - ctx["start"], 3)
    entry["opt"], entry["marker"] = ctx["opt"], ctx["marker"]
    with open(ctx["path"], "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, sort_keys=True, default=str) + "\n")
    ctx["wrote"] = True


def _steps_count_optimizer(sys, ctx):
    opt = sys.modules.get("torch.optim.optimizer")
    register = getattr(opt, "register_optimizer_step_post_hook", None)
    if register is None:
        return

    def stepped(optimizer, args, kwargs):
        try:
            if ctx["optimizer"] is None:
                ctx["optimizer"] = id(optimizer)
                ctx["optimizer_class"] = type(optimizer).__name__
            if ctx["optimizer"] == id(optimizer):
                ctx["opt"] += 1
        except Exception:
            pass

    register(stepped)


def _steps_compile_events(sys, dynamo, ctx):
    handler = getattr(getattr(dynamo, "callback", None), "callback_handler", None)
    if handler is None:
        return
    convert = sys.modules.get("torch._dynamo.convert_frame")
    # 2.14.1: get_and_maybe_log_recompilation_reasons; 2.6: get_and_maybe_log_recompilation_reason (one name less)
    name = "get_and_maybe_log_recompilation_reasons"
    if not hasattr(convert, name):
        name = "get_and_maybe_log_recompilation_reason"
    reasons = getattr(convert, name, None)
    if reasons is not None:

        def reasons_seen(*args, **kwargs):
            out = reasons(*args, **kwargs)
            try:
                ctx["reason"] = str(out[0])[:_STEPS_REASON_MAX] if out else None
            except Exception:
                pass
            return out

        try:
            setattr(convert, name, reasons_seen)
        except Exception:
            pass

    def start(*args):
        try:
            trigger = str(getattr(getattr(args[0], "callback_trigger", None), "name", "")) if args else ""
            cid = str(getattr(args[0], "compile_id", "") or "") if args else ""
            if not cid:
                guards = sys.modules.get("torch._guards")
                cid = str(guards.CompileContext.current_compile_id() or "") if guards else ""
            fn, file, line = _compiling_function(sys)
            reason, ctx["reason"] = ctx["reason"], None
            if trigger not in ("", "DYNAMO"):
                reason = None  # a backward or a CUDA-graph recording is no frame's recompile
            _steps_write(ctx, {"ev": "compile", "trigger": trigger, "compile_id": cid, "frame": fn, "file": file, "line": line,
                   "reason": reason})
        except Exception:
            pass

    handler.register_start_callback(start)


class _StepsMarkerStream(object):
    """A stream that tells each complete line to a marker scan, then hands every call to the stream it stands for."""

    def __init__(self, stream, seen):
        object.__setattr__(self, "_stream", stream)
        object.__setattr__(self, "_seen", seen)
        object.__setattr__(self, "_part", "")

    def write(self, s):
        n = self._stream.write(s)
        try:
            if isinstance(s, str) and ("\n" in s or len(self._part) < 4096):
                text = self._part + s
                lines = text.split("\n")
                object.__setattr__(self, "_part", lines.pop()[-4096:])
                for line in lines:
                    self._seen(line)
        except Exception:
            pass
        return n

    def __getattr__(self, name):
        return getattr(object.__getattribute__(self, "_stream"), name)

    def __setattr__(self, name, value):
        setattr(self._stream, name, value)

    def __iter__(self):
        return iter(self._stream)


def _steps_watch_output(sys, marker, ctx):
    import re

    pattern = re.compile(marker)

    def seen(line):
        m = pattern.search(line)
        if m is None:
            return
        number = None
        if pattern.groups >= 1 and m.group(1) is not None:
            try:
                number = int(m.group(1))
            except ValueError:
                number = None
        if number is None:
            number = (ctx["marker"] or 0) + 1
        ctx["marker"] = number

    for name in ("stdout", "stderr"):
        stream = getattr(sys, name, None)
        if stream is not None:
            setattr(sys, name, _StepsMarkerStream(stream, seen))
