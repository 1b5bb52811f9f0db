#!/usr/bin/env bash
# `diff` and `predict` read only the divergent tail (each replica as Kafka's loader reads it,
# batches from the epoch fork or the truncation point on, through the offset index); with
# --full they read every batch, as they always did. On every partition of the fixtures that
# real Kafka replicated, both give the same report: predict's byte for byte, diff's apart from
# `read_whole`, which says --full read everything.
. "$(dirname "$0")/common.sh"

# Replica dirs of one partition: same fixture, same layout under it, same dir name.
mapfile -t groups < <(cd "$DATA" && find . -mindepth 2 -type f -name '*.log' -printf '%h\n' |
  sort -u | awk -F/ '{ key = $2; for (i = 3; i < NF; i++) if ($i !~ /^broker-/) key = key "/" $i;
                      key = key "/" $NF; g[key] = g[key] " " $0 } END { for (k in g) print g[k] }' | sort)
pairs=0
for g in "${groups[@]}"; do
  read -r -a dirs <<<"$g"
  (( ${#dirs[@]} >= 2 )) || continue
  dirs=("${dirs[@]/#/$DATA/}")
  for fmt in json yaml; do
    a=0; b=0
    "$KEPOCH" diff -o "$fmt" "${dirs[@]}" >"$SCRATCH/tail" 2>"$SCRATCH/tail.err" || a=$?
    "$KEPOCH" diff -o "$fmt" --full "${dirs[@]}" >"$SCRATCH/full" 2>"$SCRATCH/full.err" || b=$?
    [[ $a == "$b" ]] || fail "diff ${dirs[*]}: exit $a, with --full $b"
    if [[ $fmt == json ]]; then
      python3 - "$SCRATCH/tail" "$SCRATCH/full" <<'PY' || fail "diff -o json ${dirs[*]}: differs from --full"
import json, sys
t, f = (json.load(open(p)) for p in sys.argv[1:])
for c in f["comparisons"]:
    assert c.pop("read_whole").startswith("loaded whole"), c
sys.exit(0 if t == f else 1)
PY
    else
      grep -v 'read_whole' "$SCRATCH/full" >"$SCRATCH/full.kept"
      grep -v 'read_whole' "$SCRATCH/tail" >"$SCRATCH/tail.kept"
      cmp -s "$SCRATCH/tail.kept" "$SCRATCH/full.kept" || { diff "$SCRATCH/tail.kept" "$SCRATCH/full.kept" | head; fail "diff -o $fmt ${dirs[*]}: differs from --full"; }
    fi
  done
  for leader in "${dirs[@]}"; do
    followers=()
    for d in "${dirs[@]}"; do [[ $d == "$leader" ]] || followers+=("$d"); done
    for mode in fetch all; do
      a=0; b=0
      "$KEPOCH" predict -o json --mode "$mode" --leader "$leader" "${followers[@]}" >"$SCRATCH/tail" 2>&1 || a=$?
      "$KEPOCH" predict -o json --mode "$mode" --full --leader "$leader" "${followers[@]}" >"$SCRATCH/full" 2>&1 || b=$?
      [[ $a == "$b" ]] || fail "predict --leader $leader: exit $a, with --full $b"
      cmp -s "$SCRATCH/tail" "$SCRATCH/full" || { diff "$SCRATCH/tail" "$SCRATCH/full" | head; fail "predict --mode $mode --leader $leader: differs from --full"; }
      pairs=$((pairs + 1))
    done
  done
done
(( pairs >= 20 )) || fail "only $pairs predictions compared: the fixtures were not found"

# Where the caches tell where to start, nothing says the replicas were read whole.
B="$DATA/divergence/before"
expect_exit 1 "$KEPOCH" diff -o json "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"
expect_not_in "$SCRATCH/out" read_whole
expect_exit 1 "$KEPOCH" diff -o json --full "$B/broker-1/d-0" "$B/broker-2/d-0"
expect_in "$SCRATCH/out" '"read_whole": "loaded whole: batches compared from the common log start"'
