#!/usr/bin/env python3
"""Derives expected.json from the TORCH_TRACE files of every *.trace dir here, independently of torchtriage.

Per trace dir and per rank (from the file name dedicated_log_torch_trace_rank_<R>_*.log; "-1" without one):
  caches: count of artifact envelopes fx_graph_cache_{hit,miss,bypass}, aotautograd_cache_{hit,miss,bypass}
          (2.6: aotautograd_cache_hash / fx_graph_cache_hash with cache_state in the payload), and PGO
          get_{local,remote}_code_state (hit) / put_{local,remote}_code_state (writes);
  compile_total_s: sum of compilation_metrics dynamo_cumulative_compile_time_us (entire_frame_compile_time_s
          where that is absent) + sum of bwd_compilation_metrics backward_cumulative_compile_time_us;
  frames: compilation_metrics records; runtime records: *_runtime envelopes (not in the total).
"""
import glob, json, os, re, sys

NAMES = {"fx_graph_cache_hit": ("fx_graph", "hit"), "fx_graph_cache_miss": ("fx_graph", "miss"),
         "fx_graph_cache_bypass": ("fx_graph", "bypass"), "fx_graph_cache_hash": ("fx_graph", None),
         "aotautograd_cache_hit": ("aot_autograd", "hit"), "aotautograd_cache_miss": ("aot_autograd", "miss"),
         "aotautograd_cache_bypass": ("aot_autograd", "bypass"), "aotautograd_cache_hash": ("aot_autograd", None),
         "get_local_code_state": ("pgo", "hit"), "get_remote_code_state": ("pgo", "hit"),
         "put_local_code_state": ("pgo", "writes"), "put_remote_code_state": ("pgo", "writes")}


def one_file(path):
    caches, total, frames, runtime = {}, 0.0, 0, 0
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    for i, line in enumerate(lines):
        j = line.find("] {")
        if j < 0 or line.startswith("\t"):
            continue
        try:
            env = json.loads(line[j + 2:])
        except ValueError:
            continue
        art = env.get("artifact") or {}
        if art.get("name") in NAMES:
            cache, state = NAMES[art["name"]]
            if state is None:
                m = re.search(r'"cache_state": ?"([a-z_]+)"', lines[i + 1] if i + 1 < len(lines) else "")
                state = m.group(1) if m else None
            if state in ("hit", "miss", "bypass", "writes"):
                c = caches.setdefault(cache, {})
                c[state] = c.get(state, 0) + 1
        if "compilation_metrics" in env:
            m = env["compilation_metrics"]
            us = m.get("dynamo_cumulative_compile_time_us")
            total += us / 1e6 if us is not None else (m.get("entire_frame_compile_time_s") or 0.0)
            frames += 1
        if "bwd_compilation_metrics" in env:
            us = env["bwd_compilation_metrics"].get("backward_cumulative_compile_time_us")
            total += (us or 0) / 1e6
        if "compilation_metrics_runtime" in env or "bwd_compilation_metrics_runtime" in env:
            runtime += 1
    return caches, total, frames, runtime


def main():
    out = {}
    for d in sorted(glob.glob("torch-*/*.trace")):
        per_rank = {}
        for f in sorted(glob.glob(os.path.join(d, "*.log"))):
            m = re.search(r"_rank_(\d+)_", os.path.basename(f))
            rank = m.group(1) if m else "-1"
            caches, total, frames, runtime = one_file(f)
            r = per_rank.setdefault(rank, {"caches": {}, "compile_total_s": 0.0, "frames": 0, "runtime_records": 0})
            for cache, states in caches.items():
                for k, v in states.items():
                    r["caches"].setdefault(cache, {})[k] = r["caches"].get(cache, {}).get(k, 0) + v
            r["compile_total_s"] = round(r["compile_total_s"] + total, 6)
            r["frames"] += frames
            r["runtime_records"] += runtime
        out[d] = {"per_rank": per_rank,
                  "compile_total_s": round(sum(r["compile_total_s"] for r in per_rank.values()), 6)}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


main()
