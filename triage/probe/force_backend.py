

# Backend forcing (the ladder: eager -> aot_eager -> aot_eager_decomp_partition -> inductor), appended to the probe
# by Install. When TORCHTRIAGE_BACKEND names a backend, every torch.compile call of the process (the function, the
# decorator, nn.Module.compile, which calls torch.compile) compiles with that backend whatever the code asked for;
# mode= and options= only mean something to inductor and are dropped for the others (torch rejects options= for a
# backend that takes none). Legacy torch._dynamo.optimize(...) calls are not forced. Nothing is printed.
def _force_backend(os, torch):
    backend = os.environ.get("TORCHTRIAGE_BACKEND", "")
    original = getattr(torch, "compile", None)
    if not backend or original is None or getattr(original, "_torchtriage_backend", None):
        return
    import functools

    @functools.wraps(original)
    def compile(*args, **kwargs):
        kwargs["backend"] = backend
        if backend != "inductor":
            kwargs.pop("mode", None)
            kwargs.pop("options", None)
        return original(*args, **kwargs)

    compile._torchtriage_backend = backend
    torch.compile = compile
