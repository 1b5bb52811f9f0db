#!/usr/bin/env bash
# Kafka's own DumpLogSegments --cluster-metadata-decoder as the oracle for `kepoch metadata
# dump`, run now (no cluster needed) on the controller's metadata log of run A and on its
# bootstrap snapshot (bootstrap.checkpoint): every data record Kafka decodes has the same
# type, version and fields in kepoch's dump. Also checks that the committed
# tests/data/metadata/dump-log-records.txt is what the tool prints today.
. "$(dirname "$0")/common.sh"
compare() {  # compare FILE
  expect_exit 0 "$KEPOCH" metadata dump -o json "$1"
  cp "$SCRATCH/out" "$SCRATCH/kepoch.json"
  "$KC" dump-log --cluster-metadata-decoder --print-data-log --files "$1" > "$SCRATCH/kafka-all.txt" ||
    fail "DumpLogSegments failed on $1"
  { grep payload "$SCRATCH/kafka-all.txt" || true; } | grep -v NO_OP_RECORD > "$SCRATCH/kafka.txt" || true
  [[ -s $SCRATCH/kafka.txt ]] || fail "DumpLogSegments printed no record for $1"
  python3 "$KEPOCH_SOURCE_DIR/tests/cli/metadata_compare.py" "$SCRATCH/kepoch.json" "$SCRATCH/kafka.txt" ||
    fail "kepoch and DumpLogSegments disagree on $1"
}
compare "$DATA/metadata/__cluster_metadata-0/00000000000000000000.log"
cmp "$SCRATCH/kafka.txt" "$DATA/metadata/dump-log-records.txt" ||
  fail "tests/data/metadata/dump-log-records.txt is not what DumpLogSegments prints"
compare "$DATA/metadata/bootstrap.checkpoint"
