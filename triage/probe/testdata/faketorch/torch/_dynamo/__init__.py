from . import config, utils
