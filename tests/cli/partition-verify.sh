#!/usr/bin/env bash
# `partition verify` on replica dirs written by real Kafka 4.1.1 is clean; on damaged copies
# it names the file and byte of each error and predicts LogSegment.recover's truncation.
# Expected positions and offsets come from `segment dump -o json` of the original files.
. "$(dirname "$0")/common.sh"

# --- Every real replica dir verifies clean (preallocated padding at most a warning).
mapfile -t partitions < <(find "$DATA" -name leader-epoch-checkpoint -printf '%h\n' | sort)
[[ ${#partitions[@]} -ge 15 ]] || fail "expected the committed fixtures, found ${#partitions[@]}"
partitions+=("$KEPOCH_SOURCE_DIR/tests/unit/data/indexes/ix-0")
expect_exit 0 "$KEPOCH" partition verify -o json "${partitions[@]}"
[[ $(json "$SCRATCH/out" "[(f['dir'], g) for f in d for g in f['findings'] if g['severity'] == 'error']") == "[]" ]] ||
  fail "a real replica dir has error findings"
[[ $(json "$SCRATCH/out" "[f['dir'] for f in d if f['recovery_full'] is not None or f['recovery_next_start'] is not None]") == "[]" ]] ||
  fail "recovery would cut a real replica dir"
# The preallocated time indexes of divergence/before (killed brokers' active segments) fail
# TimeIndex.sanityCheck, which no broker runs: information, not a warning (Kafka 4.4 leaves
# __cluster_metadata-0 so after a clean shutdown too).
[[ $(json "$SCRATCH/out" "sorted({g['file'] for f in d for g in f['findings'] if g['severity'] == 'warning'})") == "[]" ]] ||
  fail "no real replica dir should warn"
[[ $(json "$SCRATCH/out" "sorted({g['file'] for f in d for g in f['findings'] if 'TimeIndex.sanityCheck fails because of the preallocated zero padding' in g['message'] and g['severity'] == 'info'})") == "['00000000000000000000.timeindex']" ]] ||
  fail "the preallocated time indexes of divergence/before should be noted (info)"
[[ $(json "$SCRATCH/out" "[k for k in ('findings', 'recovery_next_start', 'recovery_full', 'epoch_checkpoint', 'rebuilt_epoch_cache', 'log_end_offset') if k not in d[0]]") == "[]" ]] ||
  fail "missing report fields"
echo "${#partitions[@]} real replica dirs: no error findings, nothing to recover"

# Table output works too.
expect_exit 0 "$KEPOCH" partition verify "$DATA/transactions/tx-0"
expect_in "$SCRATCH/out" "recovery_full"

# --- A multi-segment replica (segments 0, 8, 16, 24) with a flipped payload byte in a
# middle batch of segment 8.
ix="$KEPOCH_SOURCE_DIR/tests/unit/data/indexes/ix-0"
seg8=00000000000000000008.log
"$KEPOCH" segment dump -o json "$ix/$seg8" >"$SCRATCH/seg8.json"
pos=$(json "$SCRATCH/seg8.json" "d[0]['batches'][2]['position']")
off=$(json "$SCRATCH/seg8.json" "d[0]['batches'][2]['base_offset']")
size8=$(stat -c %s "$ix/$seg8")
[[ $pos -gt 0 && $off -eq 10 ]] || fail "unexpected fixture: batch 2 of segment 8 at $pos, offset $off"
mkdir -p "$SCRATCH/flip"
cp -a "$ix" "$SCRATCH/flip/ix-0"
python3 - "$SCRATCH/flip/ix-0/$seg8" "$((pos + 70))" <<'PY'
import sys
path, at = sys.argv[1], int(sys.argv[2])
b = bytearray(open(path, 'rb').read()); b[at] ^= 0x01; open(path, 'wb').write(b)
PY
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/flip/ix-0"
[[ $(json "$SCRATCH/out" "[(g['file'], g['position'], g['offset']) for g in d[0]['findings'] if g['severity'] == 'error']") == "[('$seg8', $pos, $off)]" ]] ||
  fail "expected one CRC error at $seg8 byte $pos offset $off"
expect_in "$SCRATCH/out" "Record is corrupt (stored crc = "
rf=$(json "$SCRATCH/out" "(lambda r: (r['truncated_segment'], r['truncate_to_offset'], r['valid_bytes'], r['truncated_bytes'], r['stop_reason'], r['deleted_segments']))(d[0]['recovery_full'])")
[[ $rf == "('$seg8', $off, $pos, $((size8 - pos)), 'invalid-batch', ['00000000000000000016.log', '00000000000000000024.log'])" ]] ||
  fail "recovery_full: $rf"
# No clean-shutdown marker, no recovery point: the next start recovers every segment.
[[ $(json "$SCRATCH/out" "d[0]['recovery_next_start'] == d[0]['recovery_full']") == True ]] ||
  fail "recovery_next_start should equal recovery_full"
# With the marker Kafka does not look at the batches.
touch "$SCRATCH/flip/.kafka_cleanshutdown"
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/flip/ix-0"
[[ $(json "$SCRATCH/out" "(d[0]['recovery_next_start'], d[0]['recovery_full']['valid_bytes'])") == "(None, $pos)" ]] ||
  fail "a clean shutdown skips recovery"
# Without it, but with the recovery point in segment 16: segment 8 is not recovered.
rm "$SCRATCH/flip/.kafka_cleanshutdown"
printf '0\n1\nix 0 20\n' >"$SCRATCH/flip/recovery-point-offset-checkpoint"
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/flip/ix-0"
[[ $(json "$SCRATCH/out" "(d[0]['recovery_point'], d[0]['recovery_next_start'])") == "(20, None)" ]] ||
  fail "recovery from the recovery point's segment only"

# --- An offset-index entry that points inside a batch.
mkdir -p "$SCRATCH/idx"
cp -a "$ix" "$SCRATCH/idx/ix-0"
"$KEPOCH" segment dump -o json "$ix/00000000000000000008.index" >"$SCRATCH/idx8.json"
ioff=$(json "$SCRATCH/idx8.json" "d[0]['entries'][0]['offset']")
ipos=$(json "$SCRATCH/idx8.json" "d[0]['entries'][0]['position']")
python3 - "$SCRATCH/idx/ix-0/00000000000000000008.index" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
rel, pos = struct.unpack('>ii', b[0:8]); b[0:8] = struct.pack('>ii', rel, pos + 1)
open(sys.argv[1], 'wb').write(b)
PY
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/idx/ix-0"
[[ $(json "$SCRATCH/out" "[(g['file'], g['position'], g['offset']) for g in d[0]['findings'] if g['severity'] == 'error']") == "[('00000000000000000008.index', 0, $ioff)]" ]] ||
  fail "expected the index entry at byte 0 to be reported"
expect_in "$SCRATCH/out" "no batch starts at byte $((ipos + 1))"
[[ $(json "$SCRATCH/out" "d[0]['recovery_full']") == None ]] || fail "an index error cuts no log bytes"

# --- A torn tail: tx-0's last batch cut in the middle.
tx="$DATA/transactions/tx-0"
log=00000000000000000000.log
"$KEPOCH" segment dump -o json "$tx/$log" >"$SCRATCH/tx.json"
last=$(json "$SCRATCH/tx.json" "d[0]['batches'][-1]['position']")
last_off=$(json "$SCRATCH/tx.json" "d[0]['batches'][-1]['base_offset']")
mkdir -p "$SCRATCH/torn"
cp -a "$tx" "$SCRATCH/torn/tx-0"
truncate -s $((last + 30)) "$SCRATCH/torn/tx-0/$log"
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/torn/tx-0"
[[ $(json "$SCRATCH/out" "[(g['file'], g['position']) for g in d[0]['findings'] if g['severity'] == 'error']") == "[('$log', $last)]" ]] ||
  fail "expected the torn tail at $log byte $last"
rn=$(json "$SCRATCH/out" "(lambda r: (r['truncated_segment'], r['truncate_to_offset'], r['valid_bytes'], r['truncated_bytes'], r['stop_reason'], r['deleted_segments']))(d[0]['recovery_next_start'])")
[[ $rn == "('$log', $last_off, $last, 30, 'partial-batch', [])" ]] || fail "recovery_next_start: $rn"
[[ $(json "$SCRATCH/out" "d[0]['log_end_offset']") == "$last_off" ]] || fail "inspect's LEO agrees"
touch "$SCRATCH/torn/.kafka_cleanshutdown"
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/torn/tx-0"
[[ $(json "$SCRATCH/out" "(d[0]['recovery_next_start'], d[0]['recovery_full']['valid_bytes'])") == "(None, $last)" ]] ||
  fail "with the clean-shutdown marker the next start cuts nothing"

# --- Zeros appended (a preallocated tail): recovery stops where they start.
size=$(stat -c %s "$tx/$log")
next=$(json "$SCRATCH/tx.json" "d[0]['batches'][-1]['last_offset'] + 1")
mkdir -p "$SCRATCH/zero"
cp -a "$tx" "$SCRATCH/zero/tx-0"
head -c 4096 /dev/zero >>"$SCRATCH/zero/tx-0/$log"
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/zero/tx-0"
[[ $(json "$SCRATCH/out" "[(g['file'], g['position']) for g in d[0]['findings'] if g['severity'] == 'error']") == "[('$log', $size)]" ]] ||
  fail "expected the zero fill at byte $size"
expect_in "$SCRATCH/out" "Found record size 0 smaller than minimum record overhead (14)"
rz=$(json "$SCRATCH/out" "(lambda r: (r['truncate_to_offset'], r['valid_bytes'], r['truncated_bytes'], r['stop_reason']))(d[0]['recovery_full'])")
[[ $rz == "($next, $size, 4096, 'corrupt-size')" ]] || fail "recovery_full: $rz"
[[ $(json "$SCRATCH/out" "d[0]['next_start_failure']") == None ]] || fail "without the marker the next start recovers"
# After a clean shutdown Kafka skips recovery but LogSegment.readNextOffset walks the last
# segment to its end and throws on the zeros: the broker exits (tests/oracle/verify-vs-kafka.sh).
touch "$SCRATCH/zero/.kafka_cleanshutdown"
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/zero/tx-0"
[[ $(json "$SCRATCH/out" "(d[0]['recovery_next_start'], (lambda f: (f['segment'], f['position'], f['exception']))(d[0]['next_start_failure']))") == \
  "(None, ('$log', $size, 'CorruptRecordException'))" ]] || fail "next_start_failure: $(json "$SCRATCH/out" "d[0]['next_start_failure']")"
expect_in "$SCRATCH/out" "the next start fails: after a clean shutdown"
# 17 zero bytes or fewer are a partial header: FileLogInputStream stops without throwing.
truncate -s $((size + 17)) "$SCRATCH/zero/tx-0/$log"
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/zero/tx-0"
[[ $(json "$SCRATCH/out" "d[0]['next_start_failure']") == None ]] || fail "a 17-byte zero tail does not fail the start"

# --- Leftovers and orphans are warnings, not errors.
mkdir -p "$SCRATCH/left"
cp -a "$tx" "$SCRATCH/left/tx-0"
touch "$SCRATCH/left/tx-0/00000000000000000042.index" "$SCRATCH/left/tx-0/00000000000000000000.log.deleted" \
  "$SCRATCH/left/tx-0/00000000000000000005.log.swap" "$SCRATCH/left/tx-0/leader-epoch-checkpoint.tmp"
expect_exit 0 "$KEPOCH" partition verify -o json "$SCRATCH/left/tx-0"
[[ $(json "$SCRATCH/out" "sorted(g['file'] for g in d[0]['findings'] if g['severity'] == 'warning')") == \
  "['00000000000000000000.log.deleted', '00000000000000000005.log.swap', '00000000000000000042.index', 'leader-epoch-checkpoint.tmp']" ]] ||
  fail "expected four leftover warnings"

# --- A corrupt producer snapshot.
mkdir -p "$SCRATCH/snap"
cp -a "$tx" "$SCRATCH/snap/tx-0"
python3 - "$SCRATCH/snap/tx-0/00000000000000000009.snapshot" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[-1] ^= 0xff; open(sys.argv[1], 'wb').write(b)
PY
expect_exit 1 "$KEPOCH" partition verify -o json "$SCRATCH/snap/tx-0"
[[ $(json "$SCRATCH/out" "[g['file'] for g in d[0]['findings'] if g['severity'] == 'error']") == "['00000000000000000009.snapshot']" ]] ||
  fail "expected the snapshot CRC error"
expect_in "$SCRATCH/out" "CRC is no longer valid"

expect_exit 3 "$KEPOCH" partition verify "$SCRATCH/nope"
echo "partition verify: real dirs clean; flipped byte, bad index entry, torn tail, zero fill, leftovers, snapshot found"
