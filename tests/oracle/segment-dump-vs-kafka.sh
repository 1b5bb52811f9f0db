#!/usr/bin/env bash
# Kafka's own DumpLogSegments as the oracle for `kepoch segment dump`: on segments written
# by real brokers (each codec, transactional commits and aborts with their control
# batches, the KRaft metadata log and snapshots), every batch header, every record and every
# control record (commit/abort markers, LeaderChange, SnapshotHeader/Footer, KRaftVersion,
# KRaftVoters) agree field by field.
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
failed=0
compare_log() {  # compare_log FILE [compare_dump.py options...]: one segment of broker 1
  local f=$1; shift
  expect_exit 0 "$KEPOCH" segment dump -o json --records "$f"
  cp "$SCRATCH/out" "$SCRATCH/kepoch.json"
  "$KC" dump-log --deep-iteration --files "$f" > "$SCRATCH/kafka.txt" ||
    fail "DumpLogSegments failed on $f"
  python3 "$(dirname "$0")/compare_dump.py" "$SCRATCH/kepoch.json" "$SCRATCH/kafka.txt" "$@" || failed=1
}
# Each topic holds one segment: Kafka must list the 30 records produced, in the topic's codec;
# txn: 12 records and 3 markers.
for codec in none gzip snappy lz4 zstd; do
  compare_log "$logdir/c-$codec-0/00000000000000000000.log" --min-records 30 --codec "$codec"
done
compare_log "$logdir/txn-0/00000000000000000000.log" --min-records 15
# Control records of the KRaft metadata log (LeaderChange, decoded by
# --cluster-metadata-decoder), of the controller's bootstrap snapshot (SnapshotHeader and
# SnapshotFooter) and of the committed dynamic-quorum snapshot (KRaftVersion, KRaftVoters):
# every control field agrees with Kafka's JsonConverter output.
meta="$("$KC" logdir controller)"
compare_meta() {  # compare_meta FILE [kepoch options...]
  local f=$1; shift
  expect_exit 0 "$KEPOCH" segment dump -o json --records "$@" "$f"
  cp "$SCRATCH/out" "$SCRATCH/kepoch.json"
  "$KC" dump-log --deep-iteration --cluster-metadata-decoder --files "$f" > "$SCRATCH/kafka.txt" ||
    fail "DumpLogSegments failed on $f"
  python3 "$(dirname "$0")/compare_dump.py" "$SCRATCH/kepoch.json" "$SCRATCH/kafka.txt" || failed=1
}
for f in "$meta"/__cluster_metadata-0/*.log; do compare_meta "$f"; done
# The bootstrap snapshot: bootstrap.checkpoint up to 4.3; 4.4 writes none, its bootstrap
# records are in the first snapshot of the log (00000000000000000000-0000000000.checkpoint).
boot=("$meta"/bootstrap.checkpoint "$meta"/__cluster_metadata-0/*.checkpoint)
found=0
for f in "${boot[@]}"; do [[ -f $f ]] && { compare_meta "$f"; found=$((found + 1)); }; done
[[ $found -ge 1 ]] || fail "no bootstrap snapshot in $meta (bootstrap.checkpoint or __cluster_metadata-0/*.checkpoint)"
compare_meta "$KEPOCH_SOURCE_DIR/tests/data/kraft-standalone/__cluster_metadata-0/00000000000000000000-0000000000.checkpoint"
[[ $failed -eq 0 ]] || fail "kepoch and DumpLogSegments disagree"
# The metadata log must really hold a LeaderChange, or the comparison proves little.
expect_exit 0 "$KEPOCH" segment dump -o json --records "$meta/__cluster_metadata-0/00000000000000000000.log"
[[ $(json "$SCRATCH/out" "sum(r.get('control', {}).get('type') == 'leader_change' for b in d[0]['batches'] for r in b.get('records', []))") -ge 1 ]] ||
  fail "no LeaderChange in the metadata log"
# The transactional topic must really hold control batches, or the test proves little.
expect_exit 0 "$KEPOCH" segment dump -o json "$logdir/txn-0/00000000000000000000.log"
[[ $(json "$SCRATCH/out" "sum(b['is_control'] for b in d[0]['batches'])") -ge 2 ]] || fail "no control batches"
