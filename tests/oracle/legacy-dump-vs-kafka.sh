#!/usr/bin/env bash
# Kafka's own DumpLogSegments as the oracle for legacy (magic v0/v1) records: Kafka 4.x
# cannot write them but still reads them (LegacyRecord, AbstractLegacyRecordBatch's
# DeepRecordsIterator). On a segment built per the spec (tests/cli/legacy_log.py: v0 and v1
# messages, v1 and v0 gzip wrappers, a damaged CRC, a v1 message in a v0 wrapper), every
# entry and every inner record
# agree field by field: absolute offsets, timestamps and their types, sizes, CRCs and their
# checks. No cluster: only Kafka's tool.
. "$(dirname "$0")/common.sh"
LOG="$SCRATCH/00000000000000000000.log"
python3 "$KEPOCH_SOURCE_DIR/tests/cli/legacy_log.py" "$LOG" --kafka-readable

expect_exit 1 "$KEPOCH" segment dump -o json --records "$LOG"  # 1: the damaged CRC
cp "$SCRATCH/out" "$SCRATCH/kepoch.json"
"$KC" dump-log --deep-iteration --files "$LOG" > "$SCRATCH/kafka.txt" 2>"$SCRATCH/kafka.err" ||
  { cat "$SCRATCH/kafka.err"; fail "DumpLogSegments failed"; }
python3 "$(dirname "$0")/compare_dump.py" "$SCRATCH/kepoch.json" "$SCRATCH/kafka.txt" ||
  fail "kepoch and DumpLogSegments disagree"
# Kafka must really have listed the inner records, or the comparison proves little.
[[ $(grep -c '^| offset:' "$SCRATCH/kafka.txt") -eq 9 ]] || fail "Kafka listed $(grep -c '^| offset:' "$SCRATCH/kafka.txt") records, not 9"
