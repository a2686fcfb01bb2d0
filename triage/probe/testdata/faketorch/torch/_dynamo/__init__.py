from . import callback, config, utils
