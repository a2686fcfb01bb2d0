# Sourced by gpu-e2e.sh and gpu-tui.sh: the python with torch ($PY, on PATH) and the static binary ($tt), which
# travels xz-compressed in .gpu/ (the device copies at most 64 MiB of tree). Build it with:
#   CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -ldflags '-s -w' -o .gpu/torchtriage . && xz -9 .gpu/torchtriage
# The tracked tree (~58 MiB) and the binary (~4.6 MiB) pass the 64 MiB: leave testdata/compile (20 MiB, not used
# on the box but by gpu-autotune.sh, which can carry testdata/compile/repro) out for the call, and put it back after:
#   git rm -r -q --cached testdata/compile && echo /testdata/compile/ >>.git/info/exclude     (before)
#   git reset -q -- testdata/compile && sed -i '\#^/testdata/compile/$#d' .git/info/exclude    (after)
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
# versions OUT: what the box runs (torch, GPU, Python, driver, torchtriage) into OUT/versions.txt
versions() {
	{
		echo "## versions"
		"$PY" -c 'import torch,sys; print(torch.__version__, torch.cuda.get_device_name(0), sys.version.split()[0])'
		nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
		$tt version
	} >"$1/versions.txt" 2>&1
}
# gate_in OUT NAME DIR ARGS…: `torchtriage check ARGS…` in DIR with its own store OUT/NAME, its stored run reported
# as text and JSON beside it (without the probe's sitecustomize.py); GATES="a b …" runs only the gates it names
gate_in() {
	local out=$1 name=$2 dir=$3; shift 3
	case " ${GATES:-$name} " in *" $name "*) ;; *) return ;; esac
	local store=$out/$name t0
	t0=$(date +%s)
	(cd "$dir" && timeout 150 "$tt" check --store "$store" "$@" >"$out/$name.out" 2>"$out/$name.err"; echo "exit $?" >>"$out/$name.out")
	for d in "$store"/0*; do
		[ -d "$d" ] || continue
		"$tt" report --width 120 "$d" >"$out/$name.report.txt" 2>&1
		"$tt" report --format json "$d" >"$out/$name.report.json" 2>&1
		rm -f "$d"/probe/sitecustomize.py
	done
	echo "== $name: $(tail -1 "$out/$name.out") ($(($(date +%s) - t0)) s)"
}
