# Sourced by gpu-e2e.sh and gpu-tui.sh: the python with torch ($PY, on PATH) and the static binary ($tt), which
# travels xz-compressed in .gpu/ (the device copies at most 64 MiB of tree). Build it with:
#   CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -ldflags '-s -w' -o .gpu/torchtriage . && xz -9 .gpu/torchtriage
PY=python3
for p in /opt/torch/.venv/bin/python3 python3; do
	if "$p" -c 'import torch' 2>/dev/null; then PY=$p; break; fi
done
export PATH=$(dirname "$(command -v "$PY")"):$PATH
[ -x .gpu/torchtriage ] || xz -dk .gpu/torchtriage.xz 2>/dev/null ||
	"$PY" -c 'import lzma; open(".gpu/torchtriage","wb").write(lzma.open(".gpu/torchtriage.xz").read())'
chmod +x .gpu/torchtriage
tt=$PWD/.gpu/torchtriage
repro=$PWD/testdata/fixtures/repro-gpu
