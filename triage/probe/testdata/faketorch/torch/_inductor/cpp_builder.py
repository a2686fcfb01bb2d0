"""Fake torch._inductor.cpp_builder: get_cpp_compiler as torch's (FAKETORCH_CXX names the compiler; empty: none).
Importing it sets TORCHINDUCTOR_CACHE_DIR to the default when unset, as torch 2.14.1's does (its imports call
cache_dir_utils.cache_dir(), which writes the variable)."""
import os

from .runtime.cache_dir_utils import cache_dir

cache_dir()


class InvalidCxxCompiler(RuntimeError):
    pass


def get_cpp_compiler():
    cxx = os.environ.get("FAKETORCH_CXX", "g++")
    if not cxx:
        raise InvalidCxxCompiler("No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')")
    return cxx
