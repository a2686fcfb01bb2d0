"""Fake torch.optim: an Optimizer whose class `step` is wrapped once per class (as 2.6's and 2.14.1's
_patch_step_function does), and Adam."""
import functools

from . import lr_scheduler  # noqa: F401  (torch.optim imports it too)


class Optimizer:
    def __init__(self, params, defaults):
        self.param_groups = [dict(defaults, params=list(params))]
        self._patch_step_function()

    def _patch_step_function(self):
        if not getattr(self.__class__.step, "hooked", None):
            func = self.__class__.step

            @functools.wraps(func)
            def wrapper(*args, **kwargs):
                return func(*args, **kwargs)

            self.__class__.step = wrapper
            self.__class__.step.hooked = True

    def step(self):
        return None


class Adam(Optimizer):
    def __init__(self, params, lr=0.001):
        super().__init__(params, {"lr": lr})

    def step(self):
        self.steps = getattr(self, "steps", 0) + 1
