"""Fake torch.optim.lr_scheduler: LambdaLR wraps optimizer.step as LRScheduler.__init__ does in 2.6.0 and
2.14.1 (patch_track_step_called: a function named `wrapper`, functools.wraps of the bound method's __func__,
marked `_wrapped_by_lr_sched`)."""
from functools import wraps
from weakref import ref


class LRScheduler:
    def __init__(self, optimizer):
        self.optimizer = optimizer

        def patch_track_step_called(opt):
            if hasattr(opt.step, "_wrapped_by_lr_sched"):
                return opt.step

            def wrap_step(step_fn):
                opt_ref = ref(self.optimizer)
                func = step_fn.__func__

                @wraps(func)
                def wrapper(*args, **kwargs):
                    opt = opt_ref()
                    opt._opt_called = True
                    return func.__get__(opt, opt.__class__)(*args, **kwargs)

                wrapper._wrapped_by_lr_sched = True
                return wrapper

            opt.step = wrap_step(opt.step)

        patch_track_step_called(self.optimizer)


class LambdaLR(LRScheduler):
    def __init__(self, optimizer, lr_lambda):
        self.lr_lambda = lr_lambda
        super().__init__(optimizer)
