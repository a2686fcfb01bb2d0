# make_big_log FILE SIZE_MB: writes FILE (when it is not there or smaller) by concatenating every text fixture
# with [rankN]: prefixes (ranks 0-7 in turn), again and again up to SIZE_MB megabytes. Sourced by perf.sh and
# open.sh.
make_big_log() {
  local big=$1 size_mb=$2 seed r f
  if [ ! -f "$big" ] || [ "$(stat -c %s "$big")" -lt $((size_mb * 1000000)) ]; then
    seed=$big.seed
    : >"$seed"
    r=0
    for f in $(find testdata/fixtures/torch-2.* testdata/fixtures/failures -name '*.log' -not -path '*.trace/*' | sort); do
      sed "s/^/[rank$r]:/" "$f" >>"$seed"
      r=$(((r + 1) % 8))
    done
    : >"$big"
    while [ "$(stat -c %s "$big")" -lt $((size_mb * 1000000)) ]; do cat "$seed" >>"$big"; done
  fi
}
