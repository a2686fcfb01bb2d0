#!/usr/bin/env bash
# heldout.sh [TOOL] [SET]: measures a torchtriage build on a held-out set, SET (default testdata/heldout; also
# testdata/heldout2): real runs of SET/repro/ on torch 2.14.1 and 2.6.0. For every input expected.json lists (a log, or a TORCH_TRACE
# dir): are the nine counts exact; of the findings of kinds graph_break, recompile, limit_hit, cudagraph_skip,
# compile_error and runtime_error, how many name a specific (not generic-<kind>) playbook; and for the triage
# logs, is the headline's playbook the one labels.json fixed for the repro (or one of its also_right). TOOL defaults
# to a build of the working tree. Prints one line per input and a summary per torch version.
set -uo pipefail
cd "$(dirname "$0")/.."
tool=${1:-}
if [ -z "$tool" ]; then
	tool=$(mktemp -d)/tt
	CGO_ENABLED=0 go build -o "$tool" . || exit 2
fi
dir=${2:-testdata/heldout}
python3 - "$tool" "$dir" <<'PY'
import json, os, subprocess, sys
tool, d = sys.argv[1], sys.argv[2]
exp = json.load(open(os.path.join(d, "expected.json")))
labels = json.load(open(os.path.join(d, "labels.json")))["labels"]
kinds = {"graph_break", "recompile", "limit_hit", "cudagraph_skip", "compile_error", "runtime_error"}
names = ["graph_breaks", "recompiles", "recompile_limit_hits", "cudagraph_skips", "compile_errors",
         "cudagraph_partitions", "cudagraph_rerecords", "runtime_errors"]
stats = {}
for name in sorted(k for k in exp if not k.startswith("_")):
    want = exp[name]
    ver = name.split("/")[0]
    s = stats.setdefault(ver, dict(files=0, exact=0, amb=0, exact_unamb=0, find=0, spec=0, lab=0, right=0, wrong=[], miss=[], generic=[]))
    r = subprocess.run([tool, "report", "--format", "json", os.path.join(d, name)], capture_output=True, text=True)
    try:
        j = json.loads(r.stdout)
    except ValueError:
        print(f"{name}: no JSON (exit {r.returncode}): {r.stderr.strip()[:200]}")
        s["files"] += 1; s["miss"].append(name)
        continue
    c = j["counts"]
    got = {k: c.get(k, 0) for k in names}
    got["ranks"] = sorted(j.get("ranks") or [])
    amb = set(want.get("ambiguous", {}))
    diff = [f"{k} {got[k]}≠{want[k]}" for k in names + ["ranks"] if k not in amb and got[k] != want[k]]
    s["files"] += 1
    if amb:
        s["amb"] += 1
    if not diff:
        s["exact"] += 1
        if not amb:
            s["exact_unamb"] += 1
    else:
        s["miss"].append(name + ": " + ", ".join(diff))
    for f in j.get("findings") or []:
        if f["kind"] in kinds:
            s["find"] += 1
            if f["playbook"].startswith("generic-"):
                s["generic"].append(f"{name}: {f['playbook']} {f['title']}")
            else:
                s["spec"] += 1
    head = (j.get("findings") or [{}])[0].get("playbook", "none")
    repro = os.path.basename(name).split(".")[0]
    lab = labels.get(repro)
    verdict = ""
    if lab and name.endswith(".triage.log"):
        s["lab"] += 1
        ok = head == lab["playbook"] or head in lab.get("also_right", [])
        if ok:
            s["right"] += 1
        else:
            s["wrong"].append(f"{name}: headline {head}, label {lab['playbook']}")
        verdict = " answer " + ("right" if ok else f"WRONG (label {lab['playbook']})")
    print(f"{name}: {'exact' if not diff else 'MISS ' + ', '.join(diff)}; headline {head}{verdict}")
print()
for ver, s in sorted(stats.items()):
    un = s["files"] - s["amb"]
    print(f"{ver}: {s['files']} inputs, {s['exact']} exact ({100*s['exact']/max(s['files'],1):.1f} %); "
          f"without an ambiguous field {s['exact_unamb']} of {un} exact; "
          f"specific playbooks {s['spec']} of {s['find']} findings ({100*s['spec']/max(s['find'],1):.1f} %); "
          f"headline = label {s['right']} of {s['lab']}")
    for m in s["miss"]:
        print("  count miss:", m)
    for w in s["wrong"]:
        print("  answer:", w)
    for g in s["generic"]:
        print("  generic:", g)
PY
