#!/usr/bin/env python3
"""Builds the torchtriage wheel for one platform around a static binary, with the standard library only.

A wheel is a zip (https://packaging.python.org/specifications/binary-distribution-format/): the package
(packaging/torchtriage: __init__.py, and __main__.py for `python -m torchtriage`), the binary under
torchtriage-VERSION.data/scripts/ (pip installs it as the `torchtriage` command, unchanged), and
torchtriage-VERSION.dist-info/ with METADATA, WHEEL (the platform tag) and RECORD (a sha256 per file).
Entries are sorted and dated SOURCE_DATE_EPOCH (default 1980-01-01), so the same inputs give the same bytes.

  packaging/wheel.py --binary dist/torchtriage-linux-amd64 --platform linux/amd64 --version 1.2.3 --out dist
  packaging/wheel.py --pep440 1.2.3-4-gabc1234-dirty        prints 1.2.3.post4+gabc1234.dirty
"""
import argparse
import base64
import hashlib
import os
import re
import sys
import time
import zipfile

NAME = "torchtriage"
HERE = os.path.dirname(os.path.abspath(__file__))

# GOOS/GOARCH -> wheel platform tags. The binaries are static (CGO_ENABLED=0): they need no glibc at all, so the
# oldest manylinux tag pip knows for the architecture fits; macOS arm64 starts at 11.0.
PLATFORMS = {
    "linux/amd64": ["manylinux_2_17_x86_64", "manylinux2014_x86_64"],
    "linux/arm64": ["manylinux_2_17_aarch64", "manylinux2014_aarch64"],
    "darwin/arm64": ["macosx_11_0_arm64"],
}

SUMMARY = "Why did torch.compile get slower or break? A terminal UI and CLI that reads what PyTorch prints."
URL = "https://github.com/torchtriage/torchtriage"
# The repository has no LICENSE file yet: until one is chosen the metadata says so instead of naming a licence.
LICENSE = "Proprietary (no licence chosen yet; all rights reserved)"
REQUIRES_PYTHON = ">=3.8"
DESCRIPTION = """# torchtriage

torchtriage tells an on-call engineer why `torch.compile` got slower or broke. It reads what PyTorch prints
(graph breaks, recompiles, recompile-limit hits, CUDA-graph skips, compile errors), per rank, and turns it into
findings with a recommended action. It launches your micro-repro with TORCH_LOGS presets, keeps every byte it
printed, and runs headless as a regression gate.

This wheel installs the `torchtriage` command (a static binary); `python -m torchtriage` runs it too.

    pip install torchtriage
    torchtriage doctor        # the first five minutes on a new box
    torchtriage demo          # the TUI on a recording of real PyTorch output
"""


def pep440(version):
    """A torchtriage version (a git tag without its v, `git describe` output, or 0.0.0-dev+g<sha>) as PEP 440:
    1.2.3 -> 1.2.3, 1.2.3-rc1 -> 1.2.3rc1, 1.2.3-4-gabc -> 1.2.3.post4+gabc, …-dirty -> +….dirty,
    0.0.0-dev+gabc -> 0.0.0.dev0+gabc."""
    m = re.match(r"^(\d+(?:\.\d+)*)(?:-?(a|b|rc)(\d+))?(-dev)?(?:-(\d+)-(g[0-9a-f]+))?(?:\+(g[0-9a-f]+))?"
                 r"([-.]dirty)?$", version)
    if not m:
        raise ValueError("version %r is not N.N.N[-rcN][-dev][-N-gSHA][+gSHA][-dirty]" % version)
    base, pre, pre_n, dev, post, desc_sha, sha, dirty = m.groups()
    out = base + (pre + pre_n if pre else "") + (".post" + post if post else "") + (".dev0" if dev else "")
    local = [s for s in (desc_sha, sha) if s] + (["dirty"] if dirty else [])
    return out + ("+" + ".".join(local) if local else "")


def metadata(version, platform):
    system = "MacOS" if platform.startswith("darwin") else "POSIX :: Linux"
    headers = [
        ("Metadata-Version", "2.1"),
        ("Name", NAME),
        ("Version", version),
        ("Summary", SUMMARY),
        ("Home-page", URL),
        ("License", LICENSE),
        ("Project-URL", "Homepage, " + URL),
        ("Project-URL", "Source, " + URL),
        ("Project-URL", "Issues, " + URL + "/issues"),
        ("Classifier", "Environment :: Console"),
        ("Classifier", "Intended Audience :: Developers"),
        ("Classifier", "License :: Other/Proprietary License"),
        ("Classifier", "Operating System :: " + system),
        ("Classifier", "Programming Language :: Go"),
        ("Classifier", "Topic :: Software Development :: Debuggers"),
        ("Requires-Python", REQUIRES_PYTHON),
        ("Description-Content-Type", "text/markdown"),
    ]
    return "".join("%s: %s\n" % kv for kv in headers) + "\n" + DESCRIPTION


def wheel_file(tags):
    lines = ["Wheel-Version: 1.0", "Generator: torchtriage packaging/wheel.py", "Root-Is-Purelib: false"]
    return "\n".join(lines + ["Tag: py3-none-" + t for t in tags]) + "\n"


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build(binary, platform, version, out_dir):
    """Writes the wheel into out_dir and returns its path."""
    tags = PLATFORMS[platform]
    version = pep440(version)
    dist_info = "%s-%s.dist-info" % (NAME, version)
    files = []  # (archive name, bytes, unix mode)
    for name in sorted(os.listdir(os.path.join(HERE, NAME))):
        if name.endswith(".py"):
            with open(os.path.join(HERE, NAME, name), "rb") as f:
                files.append((NAME + "/" + name, f.read(), 0o644))
    with open(binary, "rb") as f:
        files.append(("%s-%s.data/scripts/%s" % (NAME, version, NAME), f.read(), 0o755))
    files.append((dist_info + "/METADATA", metadata(version, platform).encode(), 0o644))
    files.append((dist_info + "/WHEEL", wheel_file(tags).encode(), 0o644))
    record = "".join("%s,%s,%d\n" % (n, record_hash(d), len(d)) for n, d, _ in files) + dist_info + "/RECORD,,\n"
    files.append((dist_info + "/RECORD", record.encode(), 0o644))

    epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)
    stamp = time.gmtime(epoch)[:6]
    path = os.path.join(out_dir, "%s-%s-py3-none-%s.whl" % (NAME, version, ".".join(tags)))
    os.makedirs(out_dir, exist_ok=True)
    with zipfile.ZipFile(path + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, stamp)
            info.external_attr = (0o100000 | mode) << 16  # a regular file with its permissions
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(path + ".tmp", path)
    return path


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", help="the static torchtriage binary for --platform")
    p.add_argument("--platform", choices=sorted(PLATFORMS), help="GOOS/GOARCH of the binary")
    p.add_argument("--version", help="torchtriage's version (the one the binary is stamped with)")
    p.add_argument("--out", default="dist", help="directory for the wheel (default dist)")
    p.add_argument("--pep440", metavar="VERSION", help="only print VERSION as a PEP 440 version")
    args = p.parse_args(argv)
    try:
        if args.pep440:
            print(pep440(args.pep440))
            return 0
        if not (args.binary and args.platform and args.version):
            p.error("--binary, --platform and --version are required")
        print(build(args.binary, args.platform, args.version, args.out))
    except (ValueError, OSError) as e:
        print("wheel.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
