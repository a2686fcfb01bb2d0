
# --- collective timeout (triage/probe/collective_timeout.py; Install appends it to sitecustomize.py) ---
# `torchtriage run|check --collective-timeout D` puts TORCHTRIAGE_COLLECTIVE_TIMEOUT_S in the run's environment
# (meta.json's env lists it). It is the one change the probe makes to what the program does, and only because the
# user asked: once torch.distributed is imported, its init_process_group (the name in torch.distributed and in
# torch.distributed.distributed_c10d) is wrapped so that every call gets timeout=D, whatever timeout the program
# gave, and the process says so on stderr, once a call:
#     torchtriage: init_process_group timeout set to 60s by --collective-timeout (the program's: 0:30:00)
# A collective that waits longer than D then fails with torch's own timeout error (gloo: "Timed out waiting
# 60000ms"), which the hang analysis reads, instead of waiting out torch's default (30 minutes for gloo, 10 for
# NCCL). Groups made with new_group keep their own timeout. Any failure here: nothing is wrapped.


def _collective_timeout(os, sys):
    value = os.environ.get("TORCHTRIAGE_COLLECTIVE_TIMEOUT_S", "")
    if not value or "torch.distributed" in sys.modules:
        return
    seconds = float(value)
    if seconds <= 0:
        return

    def wrap(name, module):
        import datetime
        import functools

        c10d = sys.modules.get("torch.distributed.distributed_c10d")
        original = getattr(c10d, "init_process_group", None)
        if original is None or getattr(original, "_torchtriage_timeout", False):
            return
        timeout = datetime.timedelta(seconds=seconds)

        @functools.wraps(original)
        def init_process_group(*args, **kwargs):
            if len(args) >= 3:
                was, args = args[2], args[:2] + (timeout,) + args[3:]
            else:
                was = kwargs.get("timeout")
                kwargs["timeout"] = timeout
            try:
                sys.stderr.write("torchtriage: init_process_group timeout set to %gs by --collective-timeout "
                                 "(the program's: %s)\n" % (seconds, "torch's default" if was is None else was))
                sys.stderr.flush()
            except Exception:
                pass
            return original(*args, **kwargs)

        init_process_group._torchtriage_timeout = True
        c10d.init_process_group = init_process_group
        if getattr(module, "init_process_group", None) is original:
            module.init_process_group = init_process_group

    sys.meta_path.insert(0, _ImportWatch(sys, ("torch.distributed",), wrap))


try:
    import os as _tt_os
    import sys as _tt_sys

    _collective_timeout(_tt_os, _tt_sys)
except Exception:
    pass
