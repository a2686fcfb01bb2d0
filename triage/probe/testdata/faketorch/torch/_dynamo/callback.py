"""Fake torch._dynamo.callback: the 2.11+ shape (callbacks get a CallbackArgs), enough for the probe."""


class CompilationCallbackHandler(object):
    def __init__(self):
        self.start_callbacks, self.end_callbacks = [], []

    def register_start_callback(self, cb):
        self.start_callbacks.append(cb)
        return cb

    def register_end_callback(self, cb):
        self.end_callbacks.append(cb)
        return cb

    def run_start_callbacks(self, args=None):
        for cb in self.start_callbacks:
            cb() if args is None else cb(args)

    def run_end_callbacks(self, args=None):
        for cb in self.end_callbacks:
            cb() if args is None else cb(args)


callback_handler = CompilationCallbackHandler()
