recompile_limit = 8
accumulated_recompile_limit = 256
automatic_dynamic_shapes = True
assume_static_by_default = True
capture_scalar_outputs = False
capture_dynamic_output_shape_ops = False
optimize_ddp = True
suppress_errors = False
force_parameter_static_shapes = True
enable_compiler_collectives = False


def __getattr__(name):
    # as torch 2.14.1's config module: a deprecated setting warns when read (FutureWarning, to stderr)
    if name == "inline_inbuilt_nn_modules":
        import warnings

        warnings.warn("torch._dynamo.config.inline_inbuilt_nn_modules is deprecated and does not do anything, "
                      "inline_inbuilt_nn_modules is always True. It will be removed in a future version of PyTorch.",
                      FutureWarning, stacklevel=2)
        return True
    raise AttributeError(name)
