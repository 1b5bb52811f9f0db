#!/usr/bin/env bash
# Tables that fit (issue 20): every table command over the real fixtures prints no line over
# 120 columns (UTF-8 code points: a shortened value ends in "…"), and `-o wide` shows what
# the default table shortened or left out.
. "$(dirname "$0")/common.sh"

B="$DATA/divergence/before"
L="$DATA/leader-changes"
M="$DATA/metadata/__cluster_metadata-0"
T="$DATA/transactions/tx-0"

# widest FILE: the longest line's display width.
widest() {
  python3 -c 'import sys; print(max((len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")), default=0))' "$1"
}

# fits CMD...: the table (default) output of CMD has no line over 120 columns.
fits() {
  local got=0
  "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
  ((got <= 1)) || { cat "$SCRATCH/err"; fail "exit $got: $*"; }
  [[ -s "$SCRATCH/out" ]] || fail "no output: $*"
  local w
  w=$(widest "$SCRATCH/out")
  ((w <= 120)) || { awk 'length($0) > 120' "$SCRATCH/out" | head -5; fail "a line of $w columns: $*"; }
  tables=$((tables + 1))
}

tables=0
fits "$KEPOCH" checkpoint validate "$B/broker-1/d-0" "$B/broker-1"
fits "$KEPOCH" checkpoint dump "$B/broker-1"
fits "$KEPOCH" segment dump "$B/broker-1/d-0/00000000000000000000.log"
fits "$KEPOCH" segment dump --records --data "$T"/00000000000000000000.log
fits "$KEPOCH" segment dump "$T"/00000000000000000000.{index,timeindex} "$T"/*.snapshot
fits "$KEPOCH" segment dump --records "$M/00000000000000000000.log"
fits "$KEPOCH" partition inspect "$B/broker-1/d-0" "$L/broker-1/lc-0"
fits "$KEPOCH" partition verify "$B/broker-1/d-0" "$L/broker-1/lc-0" "$T"
fits "$KEPOCH" logdir scan --all "$B/broker-1" "$B/broker-2" "$DATA/logdir"
fits "$KEPOCH" diff "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"
fits "$KEPOCH" diff "$B/broker-1" "$B/broker-2" "$B/broker-3"
fits "$KEPOCH" diff "$L/broker-1/lc-0" "$L/broker-2/lc-0" "$L/broker-3/lc-0"
fits "$KEPOCH" predict --leader "$B/broker-2/d-0" "$B/broker-1/d-0" "$B/broker-3/d-0"
fits "$KEPOCH" predict --mode all --leader "$B/broker-2" "$B/broker-1" "$B/broker-3"
fits "$KEPOCH" predict --elect --ids 1,2,3 --isr 2,3 "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"
fits "$KEPOCH" metadata dump "$M"
fits "$KEPOCH" metadata history "$M"
fits "$KEPOCH" diff --metadata "$M" "$B/broker-1/d-0" "$B/broker-2/d-0"
for s in "$KEPOCH_SOURCE_DIR"/examples/scenarios/*.yaml; do
  fits "$KEPOCH" simulate "$s"
done
((tables >= 20)) || fail "only $tables table commands ran"

# -o wide: every column, nothing shortened. The segment dump's full row (12 columns) is wider
# than 120 columns; the default table leaves out the least useful (the end of
# batch_table_columns: COMPRESSION, PRODUCER_ID, IS_TRANSACTIONAL), keeps the offsets, epoch
# and MAX_TIMESTAMP (an ISO 8601 time, never shortened), and says what it left out.
expect_exit 0 "$KEPOCH" segment dump -o wide "$B/broker-1/d-0/00000000000000000000.log"
(($(widest "$SCRATCH/out") > 120)) || fail "-o wide: the segment dump's every column should pass 120"
expect_in "$SCRATCH/out" "COMPRESSION"
expect_in "$SCRATCH/out" "PARTITION_LEADER_EPOCH"
expect_not_in "$SCRATCH/out" "…"
expect_exit 0 "$KEPOCH" segment dump "$B/broker-1/d-0/00000000000000000000.log"
expect_not_in "$SCRATCH/out" "COMPRESSION "
expect_in "$SCRATCH/out" "MAX_TIMESTAMP"
expect_in "$SCRATCH/out" "BASE_OFFSET"
expect_in "$SCRATCH/out" "(not shown: COMPRESSION, PRODUCER_ID, IS_TRANSACTIONAL; use -o wide)"
expect_in "$SCRATCH/out" "2026-11-29T08:29:22.224Z"
# partition verify's findings: the long message ends in an ellipsis, and in full with wide.
expect_exit 0 "$KEPOCH" partition verify "$B/broker-1/d-0"
expect_in "$SCRATCH/out" "…"
expect_not_in "$SCRATCH/out" "which is less than the first timestamp"
expect_exit 0 "$KEPOCH" partition verify -o wide "$B/broker-1/d-0"
expect_in "$SCRATCH/out" "which is less than the first timestamp"
# wide is the table: no JSON or YAML.
[[ $(head -c1 "$SCRATCH/out") != "{" ]] || fail "-o wide printed JSON"
echo "ok: $tables table commands fit 120 columns"
