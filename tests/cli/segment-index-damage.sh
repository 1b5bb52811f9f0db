#!/usr/bin/env bash
# Damaged copies of real index files and snapshots (made here, in the scratch dir): each is
# reported with its exact finding at the exact byte, and `sanity_check` carries the message
# Kafka 4.1.1's own check threw on the same damage (tests/unit/data/indexes/dump/*.txt,
# recorded by make-damaged-oracle and from crashed brokers). Errors exit 1; an untrimmed
# index (a running or crashed broker's active segment) is a warning, exit 0.
. "$(dirname "$0")/common.sh"
IDX="$KEPOCH_SOURCE_DIR/tests/unit/data/indexes"
IX="$IDX/ix-0"
ORACLE="$IDX/dump/damaged.txt"

# kafka_says CASE NAME PATH: Kafka's message for that damage case, with the file path that
# make-damaged-oracle cut to NAME put back as PATH.
kafka_says() {
  awk -v c="== $1" '$0 == c {f = 1; next} /^== / {f = 0} f' "$ORACLE" | grep -v '^Dumping ' |
    sed -e 's/^Exception in thread "main" [a-zA-Z.]*: //' -e "s#$2#$3#"
}
# problems: the problems of the (only) file, as "severity position message" lines.
problems() { json "$SCRATCH/out" "'\n'.join(f\"{p['severity']} {p['position']} {p['message']}\" for p in d[0]['problems'])"; }
field() { json "$SCRATCH/out" "d[0]['$1']"; }

mkdir "$SCRATCH/d"
I8="$SCRATCH/d/00000000000000000008.index"
T16="$SCRATCH/d/00000000000000000016.timeindex"
S16="$SCRATCH/d/00000000000000000016.snapshot"
X24="$SCRATCH/d/00000000000000000024.txnindex"

# Truncated offset index: 53 bytes, 6 whole entries, 5 bytes left over.
head -c 53 "$IX/00000000000000000008.index" > "$I8"
expect_exit 1 "$KEPOCH" segment dump -o json "$I8"
[[ $(json "$SCRATCH/out" "(len(d[0]['entries']), d[0]['entry_count'], d[0]['trailing_bytes'], d[0]['entries'][-1])") == "(6, 6, 5, {'offset': 14, 'position': 484})" ]] ||
  fail "truncated .index: the 6 whole entries and 5 trailing bytes"
problems > "$SCRATCH/p"
expect_in "$SCRATCH/p" "error 48 5 bytes after the last whole 8-byte entry"
[[ $(field sanity_check) == "$(kafka_says index-truncated 00000000000000000008.index "$I8")" ]] ||
  fail "truncated .index: sanity_check is not Kafka's message: $(field sanity_check)"
# Table form: the finding on stderr, at its byte.
expect_exit 1 "$KEPOCH" segment dump "$I8"
expect_in "$SCRATCH/err" "$I8: at byte 48: error: 5 bytes after the last whole 8-byte entry"
expect_in "$SCRATCH/err" "(Kafka: CorruptIndexException: Index file $I8 is corrupt, found 53 bytes"
expect_in "$SCRATCH/out" "trailing_bytes  5"

# Last offset below the base offset: one entry, relative offset -1.
{ printf '\xff\xff\xff\xff'; head -c 8 "$IX/00000000000000000008.index" | tail -c 4; } > "$I8"
expect_exit 1 "$KEPOCH" segment dump -o json "$I8"
[[ $(json "$SCRATCH/out" "d[0]['entries']") == "[{'offset': 7, 'position': 80}]" ]] || fail "relative offset -1 is offset 7"
problems > "$SCRATCH/p"
expect_in "$SCRATCH/p" "error 0 entry 0: relative offset -1 is negative (offset 7 is below the segment base offset 8)"
[[ $(field sanity_check) == "$(kafka_says index-last-below-base 00000000000000000008.index "$I8")" ]] ||
  fail "index below base: sanity_check is not Kafka's message: $(field sanity_check)"

# Zero-filled offset index: Kafka's sanityCheck passes; all 7 entries are padding.
head -c 56 /dev/zero > "$I8"
expect_exit 0 "$KEPOCH" segment dump -o json "$I8"
[[ $(json "$SCRATCH/out" "(d[0]['entries'], d[0]['entry_count'], d[0]['valid_entries'], d[0]['zero_padding'], d[0]['sanity_check'])") == "([], 7, 0, 7, None)" ]] ||
  fail "zero-filled .index: 7 entries of padding, sanity check passes"
[[ $(kafka_says index-zero x x) == "00000000000000000008.index passed sanity check." ]] || fail "oracle: index-zero passed"
[[ $(problems) == "warning 0 7 zero entries of preallocated space: the index was not trimmed (the active segment of a running broker or of one that did not shut down cleanly); Kafka counts them as entries until the segment is recovered" ]] ||
  fail "zero-filled .index: one warning at byte 0"

# Odd-length time index: 79 bytes, 6 whole entries, 7 bytes left over.
head -c 79 "$IX/00000000000000000016.timeindex" > "$T16"
expect_exit 1 "$KEPOCH" segment dump -o json "$T16"
[[ $(json "$SCRATCH/out" "(len(d[0]['entries']), d[0]['trailing_bytes'])") == "(6, 7)" ]] || fail "odd-length .timeindex"
problems > "$SCRATCH/p"
expect_in "$SCRATCH/p" "error 72 7 bytes after the last whole 12-byte entry"
[[ $(field sanity_check) == "$(kafka_says timeindex-truncated 00000000000000000016.timeindex "$T16")" ]] ||
  fail "odd-length .timeindex: sanity_check is not Kafka's message: $(field sanity_check)"

# Zero-filled time index: Kafka passes it (first and last timestamp are both 0).
head -c 84 /dev/zero > "$T16"
expect_exit 0 "$KEPOCH" segment dump -o json "$T16"
[[ $(json "$SCRATCH/out" "(d[0]['entries'], d[0]['zero_padding'], d[0]['sanity_check'])") == "([], 7, None)" ]] ||
  fail "zero-filled .timeindex"

# The crashed broker's untrimmed indexes: 4 real entries, then zeros up to 96 bytes. The
# .index passes Kafka's sanityCheck, the .timeindex fails it (as DumpLogSegments said).
CR="$SCRATCH/crash"
cp -r "$IDX/crash-0.killed" "$CR"
expect_exit 0 "$KEPOCH" segment dump -o json "$CR/00000000000000000000.index" "$CR/00000000000000000000.timeindex"
[[ $(json "$SCRATCH/out" "[(len(f['entries']), f['entry_count'], f['zero_padding']) for f in d]") == "[(4, 12, 8), (4, 8, 4)]" ]] ||
  fail "crashed indexes: 4 entries listed, the padding counted"
[[ $(json "$SCRATCH/out" "d[0]['sanity_check']") == None ]] || fail "crashed .index passes the sanity check"
want="$(grep -o 'Corrupt time index found.*' "$IDX/dump/crash-0.killed.txt" | sed "s#/tmp/idx_raw/crash-0.killed-leader#$CR#")"
[[ $(json "$SCRATCH/out" "d[1]['sanity_check']") == "$want" ]] || fail "crashed .timeindex: not Kafka's message"
[[ $(json "$SCRATCH/out" "[(p['severity'], p['position']) for p in d[1]['problems']]") == "[('warning', 48), ('warning', 84)]" ]] ||
  fail "crashed .timeindex: padding and failed sanity check are warnings"

# Transaction index, version byte 1: reading it throws KafkaException in the broker.
python3 - "$IX/00000000000000000024.txnindex" "$X24" <<'EOF'
import struct, sys
x = open(sys.argv[1], 'rb').read()
two = x + x[:18] + struct.pack('>q', 27) + x[26:]
open(sys.argv[2], 'wb').write(two[:34] + b'\x01' + two[35:])
EOF
expect_exit 1 "$KEPOCH" segment dump -o json "$X24"
[[ $(json "$SCRATCH/out" "[e['version'] for e in d[0]['entries']]") == "[0, 1]" ]] || fail "txnindex versions"
problems > "$SCRATCH/p"
expect_in "$SCRATCH/p" "error 34 entry 1: version byte 1 is newer than 0: reading the index throws KafkaException"
[[ $(field sanity_check) == "$(kafka_says txnindex-version-1 00000000000000000024.txnindex "$X24")" ]] ||
  fail "txnindex version 1: sanity_check is not Kafka's message: $(field sanity_check)"
# A partial entry after it: ignored by Kafka, a warning.
printf '\x00\x00\x00' >> "$X24"
expect_exit 1 "$KEPOCH" segment dump -o json "$X24"
[[ $(field trailing_bytes) == 3 ]] || fail "txnindex partial entry"

# Snapshots: a flipped bit (CRC), zero fill (version 0), a truncated one.
python3 - "$IX/00000000000000000016.snapshot" "$S16" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[10 + 46 + 20] ^= 1
open(sys.argv[2], 'wb').write(bytes(b))
EOF
expect_exit 1 "$KEPOCH" segment dump -o json "$S16"
[[ $(json "$SCRATCH/out" "(d[0]['version'], d[0]['crc'], d[0]['crc_valid'], len(d[0]['entries']))") == "(1, 1565281029, False, 2)" ]] ||
  fail "snapshot bit flip: stored CRC, crc_valid false"
[[ $(field sanity_check) == "$(kafka_says snapshot-bit-flip x x)" ]] || fail "snapshot bit flip: not Kafka's message"
problems > "$SCRATCH/p"
expect_in "$SCRATCH/p" "error 2 stored CRC-32C"
head -c 102 /dev/zero > "$S16"
expect_exit 1 "$KEPOCH" segment dump -o json "$S16"
[[ $(field sanity_check) == "$(kafka_says snapshot-zero x x)" ]] || fail "zero-filled snapshot: not Kafka's message"
[[ $(json "$SCRATCH/out" "(d[0]['version'], d[0]['crc'], d[0]['entries'])") == "(0, None, [])" ]] || fail "zero-filled snapshot"
head -c 101 "$IX/00000000000000000016.snapshot" > "$S16"
expect_exit 1 "$KEPOCH" segment dump -o json "$S16"
[[ $(field sanity_check) == "$(kafka_says snapshot-truncated x x)" ]] || fail "truncated snapshot: not Kafka's message"
problems > "$SCRATCH/p"
expect_in "$SCRATCH/p" "error 56 entry 1 of 2 is cut off: 45 bytes left of 46"

# Several files: every one is reported, the worst exit wins (3 for an unreadable one).
head -c 53 "$IX/00000000000000000008.index" > "$I8"
expect_exit 3 "$KEPOCH" segment dump -o json "$IX/00000000000000000008.index" "$I8" "$SCRATCH/d/00000000000000000099.index"
[[ $(json "$SCRATCH/out" "[bool(f['problems']) for f in d]") == "[False, True]" ]] || fail "mixed results"
expect_in "$SCRATCH/err" "00000000000000000099.index"
