#!/usr/bin/env bash
# The bad-input catalogue: one line per damaged or hostile input, made here from the real
# fixtures (leveldb's corruption tests: damage a known-good file at a known offset, assert the
# result and the message). Each case gets its documented exit code (0 ok, 1 findings,
# 3 unreadable input; never a crash or a hang) and one line naming the file (and the byte or
# line where there is one), never an "internal error" (an exception no parser caught). Every
# command runs under `timeout 30` (90 under ASan) and, outside ASan (whose shadow memory needs terabytes of
# address space), `ulimit -v` 1 GiB.
. "$(dirname "$0")/common.sh"

LOG="$DATA/transactions/tx-0/00000000000000000000.log"  # first batch: 160 bytes, 3 records
TX="$DATA/transactions/tx-0"
SEG=00000000000000000000.log

ASAN=0
if [[ -n ${ASAN_OPTIONS:-} ]] || ldd "$KEPOCH" 2>/dev/null | grep libasan >/dev/null; then ASAN=1; fi
# A hang is what the limit catches: under ASan, which `./dev test` also runs at low priority
# beside the Kafka tests, the largest inputs (8 MiB JSON tokens) take several times longer; the
# dev build (Debug) spends ~1.5 s of CPU on them, which a loaded CI machine stretched past 10 s.
LIMIT_PLAIN=30 LIMIT_ASAN=90
LIMIT=$LIMIT_PLAIN
[[ $ASAN == 1 ]] && LIMIT=$LIMIT_ASAN

# patch SRC DST EXPR: DST is SRC's bytes (b) after the Python statements EXPR, with
# i16/i32/i64(pos, value) to write big-endian fields, flip(pos, bit) and crc() to make the
# first batch's CRC-32C right again (so that the lie is in the content, not the checksum;
# crc(P): the batch at byte P's).
patch() {
  python3 - "$@" <<'EOF'
import struct, sys
src, dst, expr = sys.argv[1:]
b = bytearray(open(src, 'rb').read())
def i16(p, v): b[p:p + 2] = struct.pack('>h', v)
def i32(p, v): b[p:p + 4] = struct.pack('>i', v)
def i64(p, v): b[p:p + 8] = struct.pack('>q', v)
def flip(p, bit): b[p] ^= 1 << bit
def crc(p=0):
    t = []
    for n in range(256):
        c = n
        for _ in range(8): c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    end = p + 12 + struct.unpack('>i', b[p + 8:p + 12])[0]
    c = 0xFFFFFFFF
    for x in b[p + 21:end]: c = t[(c ^ x) & 0xFF] ^ (c >> 8)
    b[p + 17:p + 21] = struct.pack('>I', c ^ 0xFFFFFFFF)
exec(expr)
open(dst, 'wb').write(b)
EOF
}
seg() { patch "$LOG" "$SEG" "$1"; }         # the damaged segment, alone
pdir() { cp -r "$TX" x-0; chmod -R u+w x-0; }  # a copy of a real partition dir
ldir() { cp -r "$DATA/logdir" l; chmod -R u+w l; }  # a copy of a real log dir
snap() { "$KEPOCH" logdir snapshot "$DATA/divergence/before/broker-1" --file s.snap >/dev/null; }
# a copy of the cleaned metadata log (m/) and the snapshot its history starts from
ksnap() { mkdir m; cp "$DATA"/metadata-snapshot/__cluster_metadata-0/* m/; chmod -R u+w m; }
oldest() { ls m/*.checkpoint | head -1; }
# snapline N EXPR: line N of s.snap becomes the Python expression EXPR (a hostile JSON line)
snapline() {
  python3 - "$1" "$2" <<'EOF'
import sys
n, expr = int(sys.argv[1]), sys.argv[2]
lines = open('s.snap').read().split('\n')
lines[n - 1] = eval(expr)
open('s.snap', 'w').write('\n'.join(lines))
EOF
}
# a salvage archive of divergence/before's broker 1 (3 records, lines 2-4; line 5 the end)
arch() { "$KEPOCH" salvage --archive a.jsonl --leader "$DATA/divergence/before/broker-2/d-0" "$DATA/divergence/before/broker-1/d-0" >/dev/null || [[ $? == 1 ]]; }
# archline N EXPR: line N of a.jsonl becomes the Python expression EXPR (j: the line's JSON)
archline() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
n, expr = int(sys.argv[1]), sys.argv[2]
lines = open('a.jsonl').read().split('\n')
j = json.loads(lines[n - 1])
lines[n - 1] = eval(expr)
open('a.jsonl', 'w').write('\n'.join(lines))
EOF
}
# a progress file of a.jsonl whose members after "format" are the JSON text $1
progress() { printf '{"format":"kepoch-replay-progress",%s}\n' "$1" > a.jsonl.progress; }
lec() { python3 -c "import sys; n=int(sys.argv[1]); print(0); print(n); [print(i, i * 10) for i in range(n)]" "$1" >leader-epoch-checkpoint; }

# Known limit: a snapshot is JSON, so a non-UTF-8 byte in a topic name is written as U+FFFD and
# that replica no longer pairs with its log dir (non-utf8-snap pins the note that says so).
# fuzz-*: the inputs fuzzing found (tests/fuzz-regressions/), replayed here under ASan+UBSan too.
# NAME | DAMAGE (bash, in the case's own empty dir) | EXIT | MESSAGE ("@" is the file) | COMMAND ("@" the file)
# MESSAGE says what went wrong (or, for an input kepoch reads fine, what it read), not only
# which file: it must hold more than the command's own words. Runs of spaces match any run
# of spaces (table columns are aligned).
CASES=$(
  cat <<'EOF'
cut-at-0        | seg 'del b[0:]'             | 0 | batch_count 0 | segment dump @
cut-at-8        | seg 'del b[8:]'             | 0 | @: at byte 0: warning: partial-header: 8 bytes at the end are too few | segment dump @
cut-at-12       | seg 'del b[12:]'            | 0 | @: at byte 0: warning: partial-header: 12 bytes | segment dump @
cut-at-16       | seg 'del b[16:]'            | 0 | @: at byte 0: warning: partial-header: 16 bytes | segment dump @
cut-at-17       | seg 'del b[17:]'            | 0 | @: at byte 0: warning: partial-header: 17 bytes | segment dump @
cut-at-21       | seg 'del b[21:]'            | 0 | @: at byte 0: warning: partial-batch: the entry declares 148 bytes but only 21 remain | segment dump @
cut-at-23       | seg 'del b[23:]'            | 0 | @: at byte 0: warning: partial-batch: the entry declares 148 bytes but only 23 remain | segment dump @
cut-at-27       | seg 'del b[27:]'            | 0 | @: at byte 0: warning: partial-batch: the entry declares 148 bytes but only 27 remain | segment dump --records @
cut-at-35       | seg 'del b[35:]'            | 0 | @: at byte 0: warning: partial-batch: the entry declares 148 bytes but only 35 remain | segment dump --records @
cut-at-43       | seg 'del b[43:]'            | 0 | @: at byte 0: warning: partial-batch: the entry declares 148 bytes but only 43 remain | segment dump --records @
cut-at-51       | seg 'del b[51:]'            | 0 | @: at byte 0: warning: partial-batch: the entry declares 148 bytes but only 51 remain | segment dump --records @
cut-at-53       | seg 'del b[53:]'            | 0 | @: at byte 0: warning: partial-batch: the entry declares 148 bytes but only 53 remain | segment dump --records @
cut-at-57       | seg 'del b[57:]'            | 0 | @: at byte 0: warning: partial-batch: the entry declares 148 bytes but only 57 remain | segment dump --records --data @
cut-at-61       | seg 'del b[61:]'            | 0 | @: at byte 0: warning: partial-batch: the entry declares 148 bytes but only 61 remain | segment dump --records --data @
cut-mid-2nd     | seg 'del b[200:]'           | 0 | @: at byte 148: warning: partial-batch: the entry declares 78 bytes but only 52 remain | segment dump --records --data @
cut-verify      | pdir; patch $LOG x-0/$SEG 'del b[100:]' | 1 | partial-batch tail of 100 bytes: the entry declares 148 bytes but only 100 remain | partition verify x-0
flip-crc        | seg 'flip(20, 0)'           | 1 | @: at byte 0: error: batch at offset 0: Record is corrupt (stored crc = 3712787489 | segment dump @
flip-attributes | seg 'flip(22, 4)'           | 1 | @: at byte 0: error: batch at offset 0: Record is corrupt | segment dump --records @
flip-last-delta | seg 'flip(26, 0)'           | 1 | @: at byte 0: error: batch at offset 0: Record is corrupt | segment dump --records @
flip-producer   | seg 'flip(50, 7)'           | 1 | @: at byte 0: error: batch at offset 0: Record is corrupt | segment dump --records @
flip-body       | seg 'flip(70, 4)'           | 1 | @: at byte 0: error: batch at offset 0: Record is corrupt | segment dump --records --data @
flip-2nd-batch  | seg 'flip(200, 1)'          | 1 | @: at byte 148: error: batch at offset 3: Record is corrupt | segment dump --records --data @
flip-codec      | seg 'flip(22, 0); crc()'    | 1 | @: at byte 0: error: batch at offset 0: at byte 61: gzip: expected magic 1f 8b | segment dump --records @
flip-verify     | pdir; patch $LOG x-0/$SEG 'flip(70, 4)' | 1 | Record is corrupt | partition verify x-0
magic-0         | seg 'b[16] = 0'             | 1 | @: at byte 0: error: batch at offset 0: Record is corrupt (stored crc = 0, | segment dump --records @
length-0        | seg 'i32(8, 0)'             | 1 | @: at byte 0: error: corrupt-size: Found record size 0 smaller than minimum record overhead (14) | segment dump @
length-minus-1  | seg 'i32(8, -1)'            | 1 | @: at byte 0: error: corrupt-size: Found record size -1 smaller than minimum record overhead (14) | segment dump @
length-max      | seg 'i32(8, 2**31 - 1)'     | 0 | @: at byte 0: warning: partial-batch: the entry declares 2147483659 bytes but only 534 remain | segment dump --records @
length-max-2nd  | seg 'i32(156, 2**31 - 1)'   | 0 | @: at byte 148: warning: partial-batch: the entry declares 2147483659 bytes | segment dump --records @
length-verify   | pdir; patch $LOG x-0/$SEG 'i32(8, -1)' | 1 | Found record size -1 smaller than minimum record overhead (14) | partition verify x-0
neg-offset-verify | pdir; patch $LOG x-0/$SEG 'flip(0, 7)' | 3 | kepoch: x-0/00000000000000000000.log: at byte 0: batch at offset -9223372036854775808: offsets -9223372036854775808..-9223372036854775806 do not fit a segment at base offset 0 that Kafka recovers | partition verify x-0
neg-offset-pred | mkdir a b; cp -r $TX a; cp -r $TX b; chmod -R u+w a b; patch $LOG a/tx-0/$SEG 'i64(0, -2)' | 3 | a/tx-0/00000000000000000000.log: at byte 0: batch at offset -2: offsets -2..0 do not fit a segment at base offset 0 | predict --leader b/tx-0 a/tx-0
neg-offset-diff | mkdir a b; cp -r $TX a; cp -r $TX b; chmod -R u+w a b; patch $LOG a/tx-0/$SEG 'i64(148, -1)' | 3 | a/tx-0/00000000000000000000.log: at byte 148: batch at offset -1: offsets -1..-1 do not fit | diff a/tx-0 b/tx-0
wrap-offset-pred | mkdir a b; cp -r $TX a; cp -r $TX b; chmod -R u+w a b; patch $LOG a/tx-0/$SEG 'i64(0, 2**63 - 1)' | 3 | batch at offset 9223372036854775807: offsets 9223372036854775807..-9223372036854775807 do not fit | predict --leader b/tx-0 a/tx-0
ts-min-records  | seg 'i64(27, -2**63); crc()'  | 0 | offset: 0 timestamp: -292275055-05-16T16:47:04.192Z | segment dump --records @
record-len-huge | seg 'b[61] = 0x7f; crc()'   | 1 | @: at byte 0: error: batch at offset 0: at byte 62: Invalid record size | segment dump --records @
count-1000      | seg 'i32(57, 1000); crc()'  | 1 | @: at byte 0: error: batch at offset 0: at byte 148: Incorrect declared batch size, premature EOF reached | segment dump --records @
count-minus-1   | seg 'i32(57, -1); crc()'    | 1 | @: at byte 0: error: batch at offset 0: at byte 61: Found invalid record count -1 in magic v2 batch | segment dump --records @
count-max       | seg 'i32(57, 2**31 - 1); crc()' | 1 | @: at byte 0: error: batch at offset 0: at byte 148: Incorrect declared batch size | segment dump --records --data @
count-2-of-3    | seg 'i32(57, 2); crc()'     | 1 | @: at byte 0: error: batch at offset 0: at byte 119: Incorrect declared batch size, records still remaining | segment dump --records @
count-0-of-3    | seg 'i32(57, 0); crc()'     | 1 | @: at byte 0: error: batch at offset 0: at byte 61: Incorrect declared batch size, records still remaining | segment dump --records @
zero-segment    | head -c 4096 /dev/zero > $SEG | 1 | @: at byte 0: error: corrupt-size: Found record size 0 | segment dump @
zero-index      | head -c 4096 /dev/zero > 00000000000000000000.index | 0 | @: at byte 0: warning: 512 zero entries of preallocated space | segment dump @
zero-timeindex  | head -c 4092 /dev/zero > 00000000000000000000.timeindex | 0 | @: at byte 0: warning: 341 zero entries of preallocated space | segment dump @
zero-snapshot   | head -c 100 /dev/zero > 00000000000000000000.snapshot | 1 | @: at byte 0: error: version 0 is not 1, the only version Kafka reads | segment dump @
zero-checkpoint | head -c 100 /dev/zero > leader-epoch-checkpoint | 1 | @:1: error: line 1 must be the version number | checkpoint validate @
empty-log       | : > $SEG                    | 0 | batch_count 0 | segment dump --records @
empty-index     | : > 00000000000000000000.index | 0 | entry_count 0 | segment dump @
empty-txnindex  | : > 00000000000000000000.txnindex | 0 | entry_count 0 | segment dump @
empty-snapshot  | : > 00000000000000000000.snapshot | 1 | @: at byte 0: error: 0 bytes: too short for the 2-byte version | segment dump @
empty-epoch-cp  | : > leader-epoch-checkpoint  | 0 | kafka_action Kafka loads it | checkpoint validate @
empty-part-meta | : > partition.metadata       | 1 | @:1: error: line 1 is missing | checkpoint validate @
empty-meta-prop | : > meta.properties          | 0 | @: warning: version 0 is the ZooKeeper-era format | checkpoint validate @
empty-in-pdir   | pdir; : > x-0/$SEG; : > x-0/leader-epoch-checkpoint | 0 | log_end_offset 0 | partition verify x-0
log-is-checkpt  | cp $DATA/logdir/replication-offset-checkpoint $SEG | 0 | @: at byte 0: warning: partial-batch: the entry declares 1918987903 bytes | segment dump --records @
checkpt-is-bin  | head -c 300 $LOG > leader-epoch-checkpoint | 1 | @:1: error: invalid UTF-8 at byte 11 | checkpoint validate @
index-is-log    | cp $LOG 00000000000000000000.index | 1 | @: at byte 24: error: entry 3: offset 512 is not greater than the previous entry's offset | segment dump @
snapshot-is-txt | cp $DATA/logdir/meta.properties 00000000000000000000.snapshot | 1 | @: at byte 0: error: version 8970 is not 1, the only version Kafka reads | segment dump @
part-meta-bin   | head -c 64 $LOG > partition.metadata | 1 | @: error: invalid UTF-8 at byte 11 | checkpoint validate @
meta-prop-bin   | head -c 200 $LOG > meta.properties | 0 | meta.properties:1: warning: unknown key | checkpoint validate @
log-is-binary-cp | pdir; head -c 300 $LOG > x-0/leader-epoch-checkpoint | 3 | kepoch: x-0/leader-epoch-checkpoint: Kafka would not load this file (dir-offline): invalid UTF-8 at byte 11 | partition verify x-0
empty-dir-cp    | mkdir e                     | 3 | kepoch: e: no checkpoint files in this directory | checkpoint validate e
empty-dir-pv    | mkdir e-0                   | 0 | no leader-epoch-checkpoint: the epoch cache starts empty | partition verify e-0
empty-dir-scan  | mkdir e                     | 3 | kepoch: e: not a Kafka log dir | logdir scan e
empty-dir-snap  | mkdir e                     | 3 | kepoch: e: not a Kafka log dir | logdir snapshot e --file s.snap
empty-dir-seg   | mkdir $SEG                  | 3 | kepoch: @: is a directory, expected a file | segment dump @
dangling-seg    | ln -s nowhere $SEG          | 3 | kepoch: @: a dangling symbolic link | segment dump @
dangling-cp     | ln -s nowhere leader-epoch-checkpoint | 3 | kepoch: @: no such file or directory | checkpoint validate @
dangling-pdir   | ln -s nowhere x-0           | 3 | kepoch: x-0: not a directory | partition verify x-0
dangling-in-pdir | pdir; rm x-0/leader-epoch-checkpoint; ln -s nowhere x-0/leader-epoch-checkpoint | 3 | kepoch: x-0/leader-epoch-checkpoint: a dangling symbolic link (to nowhere) | partition verify x-0
dangling-hw     | mkdir l; cp -r $DATA/logdir/. l; chmod -R u+w l; rm l/replication-offset-checkpoint; ln -s gone l/replication-offset-checkpoint | 3 | l/replication-offset-checkpoint: a dangling symbolic link (to gone) | partition verify l/t-0
fifo-seg        | mkfifo $SEG                 | 3 | kepoch: @: not a regular file | segment dump @
fifo-cp         | mkfifo leader-epoch-checkpoint | 3 | kepoch: @: not a regular file | checkpoint validate @
fifo-in-pdir    | pdir; rm x-0/00000000000000000000.index; mkfifo x-0/00000000000000000000.index | 1 | x-0/00000000000000000000.index: not a regular file | partition verify x-0
fifo-in-logdir  | mkdir l; cp -r $DATA/logdir/. l; chmod -R u+w l; rm l/replication-offset-checkpoint; mkfifo l/replication-offset-checkpoint | 1 | l/replication-offset-checkpoint: not a regular file | logdir scan -o wide l
dir-as-cp       | mkdir leader-epoch-checkpoint | 3 | kepoch: @: no checkpoint files in this directory | checkpoint validate @
dir-as-cp-pdir  | pdir; rm x-0/leader-epoch-checkpoint; mkdir x-0/leader-epoch-checkpoint | 3 | kepoch: x-0/leader-epoch-checkpoint: is a directory, expected a file | partition verify x-0
dir-as-log-pdir | pdir; rm x-0/$SEG; mkdir x-0/$SEG | 3 | kepoch: x-0/00000000000000000000.log: is a directory, expected a file | partition verify x-0
fifo-log-pdir   | pdir; rm x-0/$SEG; mkfifo x-0/$SEG | 3 | kepoch: x-0/00000000000000000000.log: not a regular file (a FIFO or pipe) | partition verify x-0
zero-log-pdir   | pdir; rm x-0/$SEG; ln -s /dev/zero x-0/$SEG | 3 | kepoch: x-0/00000000000000000000.log: not a regular file (a character device) | partition verify x-0
non-utf8-topic  | mkdir "$(printf 't\xff\xfe-0')"; cp $TX/* t*-0/ | 0 | log_end_offset 9 | partition verify t*-0
non-utf8-json   | mkdir "$(printf 't\xff\xfe-0')"; cp $TX/* t*-0/ | 0 | "log_end_offset": 9 | partition inspect -o json t*-0
non-utf8-scan   | mkdir -p "$(printf 'l/t\xff-0')"; cp $TX/* l/t*-0/ | 0 | "log_end_offset": 9 | logdir scan -o json --all l
non-utf8-yaml   | mkdir "$(printf 't\xff\xfe-0')"; cp $TX/* t*-0/ | 0 | log_end_offset: 9 | partition verify -o yaml t*-0
esc-pdir        | mkdir "$(printf 'x\e[2J\e]0;pwned\a-0')"; cp $TX/* x*-0/ | 0 | x\e[2J\e]0;pwned\x07-0 | partition verify x*-0
esc-pdir-inspect | mkdir "$(printf 'x\e[2J-0')"; cp $TX/* x*-0/ | 0 | topic x\e[2J | partition inspect x*-0
esc-newline-row | mkdir l; cp -r $DATA/logdir/. l; chmod -R u+w l; cp -r l/t-0 "$(printf 'l/a\nforged-0  10  1  609  0  0  -\nb-0')" | 0 | a\nforged-0  10  1  609  0  0  -\nb-0 | logdir scan --all l
esc-diff        | mkdir a b; mkdir "$(printf 'a/x\e[31m-0')" "$(printf 'b/x\e[31m-0')"; cp $TX/* a/x*-0/; cp $TX/* b/x*-0/ | 0 | reference a/x\e[31m-0 | diff a/x*-0 b/x*-0
pair-names      | mkdir "$(printf 'x\e[31m-0')"; cp $TX/* x*-0/ | 2 | tx-0 holds tx-0 but x\e[31m-0 holds x\e[31m-0: these are not replicas of one partition | diff x*-0 $TX
esc-missing     | :                           | 3 | kepoch: \e[2Jgone.log: no such file or directory | segment dump "$(printf '\e[2Jgone.log')"
esc-bad-seg     | mkdir "$(printf 'x\r-0')"; cp $TX/* x*-0/; patch $LOG x*-0/$SEG 'flip(70, 4)' | 1 | x\r-0/00000000000000000000.log: at byte 0: error: batch at offset 0: Record is corrupt | segment dump x*-0/$SEG
msg-fifo-diff   | snap; mkfifo f; (sleep 1; : >f) & | 3 | kepoch: f:1: expected the header line, found the end of the file | diff f s.snap
msg-fifo-late   | snap; mkfifo f; (sleep 1; cat s.snap >f) & | 1 | partitions | diff f $DATA/divergence/before/broker-2
msg-chardev-diff | :                           | 3 | kepoch: /dev/null: a character device, not a file or directory | diff /dev/null s.snap
msg-procsub-diff | snap                        | 1 | partitions | diff <(cat s.snap) $DATA/divergence/before/broker-2
msg-stdin-diff  | snap                        | 1 | partitions | diff - $DATA/divergence/before/broker-2 < s.snap
msg-stdin-twice | snap                        | 2 | kepoch: "-" is given twice: standard input can be read once | diff - - < s.snap
msg-stdin-pred  | snap                        | 1 | truncat | predict --leader - $DATA/divergence/before/broker-2 < s.snap
hw-missing-pred | cp -r $DATA/divergence/before a; chmod -R u+w a; rm a/broker-1/replication-offset-checkpoint | 1 | a/broker-1/d-0 has no high watermark recorded (replication-offset-checkpoint missing | predict -o json --leader a/broker-2/d-0 a/broker-1/d-0
hw-bad-pred     | cp -r $DATA/divergence/before a; chmod -R u+w a; printf '0\n1\nd 0 x\n' > a/broker-1/replication-offset-checkpoint | 1 | A committed loss cannot be ruled out. broker-1/d-0 truncates to 5: loses 3 records | predict --leader a/broker-2/d-0 a/broker-1/d-0
msg-stdin-empty | :                           | 3 | kepoch: <stdin>:1: expected the header line, found the end of the file | diff - $TX < /dev/null
msg-stdin-cp    | cp $DATA/logdir/t-0/leader-epoch-checkpoint c | 0 | <stdin> | checkpoint validate - < c
msg-stdin-cp-bad | printf '0\n1\n0 x\n' > c   | 1 | <stdin>:3: error: start offset "x" is not a long | checkpoint validate - < c
msg-stdin-sim   | cp $KEPOCH_SOURCE_DIR/examples/scenarios/divergent-offset.yaml s.yaml | 0 | description | simulate - < s.yaml
msg-procsub-sim | cp $KEPOCH_SOURCE_DIR/examples/scenarios/divergent-offset.yaml s.yaml | 0 | description | simulate <(cat s.yaml)
sim-deep-yaml   | python3 -c "print('[' * 100000 + ']' * 100000)" > s.yaml | 3 | not valid YAML: nested 500 levels deep, more than yaml-cpp reads | simulate @
msg-meta-chardev | :                          | 3 | kepoch: /dev/null: a character device, not a file or directory | metadata history /dev/null
msg-meta-stdin  | :                           | 3 | kepoch: -: standard input cannot be read here | metadata history - < /dev/null
msg-meta-procsub | :                          | 3 | a FIFO or pipe, not a file or directory (this command reads files by offset | metadata dump <(echo)
msg-meta-dangle | ln -s gone m                | 3 | kepoch: m: a dangling symbolic link | metadata history m
msg-seg-dir     | mkdir x-0                   | 3 | kepoch: x-0: is a directory, expected a file (a partition dir is read by `kepoch partition inspect` | segment dump x-0
msg-seg-missing | :                           | 3 | kepoch: gone: no such file or directory | segment dump gone
msg-seg-fifo    | mkfifo $SEG                 | 3 | kepoch: @: not a regular file (a FIFO or pipe) | segment dump @
msg-typo        | :                           | 2 | kepoch: 'sgment' is unknown; did you mean 'segment'? | sgment dump x
msg-typo-sub    | :                           | 2 | kepoch: 'dmp' is unknown; did you mean 'dump'? | segment dmp x
msg-timeout-0   | :                           | 2 | --timeout: Value 0 not in range 0.001000 to 86400.000000 | cluster describe -b localhost:1 --timeout 0
msg-max-batches | :                           | 2 | --max-batches: Value -1 not in range | segment dump --max-batches -1 x.log
msg-from-offset | :                           | 2 | --from-offset: Value -3 not in range | segment dump --from-offset -3 x.log
msg-partition   | :                           | 2 | --partition: Value -1 not in range 0 to 2147483647 | metadata history x --partition -1
msg-partition-big | :                         | 2 | --partition: Value 99999999999 not in range | metadata history x --partition 99999999999
msg-same-diff   | :                           | 2 | are the same replica: compare replicas from different brokers | diff $TX $TX
msg-same-link   | ln -s $TX x-0               | 2 | are the same replica | diff x-0 $TX
msg-same-pred   | :                           | 2 | are the same replica | predict --leader $TX $TX
msg-snap-nodir  | :                           | 3 | kepoch: nodir/s.snap: cannot create the snapshot file: No such file or directory | logdir snapshot $DATA/logdir --file nodir/s.snap
msg-snap-full   | :                           | 3 | kepoch: /dev/full: cannot write the snapshot file: No space left on device | logdir snapshot $DATA/logdir --file /dev/full
msg-html-nodir  | :                           | 3 | kepoch: nodir/p.html: cannot create the HTML page: No such file or directory | diff --html nodir/p.html $DATA/divergence/before/broker-1/d-0 $DATA/divergence/before/broker-2/d-0
msg-html-full   | :                           | 3 | kepoch: /dev/full: cannot write the HTML page: No space left on device | metadata history --html /dev/full $DATA/metadata
msg-html-logdir | ldir                        | 2 | is inside the log dir | predict --html l/t-0/p.html --leader l/t-0 $TX
msg-tail-damage | pdir; patch $LOG x-0/$SEG 'i32(8, 5)' | 1 | (the tail is not zeros: damaged bytes, not preallocated space) | partition verify x-0
msg-tail-zeros  | pdir; head -c 4096 /dev/zero >> x-0/$SEG | 1 | (the tail is zeros: preallocated space never written) | partition verify x-0
sparse-4g-tail  | pdir; truncate -s 4G x-0/$SEG | 1 | corrupt-size tail of 4294966762 bytes: Found record size 0 smaller than minimum record overhead (14) in file x-0/00000000000000000000.log. (the tail is zeros: preallocated space never written) | partition verify -o wide x-0
non-utf8-snap   | mkdir l; cp -r $DATA/logdir/. l; chmod -R u+w l; mv l/t-0 "$(printf 'l/t\xff-0')"; "$KEPOCH" logdir snapshot l --file s.snap >/dev/null; sed -i 's/^node.id=1$/node.id=2/' l/meta.properties | 0 | only in s.snap, nothing to pair it with | diff s.snap l
spaces-verify   | mkdir -p "a b/t x-0"; cp $TX/* "a b/t x-0/" | 0 | log_end_offset 9 | partition verify "a b/t x-0"
spaces-scan     | mkdir "l d"; cp -r $DATA/logdir/. "l d" | 0 | partitions 2 | logdir scan --all "l d"
spaces-snap     | mkdir "l d"; cp -r $DATA/logdir/. "l d"; "$KEPOCH" logdir snapshot "l d" --file "s n.snap" >/dev/null; sed -i 's/^node.id=1$/node.id=2/' "l d/meta.properties" | 0 | l d/codec-zstd-0 s n.snap:codec-zstd-0 true | diff -o wide "s n.snap" "l d"
cp-count-max    | printf '0\n2147483647\n0 0\n' > leader-epoch-checkpoint | 1 | @:3: error: line 2 announces 2147483647 entries, the file has 1 | checkpoint validate @
cp-count-long   | printf '0\n99999999999999999999\n0 0\n' > leader-epoch-checkpoint | 1 | @:2: error: line 2 must be the entry count | checkpoint validate @
cp-count-neg    | printf '0\n-2147483648\n' > leader-epoch-checkpoint | 1 | @:2: error: entry count -2147483648 is negative | checkpoint validate @
cp-5000-lines   | lec 5000                    | 0 | kafka_outcome ok | checkpoint validate @
cp-5000-short   | lec 5000; sed -i 2s/5000/5001/ leader-epoch-checkpoint | 1 | line 2 announces 5001 entries, the file has 5000 | checkpoint validate @
cp-long-line    | python3 -c "print(0); print(1); print('9' * 1000000, 0)" > leader-epoch-checkpoint | 1 | is not an int (Kafka: NumberFormatException | checkpoint validate @
offsets-max     | printf '0\n2147483647\nt 0 1\n' > replication-offset-checkpoint | 1 | @:3: error: line 2 announces 2147483647 entries | checkpoint validate @
fuzz-short-batch | cp $KEPOCH_SOURCE_DIR/tests/fuzz-regressions/segment/batch-smaller-than-header $SEG | 1 | @: at byte 0: error: batch at offset 0: at byte 0: the batch holds 27 bytes, less than its 61-byte header | segment dump --records @
fuzz-txn-max    | cp $KEPOCH_SOURCE_DIR/tests/fuzz-regressions/index/txnindex-last-offset-max 00000000000000000000.txnindex | 1 | @: at byte 52: error: entry 1: lastOffset | segment dump @
fuzz-neg-delta  | cp $KEPOCH_SOURCE_DIR/tests/fuzz-regressions/segment/sequence-negative-offset-delta $SEG | 1 | @: at byte 0: error: batch at offset 0: at byte 147: value needs 57 bytes, only 13 remain | segment dump --records --data @
snap-huge-num   | snap; sed -i '3s/^{"batch":\[0,0,4,5,156,/{"batch":[0,0,4,5,1e999,/' s.snap | 3 | s.snap:3: expected batch line 1 of 2 of d-0 (one JSON object), found bad JSON | diff s.snap s.snap
snap-huge-int   | snap; sed -i '3s/^{"batch":\[0,0,4,/{"batch":[0,0,99999999999999999999999999,/' s.snap | 3 | s.snap:3: batch.last_offset: expected an integer | diff s.snap s.snap
snap-huge-count | snap; sed -i 's/"end":{"replicas":1,"batches":2}/"end":{"replicas":1,"batches":2147483647000}/' s.snap | 3 | s.snap:5: end.batches: expected 2 (the batch lines read), found 2147483647000 | predict --leader s.snap s.snap
snap-big-line   | snap; python3 -c "import json; l = open('s.snap').read().split(chr(10)); r = json.loads(l[1]); r['replica']['checkpoint_entries'] = [[i, i * 10] for i in range(3000000)]; l[1] = json.dumps(r, separators=(',', ':')); open('s.snap', 'w').write(chr(10).join(l))" | 1 | Cannot be told in 1 (d-0) | predict --leader $DATA/divergence/before/broker-2 @
snap-cut        | snap; head -c 300 s.snap > t.snap; mv t.snap s.snap | 3 | s.snap:2: expected a replica, skipped or end line ending with a newline, found a line cut short | diff s.snap s.snap
snap-binary     | head -c 300 $LOG > s.snap | 3 | s.snap:1: expected the header line ending with a newline | diff s.snap s.snap
snap-deep-array | snap; snapline 3 "'[' * 100000 + ']' * 100000" | 3 | s.snap:3: expected batch line 1 of 2 of d-0 (one JSON object), found [[[[[...]]]]] | diff s.snap s.snap
snap-deep-pred  | snap; snapline 2 "'{\"replica\":' + '[' * 100000 + ']' * 100000 + '}'" | 3 | s.snap:2: replica: expected an object, found [[[[[...]]]]] | predict --leader s.snap s.snap
snap-deep-obj   | snap; snapline 2 "'{\"replica\":{\"log_dir\":' + '{\"a\":' * 200000 + '1' + '}' * 200002" | 3 | s.snap:2: replica.log_dir: expected a string, found {"a":{"a":{"a":{"a":{...}}}}} | predict --leader s.snap s.snap
snap-8mb-value  | snap; snapline 2 "'{\"replica\":\"' + 'x' * 8000000 + '\"}'" | 3 | s.snap:2: replica: expected an object, found "xxxxxxxxxx | diff s.snap s.snap
snap-8mb-token  | snap; snapline 2 "'{\"replica\":\"' + 'x' * 8000000 + '}'" | 3 | xxxxxxxxxx... (8000 | diff s.snap s.snap
snap-line-cap   | snap; snapline 2 "'{\"replica\":\"' + 'x' * (64 << 20) + '\"}'" | 3 | s.snap:2: expected a line of at most 67108864 bytes, found 67108878 bytes | diff s.snap s.snap
arc-dry-run     | arch                        | 0 | Dry run: 3 records would be replayed to their own topics and partitions | replay --dry-run @
arc-empty       | : > a.jsonl                 | 3 | kepoch: @:1: expected the header line, found an empty file: not a salvage archive | replay --dry-run @
arc-binary      | head -c 300 $LOG > a.jsonl  | 3 | @:1: not a salvage archive: expected line 1 to be {"format":"kepoch-salvage-archive",...}, found 300 bytes of binary data (a byte 0x00 at byte 0 is not UTF-8 text) | replay --dry-run @
arc-version-2   | arch; archline 1 "json.dumps({**j, 'version': 2})" | 3 | @:1: archive version 2: this kepoch reads versions 1 to 1 | replay --dry-run @
arc-cut-line    | arch; head -n 3 a.jsonl > t; mv t a.jsonl | 3 | @:4: expected a record or the end line, found the end of the file after 2 records: a copy cut short | replay --dry-run @
arc-cut-mid     | arch; truncate -s -60 a.jsonl | 3 | @:4: expected a JSON object, found "{"topic":"d" | replay --dry-run @
arc-1g-line     | arch; head -n 2 a.jsonl > t; truncate -s 1G t; mv t a.jsonl | 3 | @:3: expected a line of at most 67108864 bytes (a salvage archive's record), found 67174401 bytes without a newline and more after them | replay --dry-run @
arc-bad-base64  | arch; archline 2 "json.dumps({**j, 'key': 'Y!=='})" | 3 | @:2: "key": expected standard base64 (RFC 4648, padded), found the string "Y!==" | replay --dry-run @
arc-base64-len  | arch; archline 3 "json.dumps({**j, 'value': 'YQ='})" | 3 | @:3: "value": expected standard base64 (RFC 4648, padded), found the string "YQ=" | replay --dry-run @
arc-offset-2^64 | arch; archline 2 "json.dumps({**j, 'offset': 2**64 - 1})" | 3 | @:2: "offset": expected an integer in [-9223372036854775808, 9223372036854775807], found 18446744073709551615 | replay --dry-run @
arc-epoch-huge  | arch; archline 2 "json.dumps({**j, 'leader_epoch': 2**31})" | 3 | @:2: "leader_epoch": expected an integer in [-2147483648, 2147483647], found 2147483648 | replay --dry-run @
arc-type        | arch; archline 2 "json.dumps({**j, 'partition': '0'})" | 3 | @:2: "partition": expected an integer in [-2147483648, 2147483647], found the string "0" | replay --dry-run @
arc-missing     | arch; archline 2 "json.dumps({k: v for k, v in j.items() if k != 'timestamp'})" | 3 | @:2: expected a "timestamp" member, found none | replay --dry-run @
arc-headers     | arch; archline 2 "json.dumps({**j, 'headers': [1]})" | 3 | @:2: "headers": expected {"key":...,"value":...} objects, found 1 | replay --dry-run @
arc-class       | arch; archline 2 "json.dumps({**j, 'class': 'bogus'})" | 3 | @:2: "class": expected data, committed_transaction, aborted, open or control, found "bogus" | replay --dry-run @
arc-dup-line    | arch; sed -i 2p a.jsonl     | 3 | @:3: d-0 offset 5 of leader epoch 0 is archived already (salvage archives a record once): a duplicated line, which replay would produce twice | replay --dry-run @
arc-end-count   | arch; archline 5 "json.dumps({'end': {'records': 2}})" | 3 | @:5: the end line counts 2 records, the archive holds 3 | replay --dry-run @
arc-after-end   | arch; echo x >> a.jsonl     | 3 | @:6: expected the end of the file after the end line, found "x" | replay --dry-run @
arc-dir         | mkdir a.jsonl               | 3 | kepoch: @: is a directory, expected the archive file `kepoch salvage` wrote | replay --dry-run @
arc-fifo        | mkfifo a.jsonl              | 3 | kepoch: @: not a regular file (a FIFO or pipe) | replay --dry-run @
arc-dev-zero    | :                           | 3 | kepoch: /dev/zero: not a regular file (a character device) | replay --dry-run /dev/zero
arc-no-file     | :                           | 3 | kepoch: gone.jsonl: no such file or directory | replay --dry-run gone.jsonl
arc-prog-type   | arch; progress '"version":"x"' | 3 | @.progress:1: not a replay progress file: expected version 1, found "x" | replay -b 127.0.0.1:1 @
arc-prog-neg    | arch; progress "\"version\":1,\"archive\":\"a.jsonl\",\"archive_bytes\":$(stat -c %s a.jsonl),\"target\":\"\",\"done\":-1,\"complete\":false" | 3 | @.progress:1: not a replay progress file: "done": expected a whole number, found -1 | replay -b 127.0.0.1:1 @
arc-prog-past   | arch; progress "\"version\":1,\"archive\":\"a.jsonl\",\"archive_bytes\":$(stat -c %s a.jsonl),\"target\":\"\",\"done\":1000,\"complete\":false" | 3 | @.progress: says 1000 records are done, the archive holds 3: the progress of another archive | replay -b 127.0.0.1:1 @
snap-1g-line    | snap; head -n 1 s.snap > t.snap; truncate -s 1G t.snap | 3 | t.snap:2: expected a line of at most 67108864 bytes, found more than 67108864 bytes without a newline | predict --leader t.snap s.snap
rcache-index    | cp $DATA/tiered/index-cache/broker-1/remote-log-index-cache/1024_buGAJsixSqyOmGN3Dqm_sw.index . | 0 | base_offset 1024 | segment dump @
rcache-timeidx  | cp $DATA/tiered/index-cache/broker-1/remote-log-index-cache/1024_buGAJsixSqyOmGN3Dqm_sw.timeindex . | 0 | "remote_segment_id":"buGAJsixSqyOmGN3Dqm_sw" | segment dump -o json @
rcache-junk-id  | head -c 24 /dev/zero > 5_junk.index | 3 | or in the remote index cache's <offset>_<segment id> names before the '_' | segment dump @
rcache-big      | mkdir l; cp -r $DATA/tiered/index-cache/broker-1/. l; chmod -R u+w l; truncate -s 1500M l/remote-log-index-cache/1024_buGAJsixSqyOmGN3Dqm_sw.index | 0 | whether Kafka can load it is unknown | logdir scan l
ksnap-cut       | ksnap; truncate -s -9 $(oldest) | 3 | damaged snapshot | metadata history @
ksnap-crc       | ksnap; patch $(oldest) $(oldest) 'flip(len(b) // 2, 3)' | 3 | Record is corrupt | metadata history @
ksnap-no-header | ksnap; patch $(oldest) $(oldest) 'del b[:12 + struct.unpack(">i", b[8:12])[0]]' | 3 | not a control batch starting with a SnapshotHeader | metadata history @
ksnap-empty     | ksnap; : > $(oldest)        | 3 | no batch: the file is empty | metadata history @
ksnap-bad-name  | ksnap; cp $(oldest) m/x.checkpoint | 1 | Snapshots.parse throws java.lang.StringIndexOutOfBoundsException | metadata history @
ksnap-none      | ksnap; rm m/*.checkpoint    | 1 | Inconsistent snapshot state | metadata history @
logdir-lost-found | ldir; mkdir l/lost+found  | 1 | l/lost+found: error: Kafka does not start on this log dir: LogManager.loadLogs parses every directory's name, and this one throws KafkaException (Found directory | logdir scan l
logdir-proc     | :                           | 3 | kepoch: /proc: not a Kafka log dir: no partition dirs and no checkpoint files, and | logdir scan /proc
logdir-t-abc    | ldir; mkdir l/t-abc         | 1 | 't-abc' is not in the form of topic-partition or topic-partition.uniqueId-delete | logdir scan l
logdir-dash-0   | ldir; mkdir -- l/-0         | 1 | l/-0: error: Kafka does not start on this log dir | logdir scan l
logdir-int-max  | ldir; mkdir l/t-2147483648  | 1 | 't-2147483648' is not in the form of topic-partition | logdir scan l
logdir-hidden   | ldir; mkdir l/.snapshot     | 1 | '.snapshot' is not in the form of topic-partition | logdir scan l
logdir-bad-snap | ldir; mkdir l/lost+found; cp -r l m; sed -i 's/^node.id=1$/node.id=2/' m/meta.properties | 0 | left out: Kafka does not start on this log dir | diff l m
logdir-link-up  | ldir; ln -s .. l/u-0        | 0 | l/u-0: warning: a symbolic link to .. (the log dir itself or a directory above it): Kafka follows it | logdir scan l
logdir-link-dot | ldir; ln -s . l/v-0         | 0 | l/v-0: warning: a symbolic link to . (the log dir itself or a directory above it) | logdir scan l
scan-a-pdir     | pdir                        | 3 | kepoch: x-0: a partition dir (x-0), not a log dir: to check it, run `kepoch partition verify x-0` | logdir scan x-0
snapshot-a-pdir | pdir                        | 3 | kepoch: x-0: a partition dir (x-0), not a log dir | logdir snapshot x-0 --file s.snap
snap-skip-fifo  | ldir; rm l/t-0/leader-epoch-checkpoint; mkfifo l/t-0/leader-epoch-checkpoint | 1 | kepoch: l/t-0/leader-epoch-checkpoint: not a regular file (a FIFO or pipe) (l/t-0 left out of the snapshot) | logdir snapshot l --file s.snap
snap-skip-stdout | ldir; rm l/t-0/00000000000000000000.log; mkfifo l/t-0/00000000000000000000.log | 1 | (l/t-0 left out of the snapshot) | logdir snapshot l --file -
verify-a-logdir | ldir                        | 3 | kepoch: l: a broker log dir, not a partition dir: to check every partition in it, run `kepoch logdir scan l` | partition verify l
dup-partition   | ldir; cp -r l m             | 1 | m/t-0: error: Kafka does not start while t-0 is assigned to broker 1 | logdir scan l m
dup-part-kafka  | ldir; cp -r l m             | 1 | IllegalStateException (Duplicate log directories for t-0 are found in both | logdir scan l m
dup-part-new-id | ldir; cp -r l m; printf 'version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ' > m/t-0/partition.metadata | 1 | m/t-0: warning: t-0 is also in log dir l of broker 1, with topic id | logdir scan l m
dup-part-twice  | ldir                        | 0 | with_errors 0 | logdir scan l l
seg-stdin       | cp $LOG $SEG                | 0 | file <stdin> | segment dump - < @
seg-stdin-pipe  | cp $LOG $SEG                | 0 | file <stdin> | segment dump --records - < <(cat @)
seg-stdin-index | cp $TX/00000000000000000000.index . | 0 | kind index | segment dump --kind index --base-offset 0 - < @
seg-pipe-cap    | :                           | 3 | kepoch: <stdin>: a pipe of more than 134217728 bytes: a pipe cannot be read by offset | segment dump - < <(head -c 140000000 /dev/zero)
cp-warn-cap     | lec 1000; sed -i '3,$s/$/ /' leader-epoch-checkpoint | 0 | 900 more lines where a line ends with white space | checkpoint validate @
green-stale-hw  | :                           | 1 | "summary": "A committed loss cannot be ruled out. broker-1/d-0 truncates to 5: loses 3 records, possibly committed | predict -o json --leader $DATA/divergence/before/broker-2/d-0 $DATA/divergence/before/broker-1/d-0
green-clean-isr | :                           | 0 | "summary": "No committed record is lost. broker-2/d-0 would lead | predict -o json --elect --ids 1,2,3 --isr 1,2,3 --alive 2,3 $DATA/divergence/before/broker-1/d-0 $DATA/divergence/before/broker-2/d-0 $DATA/divergence/before/broker-3/d-0
green-clean-hw  | cp -r $DATA/divergence/before a; chmod -R u+w a; touch a/broker-1/.kafka_cleanshutdown | 0 | "summary": "No committed record is lost. broker-1/d-0 truncates to 5: loses 3 records, none committed | predict -o json --leader a/broker-2/d-0 a/broker-1/d-0
green-plan-nohw | cp -r $DATA/divergence/before a; chmod -R u+w a; for b in 1 2 3; do touch a/broker-$b/.kafka_cleanshutdown; rm a/broker-$b/replication-offset-checkpoint; done | 1 | committed records are lost, or may be, on 1 partition | plan -o json --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 --gone 1 --unclean a/broker-1/d-0 a/broker-2/d-0 a/broker-3/d-0
green-leader-hw | cp -r $DATA/divergence/before a; chmod -R u+w a; touch a/broker-3/.kafka_cleanshutdown; printf '0\n1\nd 0 5\n' > a/broker-3/replication-offset-checkpoint; printf '0\n1\nd 0 50\n' > a/broker-1/replication-offset-checkpoint | 1 | a/broker-3/d-0 keeps the batches from offset 5 to 7 although they differ from the leader's | predict -o json --leader a/broker-1/d-0 a/broker-3/d-0
green-ls-verify | cp -r $DATA/divergence/before a; chmod -R u+w a; printf '0\n1\nd 0 100\n' > a/broker-2/log-start-offset-checkpoint | 1 | log start offset 100 is past the log end 9: the next start deletes every segment | partition verify -o json a/broker-2/d-0
green-ls-pred   | cp -r $DATA/divergence/before a; chmod -R u+w a; printf '0\n1\nd 0 100\n' > a/broker-2/log-start-offset-checkpoint | 1 | "summary": "A committed loss cannot be ruled out. broker-3/d-0 is truncated fully, to 100: removes 9 records; how many are lost is unknown | predict -o json --leader a/broker-2/d-0 a/broker-3/d-0
green-ls-diff   | cp -r $DATA/divergence/before a; chmod -R u+w a; printf '0\n1\nd 0 100\n' > a/broker-3/log-start-offset-checkpoint | 1 | "summary": "Whether the replicas of d-0 agree is unknown | diff -o json a/broker-2/d-0 a/broker-3/d-0
green-hw-verify | cp -r $DATA/divergence/before a; chmod -R u+w a; printf '0\n1\nd 0 50\n' > a/broker-2/replication-offset-checkpoint | 0 | high watermark 50 is above the log end 9 | partition verify -o json a/broker-2/d-0
green-mid-batch | cp -r $DATA/leader-changes/broker-1/lc-0 .; chmod -R u+w lc-0; patch lc-0/$SEG lc-0/$SEG 'flip(248 + 110, 2); crc(248)' | 1 | forked from | diff lc-0 $DATA/leader-changes/broker-2/lc-0
green-lying-lec | cp -r $DATA/divergence/before a; chmod -R u+w a; printf '0\n2\n0 0\n2 5\n' > a/broker-1/d-0/leader-epoch-checkpoint | 1 | broker-1/d-0 truncates nothing but keeps batches that differ from the leader's | predict -o json --leader a/broker-2/d-0 a/broker-1/d-0
green-topic-ids | cp -r $DATA/divergence/before a; chmod -R u+w a; rm a/broker-2/d-0/partition.metadata; printf 'version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ\n' > a/broker-3/d-0/partition.metadata | 2 | not the same topic | predict --leader a/broker-2/d-0 a/broker-1/d-0 a/broker-3/d-0
green-no-index  | cp -r $DATA/leader-changes l; chmod -R u+w l; for b in 1 2; do touch l/broker-$b/.kafka_cleanshutdown; printf '0\n1\nlc 0 17\n' > l/broker-$b/replication-offset-checkpoint; done; patch l/broker-2/lc-0/$SEG l/broker-2/lc-0/$SEG 'flip(348, 0)'; rm l/broker-2/lc-0/00000000000000000000.index | 1 | "summary": "Committed records would be lost. broker-1/lc-0 truncates to 6: loses 11 records, 11 of them committed | predict -o json --leader l/broker-2/lc-0 l/broker-1/lc-0
green-txnindex  | cp -r $DATA/leader-changes l; chmod -R u+w l; for b in 1 2; do touch l/broker-$b/.kafka_cleanshutdown; printf '0\n1\nlc 0 17\n' > l/broker-$b/replication-offset-checkpoint; done; patch l/broker-2/lc-0/$SEG l/broker-2/lc-0/$SEG 'flip(348, 0)'; printf '\x00\x00\x00\x00\x00\x00\x00\x00\x00\x07\xff\xff\xff\xff\xff\xff\xff\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00' > l/broker-2/lc-0/00000000000000000000.txnindex | 1 | "summary": "Committed records would be lost. broker-1/lc-0 truncates to 6: loses 11 records, 11 of them committed | predict -o json --leader l/broker-2/lc-0 l/broker-1/lc-0
green-clusters  | cp -r $DATA/leader-changes l; chmod -R u+w l; printf 'version=1\nnode.id=1\ncluster.id=szVdbl2iRXOg29JrTu_QMg\n' > l/broker-1/meta.properties; printf 'version=1\nnode.id=2\ncluster.id=AAAAAAAAAAAAAAAAAAAAAQ\n' > l/broker-2/meta.properties; | 2 | l/broker-2/meta.properties records cluster id AAAAAAAAAAAAAAAAAAAAAQ but l/broker-1/meta.properties records cluster id szVdbl2iRXOg29JrTu_QMg: replicas of different clusters | diff l/broker-1/lc-0 l/broker-2/lc-0
green-clus-snap | cp -r $DATA/leader-changes l; chmod -R u+w l; printf 'version=1\nnode.id=1\ncluster.id=szVdbl2iRXOg29JrTu_QMg\n' > l/broker-1/meta.properties; printf 'version=1\nnode.id=2\ncluster.id=AAAAAAAAAAAAAAAAAAAAAQ\n' > l/broker-2/meta.properties; "$KEPOCH" logdir snapshot l/broker-2 --file s.snap | 2 | l/broker-1/meta.properties records cluster id szVdbl2iRXOg29JrTu_QMg but s.snap records cluster id AAAAAAAAAAAAAAAAAAAAAQ | predict --leader s.snap l/broker-1
green-node-ids  | cp -r $DATA/leader-changes l; chmod -R u+w l; printf 'version=1\nnode.id=1\ncluster.id=szVdbl2iRXOg29JrTu_QMg\n' > l/broker-1/meta.properties; printf 'version=1\nnode.id=1\ncluster.id=szVdbl2iRXOg29JrTu_QMg\n' > l/broker-2/meta.properties; | 2 | l/broker-2/lc-0 and l/broker-1/lc-0 are both broker 1's | predict --leader l/broker-2/lc-0 l/broker-1/lc-0
green-no-meta   | cp -r $DATA/leader-changes l; chmod -R u+w l; printf 'version=1\nnode.id=1\ncluster.id=szVdbl2iRXOg29JrTu_QMg\n' > l/broker-1/meta.properties; | 0 | l/broker-2/lc-0: no meta.properties in its log dir (nor a snapshot that records it): whether it belongs to cluster szVdbl2iRXOg29JrTu_QMg (l/broker-1/meta.properties) is not known | predict -o json --leader l/broker-1/lc-0 l/broker-2/lc-0
green-meta-clus | cp -r $DATA/leader-changes l; chmod -R u+w l; printf 'version=1\nnode.id=1\ncluster.id=AAAAAAAAAAAAAAAAAAAAAQ\n' > l/broker-1/meta.properties | 2 | records cluster id szVdbl2iRXOg29JrTu_QMg but l/broker-1/meta.properties records cluster id AAAAAAAAAAAAAAAAAAAAAQ: the metadata log of another cluster | diff --metadata $DATA/metadata/__cluster_metadata-0 l/broker-1/lc-0 l/broker-2/lc-0
green-insp-clus | cp -r $DATA/leader-changes l; chmod -R u+w l; printf 'version=1\nnode.id=1\ncluster.id=AAAAAAAAAAAAAAAAAAAAAQ\n' > l/broker-1/meta.properties | 2 | records cluster id szVdbl2iRXOg29JrTu_QMg but l/broker-1/meta.properties records cluster id AAAAAAAAAAAAAAAAAAAAAQ: the metadata log of another cluster | partition inspect --metadata $DATA/metadata l/broker-1/lc-0
green-elect-ids | cp -r $DATA/divergence/before a | 2 | a/broker-1/d-0 and a/broker-2/d-0 are both broker 1's | predict --elect --ids 1,1,3 --isr 1,3 a/broker-1/d-0 a/broker-2/d-0 a/broker-3/d-0
green-delete-dir | cp -r $DATA/divergence/before a; chmod -R u+w a; mv a/broker-1/d-0 a/broker-1/d-0.1bd8c3a5f7e64b0a9a8d7b1c2e3f4a5b-delete | 3 | a -delete dir of d-0, not a live replica | predict --leader a/broker-2/d-0 a/broker-1/d-0.1bd8c3a5f7e64b0a9a8d7b1c2e3f4a5b-delete
cp-500k-json    | lec 500000                  | 0 | "loaded_entries":[ | checkpoint validate -o json @
out-html-notsnap | snap; cp s.snap t.snap    | 2 | --html s.snap exists and is not an HTML page kepoch wrote | diff --html s.snap t.snap $DATA/divergence/before/broker-2
out-html-input  | snap                        | 2 | --html s.snap is also given, an input of this run | predict --html s.snap --leader s.snap $DATA/divergence/before/broker-2
out-html-hard   | snap; ln s.snap h.snap      | 2 | --html h.snap is the same file as s.snap, an input of this run | diff --overwrite --html h.snap s.snap $DATA/divergence/before/broker-2
out-html-dir    | mkdir d                     | 2 | --html d is a directory, not a file kepoch can write | diff --html d $DATA/divergence/before/broker-1/d-0 $DATA/divergence/before/broker-2/d-0
out-html-notes  | printf 'notes\n' > n.txt    | 2 | --html n.txt exists and is not an HTML page kepoch wrote | metadata history --html n.txt $DATA/metadata
out-snap-link   | ldir; ln -s l/replication-offset-checkpoint c | 2 | --file c is inside the log dir | logdir snapshot l --overwrite --file c
out-plan-logdir | ldir                        | 2 | --out-dir l/steps/steps.sh is inside the log dir | plan --ids 1 --replicas 1 --isr 1 --alive 1 l --out-dir l/steps
secret-x-trust  | :                           | 2 | -X ssl.truststore.password=***: | cluster describe -b 127.0.0.1:1 -X ssl.truststore.password=Zq9pw
secret-x-jaas   | :                           | 2 | -X sasl.jaas.config=m required password=***;: Java JAAS configuration is not supported | cluster describe -b 127.0.0.1:1 -X 'sasl.jaas.config=m required password="Zq9pw";'
secret-userinfo | printf 'alice:Zq9pw\x40127.0.0.1:1' > b | 2 | --bootstrap alice:*** | cluster describe -b "$(cat b)"
elect-no-leader | :                           | 1 | No replica can lead: no member of the ISR [1] is alive (alive: [2,3]). | predict --elect --ids 1,2,3 --isr 1 --alive 2,3 $DATA/divergence/before/broker-1/d-0 $DATA/divergence/before/broker-2/d-0 $DATA/divergence/before/broker-3/d-0
hist-future     | :                           | 1 | nothing selected: no step and no broker event falls in the --from-time/--until range | metadata history --from-time 2100-01-01 $DATA/metadata
hist-until-neg  | :                           | 1 | nothing selected: no step and no broker event falls | metadata history -o json --until -5 $DATA/metadata
dump-future     | :                           | 1 | nothing selected: no record falls in the --from-time/--until range | metadata dump --from-time 2100-01-01 $DATA/metadata
hist-no-topic   | :                           | 1 | nothing selected: no partition of the log matches --topic/--partition | metadata history --topic nosuch $DATA/metadata
seg-not-offset  | cp $LOG notanoffset.log     | 1 | @: at byte 0: error: Kafka cannot load a segment of this name: LogFileUtils.offsetFromFileName throws | segment dump @
seg-23-digits   | cp $LOG 12345678901234567890123.log | 1 | Kafka cannot load a segment of this name | segment dump -o json @
seg-from-past   | cp $LOG $SEG                | 1 | nothing selected: no batch of the file is at or after --from-offset | segment dump --from-offset 1000 @
seg-time-none   | cp $LOG $SEG                | 1 | nothing selected: no batch | segment dump --from-time 2100-01-01 @
seg-from-huge   | :                           | 2 | 99999999999999999999 is not an offset | segment dump --from-offset 99999999999999999999 x.log
EOF
)

# What a verdict says when it calls the input safe, and when it raises an alarm.
SAFE_WORDS='No error found|[Nn]o committed record is lost|are identical|every one identical|loads as it is|loses no committed record|nothing to decide|none lost\.$'
ALARM_WORDS='[Cc]ommitted records would be lost|cannot be ruled out|Errors found|have diverged|fails after|follower fails|stops the broker|could not be read|loses committed records|committed records are lost'
n=0 failed=0 sentences=0
while IFS= read -r line; do
  [[ -z $line ]] && continue
  IFS='|' read -r name damage want message command <<<"$line"
  name=$(echo $name) want=$(echo $want)
  message=${message# } message=${message% } damage=${damage% } command=${command# }
  n=$((n + 1))
  dir="$SCRATCH/case-$name"
  mkdir "$dir"
  (cd "$dir" && eval "$damage") >"$SCRATCH/damage.log" 2>&1 || { cat "$SCRATCH/damage.log"; fail "$name: could not make the damage: $damage"; }
  file=$(cd "$dir" && ls -d -- * 2>/dev/null | head -1) || file=""  # none: the case names no file
  command=${command//@/$file}
  message=${message//@/$file}
  got=0
  (
    cd "$dir"
    [[ $ASAN == 1 ]] || ulimit -v $((1024 * 1024))
    eval "timeout $LIMIT \"\$KEPOCH\" $command" >"$SCRATCH/out" 2>"$SCRATCH/err"
  ) || got=$?
  verdict=ok
  if [[ $got -ge 124 ]]; then
    verdict="crashed or hung (exit $got)"
  elif [[ $got -ne $want ]]; then
    verdict="exit $got, expected $want"
  elif grep -qF "internal error" "$SCRATCH/err"; then
    verdict="an exception escaped the parsers (internal error)"
  elif ! cat "$SCRATCH/out" "$SCRATCH/err" | tr -s ' ' >"$SCRATCH/said" ||
    ! grep -qF -- "$(tr -s ' ' <<<"$message")" "$SCRATCH/said"; then
    verdict="no \"$message\" in the output"
  elif LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]' "$SCRATCH/out" "$SCRATCH/err"; then
    verdict="a control character reached the terminal raw"
  elif (($(wc -c <"$SCRATCH/err") > 65536)); then
    verdict="$(wc -c <"$SCRATCH/err") bytes on stderr: a bad value quoted whole?"
  elif [[ $command == *"-o yaml"* ]] && ! python3 -c '
import sys
try:
    import yaml
except ImportError:
    sys.exit(0)
yaml.load(open(sys.argv[1], "rb"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))' \
    "$SCRATCH/out" 2>"$SCRATCH/yaml-err"; then
    # YAML output a YAML reader takes (PyYAML's, when installed): well-formed UTF-8 of
    # printable characters outside escapes, whatever bytes the input's names hold.
    verdict="-o yaml output no YAML reader takes: $(grep -m1 -oE '[A-Za-z]+Error: .*' "$SCRATCH/yaml-err")"
  fi
  # The file's name, echoed back, proves nothing: strip the command's words (and the generic
  # ones) from the message and something naming the outcome must be left.
  rest=$message
  read -ra words <<<"$command kepoch at byte error warning"
  for w in "${words[@]}"; do rest=${rest//"$w"/}; done
  [[ $rest =~ [A-Za-z]{3} ]] || verdict="the message \"$message\" names nothing but the input"
  # The verdict agrees with the exit code (issue 33): the same command in table and in JSON,
  # the table's first line and the JSON summary never safe with exit 1, never an alarm with
  # exit 0 (the sentences are decided from what decides the exit: report/summary.hpp).
  # (Not where a FIFO's one writer has been read already: a second reader would wait.)
  if [[ $verdict == ok && $got -le 1 && $damage != *"cat s.snap >f"* ]]; then
    plain=$(sed -E 's/(^| )-o [a-z]+( |$)/\1\2/g' <<<"$command")
    for af in table json; do
      agot=0
      (
        cd "$dir"
        [[ $ASAN == 1 ]] || ulimit -v $((1024 * 1024))
        eval "timeout $LIMIT \"\$KEPOCH\" -o $af $plain" >"$SCRATCH/agree-$af" 2>/dev/null
      ) || agot=$?
      [[ $agot == "$got" ]] || { verdict="exit $agot with -o $af, $got as written"; break; }
    done
    if [[ $verdict == ok ]]; then
      first=$(grep -m1 . "$SCRATCH/agree-table" | sed 's/\x1b\[[0-9;]*m//g' || true)
      summary=$(python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    sys.exit(0)
s = d.get("summary") if isinstance(d, dict) else None
if isinstance(s, dict):
    s = s.get("text")
print(s if isinstance(s, str) else "")' "$SCRATCH/agree-json")
      for said in "$first" "$summary"; do
        [[ -n $said ]] || continue
        if [[ $got == 1 ]] && grep -qE "$SAFE_WORDS" <<<"$said"; then
          verdict="exit 1 but the verdict sounds safe: $said"
        elif [[ $got == 0 ]] && grep -qE "$ALARM_WORDS" <<<"$said"; then
          verdict="exit 0 but the verdict sounds an alarm: $said"
        fi
      done
      [[ -n $summary ]] && sentences=$((sentences + 1))
    fi
  fi
  if [[ $verdict != ok ]]; then
    failed=$((failed + 1))
    echo "FAIL $name: $verdict: kepoch $command"
    head -c 600 "$SCRATCH/err" | head -4 | sed 's/^/    stderr: /'
  fi
done <<<"$CASES"

echo "bad-input catalogue: $n cases, $((n - failed)) passed, $failed failed; $sentences verdict sentences agree with the exit code"
((sentences >= 30)) || fail "only $sentences cases had a verdict sentence to hold to the exit code"
# Every row must have run, and docs/safety.md must advertise the catalogue's real size.
rows=$(grep -c . <<<"$CASES")
((n == rows)) || fail "$n cases ran, the catalogue has $rows"
advertised=$(grep -oE 'table of [0-9]+ damaged' "$KEPOCH_SOURCE_DIR/docs/safety.md" | grep -oE '[0-9]+')
[[ $advertised == "$rows" ]] || fail "docs/safety.md advertises ${advertised:-no} catalogue size, the catalogue has $rows rows"
# And the time limits it runs each row under.
limits=$(sed -nE 's/.*Each runs under `timeout ([0-9]+)` \(([0-9]+) under ASan\).*/\1 \2/p' "$KEPOCH_SOURCE_DIR/docs/safety.md")
[[ $limits == "$LIMIT_PLAIN $LIMIT_ASAN" ]] ||
  fail "docs/safety.md says each row runs under timeout ${limits:-?} (plain, ASan); the catalogue uses $LIMIT_PLAIN $LIMIT_ASAN"
((failed == 0)) || fail "$failed of $n cases failed"
