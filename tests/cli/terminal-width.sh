#!/usr/bin/env bash
# Tables fit the terminal (issue 38): with stdout on a pseudo-terminal (python3's pty, the
# size set with TIOCSWINSZ as a terminal emulator does) of 80 and of 120 columns, every table
# command over the real fixtures draws no line wider than the terminal, counted in display
# columns (a CJK character 2, a combining mark 0; pty_table.py counts with Python's
# unicodedata, not with kepoch's table). Names are cut and padded by display width: a copy of
# the divergence fixture whose log dirs have CJK names (kepoch reads a replica's name from
# its path; Kafka's topic names are ASCII, but a log dir may be named anything) keeps its
# timeline rows aligned beside an ASCII-named one, at both widths. Without a terminal, COLUMNS
# sets the width, and with neither it is 120 (the goldens').
. "$(dirname "$0")/common.sh"

B="$DATA/divergence/before"
L="$DATA/leader-changes"
M="$DATA/metadata/__cluster_metadata-0"
T="$DATA/transactions/tx-0"
PTY="$KEPOCH_SOURCE_DIR/tests/cli/pty_table.py"

# The divergence fixture with two of its log dirs renamed in CJK (ブローカー: broker).
C="$SCRATCH/cjk"
mkdir -p "$C"
cp -r "$B/broker-1" "$C/ブローカー1"
cp -r "$B/broker-2" "$C/broker-2"
cp -r "$B/broker-3" "$C/注文ブローカー3"

# fits WIDTH [--timeline] CMD...: on a WIDTH-column terminal, no line wider than WIDTH.
fits() {
  local width=$1 opts=()
  shift
  [[ $1 == --timeline ]] && { opts+=(--timeline); shift; }
  python3 "$PTY" "$width" "$SCRATCH/drawn" "${opts[@]}" -- "$@" >"$SCRATCH/widest" ||
    { head -c 3000 "$SCRATCH/drawn"; fail "at $width columns: $*"; }
  checked=$((checked + 1))
}

checked=0
for w in 80 120; do
  fits $w "$KEPOCH" checkpoint validate "$B/broker-1/d-0" "$B/broker-1"
  fits $w "$KEPOCH" checkpoint dump "$B/broker-1"
  fits $w "$KEPOCH" segment dump "$B/broker-1/d-0/00000000000000000000.log"
  fits $w "$KEPOCH" segment dump --records --data "$T"/00000000000000000000.log
  fits $w "$KEPOCH" segment dump "$T"/00000000000000000000.{index,timeindex} "$T"/*.snapshot
  fits $w "$KEPOCH" segment dump --records "$M/00000000000000000000.log"
  fits $w "$KEPOCH" partition inspect "$B/broker-1/d-0" "$L/broker-1/lc-0"
  fits $w "$KEPOCH" partition verify "$B/broker-1/d-0" "$L/broker-1/lc-0" "$T"
  fits $w "$KEPOCH" logdir scan --all "$B/broker-1" "$B/broker-2" "$DATA/logdir"
  fits $w --timeline "$KEPOCH" diff "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"
  fits $w "$KEPOCH" diff "$B/broker-1" "$B/broker-2" "$B/broker-3"
  fits $w --timeline "$KEPOCH" diff "$L/broker-1/lc-0" "$L/broker-2/lc-0" "$L/broker-3/lc-0"
  fits $w --timeline "$KEPOCH" predict --leader "$B/broker-2/d-0" "$B/broker-1/d-0" "$B/broker-3/d-0"
  fits $w "$KEPOCH" predict --mode all --leader "$B/broker-2" "$B/broker-1" "$B/broker-3"
  fits $w "$KEPOCH" predict --elect --ids 1,2,3 --isr 2,3 "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"
  fits $w "$KEPOCH" predict --offsets "$DATA/consumer-fate/broker-1" --leader "$DATA/consumer-fate/broker-2/f-0" "$DATA/consumer-fate/broker-1/f-0"
  fits $w "$KEPOCH" plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"
  fits $w "$KEPOCH" salvage --archive "$SCRATCH/s.jsonl" --leader "$B/broker-2/d-0" "$B/broker-1/d-0"
  fits $w "$KEPOCH" replay --dry-run "$SCRATCH/s.jsonl"
  fits $w "$KEPOCH" metadata dump "$M"
  fits $w "$KEPOCH" metadata history "$M"
  fits $w "$KEPOCH" metadata history "$DATA/metadata-snapshot/__cluster_metadata-0"
  fits $w "$KEPOCH" diff --metadata "$M" "$B/broker-1/d-0" "$B/broker-2/d-0"
  for s in "$KEPOCH_SOURCE_DIR"/examples/scenarios/*.yaml; do
    fits $w "$KEPOCH" simulate "$s"
  done
  # CJK log dir names beside an ASCII one: lines within the width, timeline rows aligned.
  cd "$C"
  fits $w --timeline "$KEPOCH" diff ブローカー1/d-0 broker-2/d-0 注文ブローカー3/d-0
  grep -q "ブローカー1/d-0" "$SCRATCH/drawn" || fail "the CJK name is not drawn"
  fits $w --timeline "$KEPOCH" predict --leader broker-2/d-0 ブローカー1/d-0 注文ブローカー3/d-0
  fits $w --timeline "$KEPOCH" plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 ブローカー1/d-0 broker-2/d-0 注文ブローカー3/d-0
  fits $w "$KEPOCH" logdir scan --all ブローカー1 broker-2 注文ブローカー3
  fits $w "$KEPOCH" partition verify ブローカー1/d-0 注文ブローカー3/d-0
  cd "$SCRATCH"
done
((checked >= 60)) || fail "only $checked table commands ran"

# metadata history at 80 columns wraps nothing, and shows the time axis and the leaders.
python3 "$PTY" 80 "$SCRATCH/drawn" -- "$KEPOCH" metadata history "$DATA/metadata" >/dev/null || fail "metadata history at 80"
expect_in "$SCRATCH/drawn" "TIMESTAMP"
expect_in "$SCRATCH/drawn" "LEADER"
# At 80 columns the table keeps fewer columns than at 120 (it is laid out for the terminal,
# not cut after drawing).
python3 "$PTY" 120 "$SCRATCH/drawn120" -- "$KEPOCH" metadata history "$DATA/metadata" >/dev/null || fail "metadata history at 120"
[[ $(grep -m1 -E '^ +OFFSET ' "$SCRATCH/drawn") != $(grep -m1 -E '^ +OFFSET ' "$SCRATCH/drawn120") ]] ||
  fail "the same header at 80 and 120 columns"

# Not a terminal: COLUMNS sets the width, else 120.
COLUMNS=80 "$KEPOCH" metadata history "$DATA/metadata" >"$SCRATCH/cols80" || fail "COLUMNS=80"
python3 -c 'import sys; sys.exit(max(len(l) for l in open(sys.argv[1], encoding="utf-8").read().splitlines()) > 80)' "$SCRATCH/cols80" ||
  fail "COLUMNS=80: a line over 80 columns"
(unset COLUMNS; "$KEPOCH" metadata history "$DATA/metadata") >"$SCRATCH/plain" || fail "no COLUMNS"
python3 -c 'import sys; w=max(len(l) for l in open(sys.argv[1], encoding="utf-8").read().splitlines()); sys.exit(not (80 < w <= 120))' "$SCRATCH/plain" ||
  fail "without a terminal or COLUMNS the table should be laid out for 120 columns"
COLUMNS=wide "$KEPOCH" metadata history "$DATA/metadata" >"$SCRATCH/bad-cols" || fail "COLUMNS=wide"
cmp -s "$SCRATCH/bad-cols" "$SCRATCH/plain" || fail "a COLUMNS that is not a number should be ignored"
echo "ok: $checked table commands fit 80 and 120 columns on a terminal, CJK names aligned"
