#!/usr/bin/env bash
# Verdict first (issue 20): predict, diff, partition verify and logdir scan open their table
# with the verdict in plain sentences, and JSON/YAML carry the same sentence as "summary"
# beside the fields it restates (which keep their shape). Over the replica dirs real Kafka
# left behind (tests/data/divergence): broker 1 wrote offsets 5-7 at epoch 0 with acks=1 and
# died; broker 2 was elected uncleanly (epoch 2) and wrote other records at 5-8.
. "$(dirname "$0")/common.sh"

B="$DATA/divergence/before"
A="$DATA/divergence/after"

# opening FILE: the table's first paragraph (the lines before the first blank one), joined.
opening() { awk 'NF == 0 { exit } { printf "%s%s", (NR > 1 ? " " : ""), $0 }' "$1"; }

# verdict WANT-EXIT SENTENCE CMD...: the table opens with SENTENCE, and -o json/-o yaml carry
# it as "summary".
verdict() {
  local code=$1 sentence=$2
  shift 2
  expect_exit "$code" "$@"
  [[ $(opening "$SCRATCH/out") == "$sentence" ]] ||
    { echo "--- got"; opening "$SCRATCH/out"; echo; fail "table opening of: $*"; }
  expect_exit "$code" "$@" -o json
  [[ $(json "$SCRATCH/out" "d['summary']") == "$sentence" ]] || fail "JSON summary of: $*"
  expect_exit "$code" "$@" -o yaml
  # (no YAML parser is assumed: the first line is the summary, the sentence in it)
  [[ $(head -1 "$SCRATCH/out") == "summary: "*"$sentence"* ]] || fail "YAML summary of: $*"
}

# predict: Kafka truncated broker 1 to 5 (truncation.log); the 3 records there are lost,
# above the high watermark 5 that broker 1 recorded, but broker 1 crashed, so that checkpoint
# may lag the high watermark it held (it led alone when it wrote them): not safe.
# Broker 3 holds the leader's log.
verdict 1 "A committed loss cannot be ruled out. broker-1/d-0 truncates to 5: loses 3 records, possibly committed; broker-3/d-0 truncates nothing." \
  "$KEPOCH" predict --leader "$B/broker-2/d-0" "$B/broker-1/d-0" "$B/broker-3/d-0"
# The sentence restates the fields, which keep their names and values.
expect_exit 1 "$KEPOCH" predict -o json --leader "$B/broker-2/d-0" "$B/broker-1/d-0" "$B/broker-3/d-0"
[[ $(json "$SCRATCH/out" "list(d)[:3]") == "['summary', 'topic', 'partition']" ]] || fail "summary first, then the fields"
[[ $(json "$SCRATCH/out" "[(r['truncate_to'], r['lost_records'], r['committed_loss']) for r in d['replicas']]") == "[(5, 3, None), (9, 0, False)]" ]] ||
  fail "predict fields"
# With the leader elected from the ISR, nothing committed can be lost: the safe sentence.
verdict 0 "No committed record is lost. broker-2/d-0 would lead at epoch 3 or above. broker-1/d-0 truncates to 5: loses 3 records, none committed; broker-3/d-0 truncates nothing." \
  "$KEPOCH" predict --elect --ids 1,2,3 --isr 1,2,3 --alive 2,3 "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"

# diff: the fork at 5, the batch 5-7 that differs; after the restart, identical.
verdict 1 "The replicas of d-0 have diverged. broker-1/d-0 forked from broker-2/d-0 at offset 5 (1 batch differs, only it holds 5..7, it lacks 5..8)." \
  "$KEPOCH" diff "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"
verdict 0 "The 3 replicas of d-0 are identical (log end 9)." \
  "$KEPOCH" diff "$A/broker-1/d-0" "$A/broker-2/d-0" "$A/broker-3/d-0"
# Over whole log dirs: the count, then each partition's own sentence.
verdict 1 "1 partition compared. Diverged in 1 of 1 (d-0)." \
  "$KEPOCH" diff "$B/broker-1" "$B/broker-2" "$B/broker-3"
expect_exit 1 "$KEPOCH" diff -o json "$B/broker-1" "$B/broker-2" "$B/broker-3"
[[ $(json "$SCRATCH/out" "d['partitions'][0]['summary']") == "The replicas of d-0 have diverged."* ]] || fail "section summary"

# A lagging replica: broker 3's log cut short (a strict prefix of broker 2's) lags, it does
# not diverge.
mkdir -p "$SCRATCH/lag/broker-3"
cp -r "$B/broker-3/d-0" "$SCRATCH/lag/broker-3/"
cp "$B/broker-3"/*checkpoint "$B/broker-3/meta.properties" "$SCRATCH/lag/broker-3/" 2>/dev/null || true
# Keep the first batch (offsets 0-4) only: its size is the first batch's length field + 12.
seg="$SCRATCH/lag/broker-3/d-0/00000000000000000000.log"
first=$(python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(12); print(12+struct.unpack(">i", b[8:12])[0])' "$seg")
truncate -s "$first" "$seg"
rm -f "$SCRATCH/lag/broker-3/d-0"/*.snapshot "$SCRATCH/lag/broker-3/d-0"/*.index "$SCRATCH/lag/broker-3/d-0"/*.timeindex
printf '0\n1\n0 0\n' >"$SCRATCH/lag/broker-3/d-0/leader-epoch-checkpoint"
expect_exit 1 "$KEPOCH" diff -o json "$B/broker-2/d-0" "$SCRATCH/lag/broker-3/d-0"
[[ $(json "$SCRATCH/out" "d['summary']") == *"broker-3/d-0 lags broker-2/d-0: it lacks offsets 5..8, no divergence"* ]] ||
  fail "lagging: $(json "$SCRATCH/out" "d['summary']")"
[[ $(json "$SCRATCH/out" "[r['relation'] for r in d['timeline']['replicas']]") == "['reference', 'lagging']" ]] ||
  fail "timeline relation: $(json "$SCRATCH/out" "d['timeline']['replicas']")"
expect_not_in "$SCRATCH/out" "diverged"

# partition verify: one sentence per replica.
expect_exit 0 "$KEPOCH" partition verify -o json "$B/broker-1/d-0" "$A/broker-1/d-0"
[[ $(json "$SCRATCH/out" "d[0]['summary']") == "broker-1/d-0 loads as it is: offsets 0..8, high watermark 5, no error." ]] ||
  fail "verify summary: $(json "$SCRATCH/out" "d[0]['summary']")"
expect_exit 0 "$KEPOCH" partition verify "$B/broker-1/d-0"
[[ $(head -1 "$SCRATCH/out") == "broker-1/d-0 loads as it is:"* ]] || fail "verify table opens with its verdict"

# logdir scan: the counts per log dir; an unreadable log dir is never "no error".
verdict 0 "No error found. before/broker-1: 1 partition, none with a problem; before/broker-2: 1 partition, none with a problem." \
  "$KEPOCH" logdir scan "$B/broker-1" "$B/broker-2"
expect_exit 3 "$KEPOCH" logdir scan -o json "$B/broker-1" "$SCRATCH/no-such-dir"
[[ $(json "$SCRATCH/out" "d['summary']") == "1 log dir could not be read: the others have no error."* ]] ||
  fail "scan with an unreadable dir: $(json "$SCRATCH/out" "d['summary']")"

# checkpoint validate (issue 38): each file's report opens with its verdict, the JSON's
# "summary" of that file: intact (exit 0), or not usable as written with the line and what
# Kafka does (exit 1).
verdict_file() {
  local code=$1 sentence=$2
  shift 2
  expect_exit "$code" "$@"
  [[ $(opening "$SCRATCH/out") == "$sentence" ]] ||
    { echo "--- got"; opening "$SCRATCH/out"; echo; fail "table opening of: $*"; }
  expect_exit "$code" "$@" -o json
  [[ $(json "$SCRATCH/out" "d[0]['summary']") == "$sentence" ]] || fail "JSON summary of: $*"
}
verdict_file 0 "$B/broker-2/d-0/leader-epoch-checkpoint is intact: 2 epoch entries, no problem. Kafka loads it." \
  "$KEPOCH" checkpoint validate "$B/broker-2/d-0/leader-epoch-checkpoint"
printf '0\n2\n0 0\n1 5 x\n' >"$SCRATCH/leader-epoch-checkpoint"
verdict_file 1 "$SCRATCH/leader-epoch-checkpoint is not usable as written (line 4: expected 2 fields \"<epoch> <start offset>\", found 3). Kafka marks this log dir offline: every partition in it goes offline on this broker." \
  "$KEPOCH" checkpoint validate "$SCRATCH/leader-epoch-checkpoint"
echo "ok: checkpoint validate opens each file's report with its verdict"

# segment dump (issue 38): what a .log holds, the first paragraph of its report and its JSON
# "summary" (one item per file: d[0]), and exit 1 exactly when the sentence names damage.
seg="$B/broker-1/d-0/00000000000000000000.log"
verdict_file 0 "$seg holds 2 batches (8 records), offsets 0..7, leader epoch 0, written 2026-11-29T08:29:22.173Z to 2026-11-29T08:29:30.183Z; no damage found." \
  "$KEPOCH" segment dump "$seg"
expect_exit 0 "$KEPOCH" segment dump -o yaml "$seg"
[[ $(head -1 "$SCRATCH/out") == "- summary: $seg holds 2 batches"* ]] || fail "YAML summary of segment dump"
# --max-batches: the sentence speaks of the batches shown.
verdict_file 0 "The first batches of $seg hold 1 batch (5 records), offsets 0..4, leader epoch 0, written 2026-11-29T08:29:22.173Z to 2026-11-29T08:29:22.224Z; no damage found." \
  "$KEPOCH" segment dump --max-batches 1 "$seg"
# One byte of the second batch's records flipped: its CRC fails (Kafka's
# DefaultRecordBatch.ensureValid), exit 1, and the sentence opens with it.
mkdir -p "$SCRATCH/seg"
python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[200]^=0x55; open(sys.argv[2],"wb").write(b)' \
  "$seg" "$SCRATCH/seg/00000000000000000000.log"
verdict_file 1 "$SCRATCH/seg/00000000000000000000.log is damaged: 1 batch fails Kafka's ensureValid (the first at offset 5). It holds 2 batches (8 records), offsets 0..7, leader epoch 0, written 2026-11-29T08:29:22.173Z to 2026-11-29T08:29:30.183Z." \
  "$KEPOCH" segment dump "$SCRATCH/seg/00000000000000000000.log"
# Standard input is read once: the same sentence closes the report instead.
"$KEPOCH" segment dump -o json - <"$seg" >"$SCRATCH/out" || fail "segment dump -"
[[ $(json "$SCRATCH/out" "d[0]['summary']") == "<stdin> holds 2 batches (8 records)"* ]] ||
  fail "stdin summary: $(json "$SCRATCH/out" "d[0]['summary']")"
[[ $(json "$SCRATCH/out" "list(d[0])[-1]") == "summary" ]] || fail "stdin: the summary closes the item"
echo "ok: segment dump opens with what the segment holds"

# metadata history (issue 38): which partitions changed leader how often, unclean elections.
# Run A's metadata log (tests/data/metadata): lc-0 was led by 4 leaders in turn, and the
# transaction state partitions moved once each; the brokers were all stopped at the end.
verdict 0 "11 partitions: 3 changed leader (6 elections; lc-0 4 times, __transaction_state-0 once, __transaction_state-1 once), 11 without a leader at the end; no unclean election." \
  "$KEPOCH" metadata history "$DATA/metadata"
# The streamed path (many passes) and the whole-report path (--limit) say the same.
KEPOCH_HISTORY_HELD_BYTES=1 expect_exit 0 "$KEPOCH" metadata history -o json "$DATA/metadata"
[[ $(json "$SCRATCH/out" "d['summary']") == "11 partitions: 3 changed leader"* ]] || fail "many-pass summary"
expect_exit 0 "$KEPOCH" metadata history --limit 2 "$DATA/metadata"
[[ $(head -1 "$SCRATCH/out") == "11 partitions: 3 changed leader"* ]] || fail "--limit: the summary first"
# Nothing selected: exit 1, and the sentence says so first.
expect_exit 1 "$KEPOCH" metadata history -o json --topic no-such-topic "$DATA/metadata"
[[ $(json "$SCRATCH/out" "d['summary']") == "The replay found 1 problem, the first: nothing selected"* ]] ||
  fail "nothing selected: $(json "$SCRATCH/out" "d['summary']")"
echo "ok: metadata history opens with the leader changes and unclean elections"
