#!/usr/bin/env bash
# `segment dump` lists the entries of the index files and producer snapshots real Kafka
# 4.1.1 wrote (tests/unit/data/indexes/ix-0, every kind of file, and all of tests/data), and
# they agree with the sibling .log as `segment dump` reads it: an .index entry points at the
# start of the batch whose last offset it names, a .timeindex entry names a batch's last
# offset and its max timestamp, a .txnindex entry ends at its producer's ABORT marker, a
# snapshot holds each producer's last batch before the snapshot's offset.
. "$(dirname "$0")/common.sh"
IX="$KEPOCH_SOURCE_DIR/tests/unit/data/indexes/ix-0"

# Every file of the partition in one call, .log files mixed in.
mapfile -t files < <(find "$IX" -type f | sort)
[[ ${#files[@]} -eq 18 ]] || fail "expected the 18 files of ix-0, found ${#files[@]}"
expect_exit 0 "$KEPOCH" segment dump -o json "${files[@]}"
cp "$SCRATCH/out" "$SCRATCH/ix.json"
[[ $(json "$SCRATCH/ix.json" "{k: sum(f['kind'] == k for f in d) for k in ['log', 'index', 'timeindex', 'txnindex', 'snapshot']}") == "{'log': 4, 'index': 4, 'timeindex': 4, 'txnindex': 2, 'snapshot': 4}" ]] ||
  fail "expected every kind of file, told from the names"
[[ $(json "$SCRATCH/ix.json" "[f['file'] for f in d if f['kind'] != 'log' and (f['problems'] or f['sanity_check'] is not None or f['trailing_bytes'] or f['entry_count'] != len(f['entries']))]") == "[]" ]] ||
  fail "a file of a cleanly shut down broker was not judged clean"
[[ $(json "$SCRATCH/ix.json" "[f['file'] for f in d if f['kind'] in ('index', 'timeindex') and (f['valid_entries'] != f['entry_count'] or f['zero_padding'] != 0)]") == "[]" ]] ||
  fail "trimmed indexes have neither padding nor invalid entries"

# Known values (DumpLogSegments printed the same: tests/unit/data/indexes/dump/ix-0.txt).
one() { json "$SCRATCH/ix.json" "[f for f in d if f['file'].endswith('/$1')][0]$2"; }
[[ $(one 00000000000000000008.index "['entries']") == "[{'offset': 9, 'position': 80}, {'offset': 10, 'position': 160}, {'offset': 11, 'position': 242}, {'offset': 12, 'position': 324}, {'offset': 13, 'position': 404}, {'offset': 14, 'position': 484}, {'offset': 15, 'position': 564}]" ]] ||
  fail "00000000000000000008.index entries"
[[ $(one 00000000000000000008.index "['base_offset']") == 8 ]] ||
  fail "base offset from the name"
[[ $(one 00000000000000000024.timeindex "['entries'][0]") == "{'timestamp': 1795940320584, 'timestamp_iso': '2026-11-29T08:18:40.584Z', 'offset': 25}" ]] ||
  fail "00000000000000000024.timeindex first entry"
[[ $(one 00000000000000000024.txnindex "['entries']") == "[{'version': 0, 'producer_id': 2001, 'first_offset': 23, 'last_offset': 25, 'last_stable_offset': 26}]" ]] ||
  fail "00000000000000000024.txnindex entries"
[[ $(one 00000000000000000024.snapshot "['entries'][2]") == "{'producer_id': 2001, 'producer_epoch': 0, 'last_sequence': 0, 'last_offset': 23, 'offset_delta': 0, 'timestamp': 1795940320354, 'timestamp_iso': '2026-11-29T08:18:40.354Z', 'coordinator_epoch': -1, 'current_txn_first_offset': 23}" ]] ||
  fail "00000000000000000024.snapshot: producer 2001 inside its transaction from offset 23"
[[ $(json "$SCRATCH/ix.json" "[(f['version'], f['crc_valid'], len(f['entries'])) for f in d if f['kind'] == 'snapshot']") == "[(1, True, 1), (1, True, 2), (1, True, 5), (1, True, 6)]" ]] ||
  fail "snapshots: version, CRC, producer counts"

# Against the .log files, as `segment dump` of the .log reports them.
python3 - "$SCRATCH/ix.json" <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
logs = {f['base_offset']: f for f in d if f['kind'] == 'log'}
batches = [b for base in sorted(logs) for b in logs[base]['batches']]
by_last = {b['last_offset']: b for b in batches}
errors, checked = [], 0
for f in d:
    name, base = os.path.basename(f['file']), f['base_offset']
    if f['kind'] == 'index':
        starts = {b['position']: b for b in logs[base]['batches']}
        for e in f['entries']:
            b = starts.get(e['position'])
            if b is None:
                errors.append(f"{name}: position {e['position']} is not a batch start")
            elif b['last_offset'] != e['offset']:
                errors.append(f"{name}: offset {e['offset']} but the batch at {e['position']} ends at {b['last_offset']}")
            checked += 1
    elif f['kind'] == 'timeindex':
        seg = {b['last_offset']: b for b in logs[base]['batches']}
        for e in f['entries']:
            b = seg.get(e['offset'])
            if b is None or b['max_timestamp'] != e['timestamp']:
                errors.append(f"{name}: no batch ends at {e['offset']} with max timestamp {e['timestamp']}")
            checked += 1
    elif f['kind'] == 'txnindex':
        seg = {b['base_offset']: b for b in logs[base]['batches']}
        for e in f['entries']:
            m = seg.get(e['last_offset'])
            if m is None or not m['is_control'] or m['producer_id'] != e['producer_id']:
                errors.append(f"{name}: no ABORT marker of producer {e['producer_id']} at {e['last_offset']}")
            first = by_last.get(e['first_offset'])
            if first is None or first['producer_id'] != e['producer_id'] or not first['is_transactional']:
                errors.append(f"{name}: no transactional batch of producer {e['producer_id']} at {e['first_offset']}")
            checked += 1
    elif f['kind'] == 'snapshot':
        for e in f['entries']:
            if e['last_offset'] < 0:
                continue  # no batch metadata (a producer whose last write was a marker)
            b = by_last.get(e['last_offset'])
            if e['last_offset'] >= base:
                errors.append(f"{name}: producer {e['producer_id']} at {e['last_offset']}, not before {base}")
            if b is None or b['producer_id'] != e['producer_id'] or b['producer_epoch'] != e['producer_epoch'] \
                    or b['base_sequence'] + b['count'] - 1 != e['last_sequence'] or b['max_timestamp'] != e['timestamp']:
                errors.append(f"{name}: producer {e['producer_id']} does not match the batch ending at {e['last_offset']}")
            checked += 1
print(f"{checked} entries checked against the .log files")
if errors or checked < 40:
    print("\n".join(errors) or "too few entries checked")
    sys.exit(1)
EOF

# The .log is still dumped as before, alone.
expect_exit 0 "$KEPOCH" segment dump -o json "$IX/00000000000000000016.log"
[[ $(json "$SCRATCH/out" "(d[0]['kind'], d[0]['base_offset'], len(d[0]['batches']), d[0]['end'])") == "('log', 16, 8, 'end-of-file')" ]] ||
  fail "a .log dump changed"

# Every index file and snapshot in tests/data: Kafka's own files, no errors. The copies of
# running or killed brokers (divergence/before, metadata-snapshot) are untrimmed: zero
# padding, a warning, exit 0.
# The remote index cache's <offset>_<segment id>.index files are no segment's: logdir scan
# reads them (tests/cli/logdir-scan-index-cache.sh).
mapfile -t others < <(find "$DATA" -type f \( -name '*.index' -o -name '*.timeindex' -o -name '*.txnindex' -o -name '*.snapshot' \) \
  -not -path '*/remote-log-index-cache/*' | sort)
[[ ${#others[@]} -ge 60 ]] || fail "expected the committed index files, found ${#others[@]}"
expect_exit 0 "$KEPOCH" segment dump -o json "${others[@]}"
[[ $(json "$SCRATCH/out" "[f['file'] for f in d if any(p['severity'] == 'error' for p in f['problems'])]") == "[]" ]] ||
  fail "an index file written by Kafka has an error"
[[ $(json "$SCRATCH/out" "sorted({f['file'].split('/data/')[1].rsplit('/', 2)[0] for f in d if f['zero_padding']})") == "['divergence/before/broker-1', 'divergence/before/broker-2', 'divergence/before/broker-3', 'metadata-snapshot/broker-1', 'metadata-snapshot/broker-3']" ]] ||
  fail "only the running brokers' indexes are untrimmed"
echo "${#others[@]} index and snapshot files in tests/data: no errors"
