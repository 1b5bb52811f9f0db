#!/usr/bin/env bash
# Files written by real Kafka (tests/data, made by tests/data/gen-fixtures) are judged
# clean: every checkpoint valid with no warning even under --strict, every segment's
# batches intact from the first byte to the last.
. "$(dirname "$0")/common.sh"

# zk-mode/ comes from another cluster (Kafka 3.9.1 in ZooKeeper mode), whose topic t is not
# the KRaft runs' t: checked on its own below, not paired with their replicas.
mapfile -t partitions < <(find "$DATA" -path "$DATA/zk-mode" -prune -o -name leader-epoch-checkpoint -printf '%h\n' | sort)
[[ ${#partitions[@]} -ge 15 ]] || fail "expected the committed fixtures, found ${#partitions[@]} partition dirs"
expect_exit 0 "$KEPOCH" checkpoint validate --strict -o json "$DATA/zk-mode/broker-3"
[[ $(json "$SCRATCH/out" "[(f['file'], p['severity']) for f in d if not f['valid'] or f['kafka_outcome'] != 'ok' for p in f['problems']] + [(f['file'], p['severity']) for f in d for p in f['problems'] if p['severity'] != 'info']") == "[]" ]] ||
  fail "the ZooKeeper-mode log dir was not judged clean: $(cat "$SCRATCH/out")"
expect_exit 0 "$KEPOCH" checkpoint validate --strict -o json "${partitions[@]}" "$DATA/logdir"
[[ $(json "$SCRATCH/out" "[f['file'] for f in d if not f['valid'] or f['problems'] or f['kafka_outcome'] != 'ok']") == "[]" ]] ||
  fail "a real checkpoint was not judged clean"
[[ $(json "$SCRATCH/out" "sorted({f['kind'] for f in d})") == "['leader-epoch', 'meta-properties', 'offsets', 'partition-metadata']" ]] ||
  fail "expected every kind of checkpoint among the fixtures"
echo "$(json "$SCRATCH/out" "len(d)") real checkpoint files: all valid"

# Each leader-epoch-checkpoint loads as written (Kafka writes them normalised).
[[ $(json "$SCRATCH/out" "[f['file'] for f in d if f['kind'] == 'leader-epoch' and f['entries'] != f['loaded_entries']]") == "[]" ]] ||
  fail "Kafka's own file would be normalised on load"

mapfile -t logs < <(find "$DATA" -name '[0-9]*.log' | sort)
[[ ${#logs[@]} -ge 15 ]] || fail "expected the committed segments, found ${#logs[@]}"
expect_exit 0 "$KEPOCH" segment dump -o json "${logs[@]}"
[[ $(json "$SCRATCH/out" "[(f['file'], f['end'], f['problems']) for f in d if f['end'] != 'end-of-file' or f['trailing_bytes'] or not all(b['crc_valid'] for b in f['batches'])]") == "[]" ]] ||
  fail "a real segment was not intact"
echo "${#logs[@]} real segments, $(json "$SCRATCH/out" "sum(len(f['batches']) for f in d)") batches: every CRC valid, no trailing bytes"
