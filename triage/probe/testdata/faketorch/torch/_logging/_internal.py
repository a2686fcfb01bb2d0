"""Fake torch._logging._internal: PyTorch's registry of TORCH_LOGS names (log_registry) and its parser, which
rejects an unknown name with PyTorch's own message. FAKETORCH_LOG_NAMES=a,b replaces the artifact names;
FAKETORCH_NO_LOG_REGISTRY=1 leaves the registry out (a torch whose internals moved)."""
import importlib
import os

INCR_VERBOSITY_CHAR = "+"
DECR_VERBOSITY_CHAR = "-"


class LogRegistry:
    def __init__(self):
        self.log_alias_to_log_qnames = {}
        self.artifact_names = set()


_registry = LogRegistry()
for _alias in ("dynamo", "aot", "inductor", "dynamic", "torch", "distributed"):
    _registry.log_alias_to_log_qnames[_alias] = ["torch._" + _alias]
_default = "graph_breaks,recompiles,recompiles_verbose,guards,verbose_guards,perf_hints,cudagraphs,ddp_graphs,graph"
for _name in os.environ.get("FAKETORCH_LOG_NAMES", _default).split(","):
    if _name:
        _registry.artifact_names.add(_name)
if os.environ.get("FAKETORCH_NO_LOG_REGISTRY") != "1":
    log_registry = _registry


def _invalid_settings_err_msg(settings):
    valid = ", ".join(["all"] + list(_registry.log_alias_to_log_qnames) + list(_registry.artifact_names))
    return f"""
Invalid log settings: {settings}, must be a comma separated list of fully
qualified module names, registered log names or registered artifact names.
For more info on various settings, try TORCH_LOGS="help"
Valid settings:
{valid}
"""


class LogState:
    def get_log_level_pairs(self):
        return []


def _parse_log_settings(settings):
    if settings == "":
        return {}  # like PyTorch 2.6 and 2.14.1: a plain dict, which _init_logs then fails on
    for name in settings.replace(" ", "").split(","):
        name = name.lstrip(INCR_VERBOSITY_CHAR + DECR_VERBOSITY_CHAR)
        known = name == "all" or name in _registry.log_alias_to_log_qnames or name in _registry.artifact_names
        if not known and "." not in name:
            raise ValueError(_invalid_settings_err_msg(settings))
    return LogState()


def _init_logs():
    settings = os.environ.get("TORCH_LOGS")
    if settings is None:
        return
    state = _parse_log_settings(settings)
    for name in settings.replace(" ", "").split(","):  # like PyTorch: a dotted name is a module to import
        name = name.lstrip(INCR_VERBOSITY_CHAR + DECR_VERBOSITY_CHAR)
        if "." in name:
            importlib.import_module(name)
    state.get_log_level_pairs()
