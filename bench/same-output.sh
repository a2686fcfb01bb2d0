#!/usr/bin/env bash
# same-output.sh BASE_REV: builds BASE_REV and the working tree, then runs report (text, markdown, json), check (text,
# json, github, junit) and diff on every log file and stored run under testdata/, and fails on the first output, stderr
# or exit status that differs. A restructuring must pass it: behaviour stays byte-identical.
set -uo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/same-output.sh BASE_REV}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; git worktree remove --force "$tmp/base-tree" 2>/dev/null' EXIT
git worktree add -q --detach "$tmp/base-tree" "$base" || exit 2
(cd "$tmp/base-tree" && go build -o "$tmp/old" .) || exit 2
go build -o "$tmp/new" . || exit 2

# Inputs: log files, run dirs (meta.json) and TORCH_TRACE dirs under testdata.
mapfile -t inputs < <( {
	find testdata -type f \( -name '*.log' -o -name '*.txt' \) -size -8M
	find testdata -name meta.json -printf '%h\n'
	find testdata -type d -name 'trace*'
} | sort -u)
runs=()
while IFS= read -r d; do runs+=("$d"); done < <(find testdata -name meta.json -printf '%h\n' | sort)

n=0 bad=0
same() { # label, command args...
	local label=$1
	shift
	(cd "$tmp" && : ) # keep cwd
	"$tmp/old" "$@" >"$tmp/o.out" 2>"$tmp/o.err"
	local oc=$?
	"$tmp/new" "$@" >"$tmp/n.out" 2>"$tmp/n.err"
	local nc=$?
	n=$((n + 1))
	sed -i "s#$tmp/old#BIN#g; s#$tmp/new#BIN#g" "$tmp/o.err" "$tmp/n.err" "$tmp/o.out" "$tmp/n.out"
	if [ $oc != $nc ] || ! cmp -s "$tmp/o.out" "$tmp/n.out" || ! cmp -s "$tmp/o.err" "$tmp/n.err"; then
		bad=$((bad + 1))
		echo "DIFFERS ($oc vs $nc): $label: $*"
		diff "$tmp/o.out" "$tmp/n.out" | head -5
		diff "$tmp/o.err" "$tmp/n.err" | head -5
	fi
}
for in in "${inputs[@]}"; do
	for f in text markdown json; do same report report --format "$f" --width 100 "$in"; done
	for f in text json github junit; do same check check --format "$f" --max-graph-breaks 0 --max-recompiles 0 "$in"; done
done
prev=""
for r in "${runs[@]}"; do
	if [ -n "$prev" ]; then
		same diff diff "$prev" "$r"
		same compare compare "$prev" "$r"
	fi
	prev=$r
done
echo "$n compared, $bad differ"
[ "$bad" = 0 ]
