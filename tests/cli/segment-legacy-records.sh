#!/usr/bin/env bash
# `segment dump --records/--data` decodes legacy (v0/v1) messages as Kafka's LegacyRecord and
# AbstractLegacyRecordBatch.DeepRecordsIterator do. Kafka 4.x cannot write these formats,
# so legacy_log.py builds the segment byte by byte per the spec's layout: a v0 message, a v1
# message, a v1 gzip wrapper of relative inner offsets, a v0 gzip wrapper of absolute ones,
# a v1 message with a damaged CRC, a v0 wrapper of a v1 message, and a wrapper whose value
# is not gzip.
. "$(dirname "$0")/common.sh"
LOG="$SCRATCH/00000000000000000000.log"
python3 "$(dirname "$0")/legacy_log.py" "$LOG"

expect_exit 1 "$KEPOCH" segment dump -o json --data "$LOG"
cp "$SCRATCH/out" "$SCRATCH/dump.json"
[[ $(json "$SCRATCH/dump.json" "[(b['magic'], b['compression'], b['base_offset']) for b in d[0]['batches']]") == \
   "[(0, 'none', 0), (1, 'none', 1), (1, 'gzip', 4), (0, 'gzip', 6), (1, 'none', 7), (0, 'gzip', 8), (1, 'gzip', 9)]" ]] ||
  fail "entries"
[[ $(json "$SCRATCH/dump.json" "[(r['offset'], r['timestamp'], r['timestamp_type'], r['key'], r['value']) for b in d[0]['batches'] for r in b['records']]") == \
   "[(0, -1, 'no-timestamp', 'a', 'zero'), (1, 1000, 'create-time', None, 'one'), (2, 100, 'create-time', 'k0', 'v0'), (3, 101, 'create-time', 'k1', 'v1'), (4, 102, 'create-time', 'k2', 'v2'), (5, -1, 'no-timestamp', None, 'w0'), (6, -1, 'no-timestamp', None, 'w1'), (7, 2000, 'log-append-time', 'b', 'damaged'), (8, 777, 'no-timestamp', 'm', 'mixed')]" ]] ||
  fail "records"
[[ $(json "$SCRATCH/dump.json" "[(r['offset'], r['crc_valid']) for b in d[0]['batches'] for r in b['records'] if not r['crc_valid']]") == "[(7, False)]" ]] ||
  fail "the damaged message"
[[ $(json "$SCRATCH/dump.json" "d[0]['batches'][4]['crc_valid']") == False ]] || fail "entry CRC"
[[ $(json "$SCRATCH/dump.json" "d[0]['batches'][6]['records_error'].startswith('at byte ')") == True ]] || fail "undecompressable wrapper"
[[ $(json "$SCRATCH/dump.json" "len(d[0]['problems'])") == 2 ]] || fail "two problems: the CRC and the wrapper"
[[ $(json "$SCRATCH/dump.json" "sum('records_error' in b for b in d[0]['batches'])") == 1 ]] || fail "only the bad wrapper fails"

# The table lists every inner record under its wrapper, with its own CRC check (-o wide:
# the nested lines in full; the default table shortens them to 120 columns).
expect_exit 1 "$KEPOCH" segment dump -o wide --records "$LOG"
expect_in "$SCRATCH/out" "| offset: 3 timestamp: 1970-01-01T00:00:00.101Z sequence: -1"
expect_in "$SCRATCH/out" "timestamp_type: no-timestamp crc:"
expect_in "$SCRATCH/err" "batch at offset 9: at byte"
