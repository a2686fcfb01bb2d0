"""Fake torch._inductor.cpp_builder: get_cpp_compiler as torch's (FAKETORCH_CXX names the compiler; empty: none)."""
import os


class InvalidCxxCompiler(RuntimeError):
    pass


def get_cpp_compiler():
    cxx = os.environ.get("FAKETORCH_CXX", "g++")
    if not cxx:
        raise InvalidCxxCompiler("No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')")
    return cxx
