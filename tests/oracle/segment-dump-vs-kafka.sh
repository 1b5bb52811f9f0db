#!/usr/bin/env bash
# Kafka's own DumpLogSegments as the oracle for `kepoch segment dump`: on segments written
# by real brokers (each codec, transactional commits and aborts with their control
# batches), every batch header and every record agree field by field.
. "$(dirname "$0")/common.sh"
cluster_up

for codec in none gzip snappy lz4 zstd; do
  "$KC" create-topic "c-$codec" --assignment 1 >/dev/null
  "$KC" produce "c-$codec" 30 --codec "$codec" >/dev/null
done
"$KC" create-topic txn --assignment 1 >/dev/null
"$KC" produce txn 5 --transactional >/dev/null
"$KC" produce txn 4 --abort --start 5 >/dev/null
"$KC" produce txn 3 --transactional --start 9 --codec lz4 >/dev/null
"$KC" down --graceful >/dev/null

logdir="$("$KC" logdir 1)"
files=("$logdir"/c-*-0/*.log "$logdir"/txn-0/*.log)
failed=0
for f in "${files[@]}"; do
  expect_exit 0 "$KEPOCH" segment dump -o json --records "$f"
  cp "$SCRATCH/out" "$SCRATCH/kepoch.json"
  "$KC" dump-log --deep-iteration --files "$f" > "$SCRATCH/kafka.txt" 2>/dev/null
  python3 "$(dirname "$0")/compare_dump.py" "$SCRATCH/kepoch.json" "$SCRATCH/kafka.txt" || failed=1
done
[[ $failed -eq 0 ]] || fail "kepoch and DumpLogSegments disagree"
# The transactional topic must really hold control batches, or the test proves little.
expect_exit 0 "$KEPOCH" segment dump -o json "$logdir/txn-0/00000000000000000000.log"
[[ $(json "$SCRATCH/out" "sum(b['is_control'] for b in d[0]['batches'])") -ge 2 ]] || fail "no control batches"
