"""`python -m torchtriage ARGS...`: runs the torchtriage binary that this wheel installed as a script."""
import os
import sys
import sysconfig

EXE = "torchtriage" + (".exe" if os.name == "nt" else "")


def find_binary():
    """The binary pip installed with this package: the scripts directory of this environment, of a --user
    install, or of a --target/--prefix install next to this package."""
    dirs = [sysconfig.get_path("scripts")]
    if hasattr(sysconfig, "get_preferred_scheme"):  # Python 3.10+
        dirs.append(sysconfig.get_path("scripts", scheme=sysconfig.get_preferred_scheme("user")))
    else:
        dirs.append(sysconfig.get_path("scripts", scheme=os.name + "_user"))
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs.append(os.path.join(here, "bin"))  # pip install --target DIR: DIR/bin
    for d in dirs:
        path = os.path.join(d, EXE)
        if d and os.path.isfile(path):
            return path
    raise SystemExit("torchtriage: the torchtriage binary is not installed next to this package "
                     "(looked in %s); reinstall the wheel" % ", ".join(d for d in dirs if d))


def main():
    path = find_binary()
    if os.name == "nt":
        import subprocess

        sys.exit(subprocess.call([path] + sys.argv[1:]))
    os.execv(path, [path] + sys.argv[1:])


if __name__ == "__main__":
    main()
