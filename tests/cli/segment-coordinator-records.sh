#!/usr/bin/env bash
# `segment dump --records` on the coordinators' logs written by Kafka 4.4.0 and 3.9.1
# (tests/data/coordinator): every record decoded as Kafka's DumpLogSegments --offsets-decoder
# and --transaction-log-decoder decoded it (their output kept beside the segments), field by
# field (tests/oracle/compare_coordinator.py, the oracle's comparer); then hostile copies: a
# record type no Kafka writes, a value version above the schema's, the transaction log read
# as offsets and a plain topic read as a coordinator log: each an error naming the record's
# offset and byte, exit 1, never a crash; --decode none leaves the records undecoded.
. "$(dirname "$0")/common.sh"
for v in 4.4.0 3.9.1; do
  dir="$DATA/coordinator/$v"
  for log in offsets transactions; do
    prefix=$([[ $log == offsets ]] && echo __consumer_offsets || echo __transaction_state)
    (cd "$dir" && "$KEPOCH" segment dump -o json --records "$prefix"-*/*.log) > "$SCRATCH/$log.json" ||
      fail "$v $log: kepoch failed"
    python3 "$KEPOCH_SOURCE_DIR/tests/oracle/compare_coordinator.py" "$SCRATCH/$log.json" \
      "$dir/$log-dump-log.txt" "$log" --min-records 10 || fail "$v $log: kepoch and DumpLogSegments disagree"
  done
done

# Hostile copies (in dirs named as Kafka names them, so auto picks the decoder).
src="$DATA/coordinator/4.4.0/__transaction_state-0/00000000000000000000.log"
mkdir -p "$SCRATCH/__transaction_state-0" "$SCRATCH/__consumer_offsets-0"
# The first record's key begins 64 bytes into the file (61-byte batch header, then the
# record's length, attributes, timestamp and offset deltas, key length: 5 varint bytes here);
# find it rather than trust that: the key is int16 0 then int16 9 "tx-commit".
pos=$(python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print(d.index(b"\x00\x00\x00\x09tx-commit"))' "$src")
python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read()); p = int(sys.argv[2])
d[p:p + 2] = b"\x00\x63"        # record type 99
open(sys.argv[3], "wb").write(d)' "$src" "$pos" "$SCRATCH/__transaction_state-0/00000000000000000000.log"
expect_exit 1 "$KEPOCH" segment dump -o json --records "$SCRATCH/__transaction_state-0/00000000000000000000.log"
expect_in "$SCRATCH/out" "record at offset 0: at byte $pos: Unknown record type 99"
[[ $(wc -l < "$SCRATCH/err") -eq 0 ]] || fail "a record error printed on stderr"
expect_exit 1 "$KEPOCH" segment dump --records "$SCRATCH/__transaction_state-0/00000000000000000000.log"
expect_in "$SCRATCH/out" "Unknown record type 99"
# A value version above TransactionLogValue's 0-1: the value's first two bytes.
vpos=$(python3 -c '
import sys
d = open(sys.argv[1], "rb").read(); k = int(sys.argv[2])
print(k + 2 + 2 + 9 + 1)' "$src" "$pos")  # key: type, length, "tx-commit"; then the value length varint (1 byte)
python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read()); p = int(sys.argv[2])
assert d[p:p + 2] == b"\x00\x01", d[p:p + 2]
d[p:p + 2] = b"\x00\x07"
open(sys.argv[3], "wb").write(d)' "$src" "$vpos" "$SCRATCH/__transaction_state-0/00000000000000000000.log"
expect_exit 1 "$KEPOCH" segment dump -o json --records "$SCRATCH/__transaction_state-0/00000000000000000000.log"
expect_in "$SCRATCH/out" "at byte $vpos: TransactionLogValue version 7 is not one Kafka writes (0-1)"
# The transaction log read as the offsets log: its type 0 key is too short for
# LegacyOffsetCommitKey; every record an error, exit 1.
expect_exit 1 "$KEPOCH" segment dump -o json --records --decode offsets "$src"
[[ $(json "$SCRATCH/out" "sum('error' in r['coordinator'] for b in d[0]['batches'] for r in b['records'])") -ge 1 ]] ||
  fail "--decode offsets on the transaction log decoded its records"
# A plain topic's segment read as a coordinator log: errors, no crash.
plain=$(find "$DATA/codecs" -name '00000000000000000000.log' | head -n1)
expect_exit 1 "$KEPOCH" segment dump -o json --records --decode transactions "$plain"
# Its batches are whole (every CRC holds): the opening sentence, said from the headers and
# checksums before any record is decoded, never calls the file undamaged; the closing
# sentence says what the decode found, and the exit code (1) follows it.
[[ $(json "$SCRATCH/out" "d[0]['summary']") == *"its batch headers and checksums are sound, and the closing sentence says whether every record decodes." ]] ||
  fail "opening of a dump whose records are decoded after it: $(json "$SCRATCH/out" "d[0]['summary']")"
expect_not_in "$SCRATCH/out" "no damage found"
[[ $(json "$SCRATCH/out" "d[0]['records_summary']") =~ ^[0-9]+\ records?\ do(es)?\ not\ decode\ \(the\ first\ in\ the\ batch\ at\ offset\ [0-9]+\)\.$ ]] ||
  fail "closing sentence: $(json "$SCRATCH/out" "d[0]['records_summary']")"
# In a table the closing sentence is the last line before the blank one that ends the item.
expect_exit 1 "$KEPOCH" segment dump --records --decode transactions "$plain"
[[ $(grep -v '^$' "$SCRATCH/out" | tail -n1) == *" not decode (the first in the batch at offset "*")." ]] ||
  fail "table: no closing sentence: $(tail -n2 "$SCRATCH/out")"
# The same file decoded as what it is: every record decodes, exit 0.
expect_exit 0 "$KEPOCH" segment dump -o json --records --decode none "$plain"
[[ $(json "$SCRATCH/out" "d[0]['records_summary']") == "Every record read decodes." ]] ||
  fail "closing sentence of a clean dump: $(json "$SCRATCH/out" "d[0]['records_summary']")"
# --decode none: the records alone.
expect_exit 0 "$KEPOCH" segment dump -o json --records --decode none "$src"
[[ $(json "$SCRATCH/out" "sum('coordinator' in r for b in d[0]['batches'] for r in b['records'])") -eq 0 ]] ||
  fail "--decode none decoded"
# Without --records nothing is decoded, and standard input needs --decode to be.
expect_exit 0 "$KEPOCH" segment dump -o json --records - < "$src"
[[ $(json "$SCRATCH/out" "sum('coordinator' in r for b in d[0]['batches'] for r in b['records'])") -eq 0 ]] ||
  fail "standard input decoded without --decode"
echo "coordinator logs of Kafka 4.4.0 and 3.9.1: every record as DumpLogSegments decodes it; hostile copies refused by offset and byte"
