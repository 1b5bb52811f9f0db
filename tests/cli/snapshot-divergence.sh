#!/usr/bin/env bash
# `logdir snapshot` of each broker's log dir that real Kafka left behind (tests/data/divergence):
# `diff` and `predict` (every --mode) give the same JSON, byte for byte once the replica names
# are set aside, from the snapshots (whole, or FILE:PARTITION) as from the replica dirs, and
# from whole log dirs paired by partition as from single partition dirs. Snapshotting creates
# and changes nothing inside the log dirs, and refuses to write its file into one.
. "$(dirname "$0")/common.sh"

B="$DATA/divergence/before"

# Every path, size, mode and mtime under a log dir, and every file's checksum.
listing() {
  (cd "$1" && find . -printf '%p %s %m %T@\n' | sort && find . -type f -exec sha256sum {} + | sort)
}
for b in 1 2 3; do listing "$B/broker-$b" >"$SCRATCH/listing-before-$b"; done

for b in 1 2 3; do
  expect_exit 0 "$KEPOCH" logdir snapshot -o json "$B/broker-$b" --file "$SCRATCH/b$b.snap"
  [[ $(json "$SCRATCH/out" "(d['replicas'], d['skipped'])") == "(1, [])" ]] || fail "broker $b: one replica, nothing skipped"
  [[ $(head -1 "$SCRATCH/b$b.snap") == '{"format":"kepoch-logdir-snapshot","version":1,'* ]] ||
    fail "the first line is not the header"
done
# To stdout: the same bytes.
expect_exit 0 "$KEPOCH" logdir snapshot "$B/broker-1" --file -
cmp -s "$SCRATCH/out" "$SCRATCH/b1.snap" || fail "--file - differs from the file"

for b in 1 2 3; do
  listing "$B/broker-$b" >"$SCRATCH/listing-after-$b"
  cmp -s "$SCRATCH/listing-before-$b" "$SCRATCH/listing-after-$b" ||
    { diff "$SCRATCH/listing-before-$b" "$SCRATCH/listing-after-$b"; fail "broker $b's log dir changed"; }
done

# The report with each replica's name replaced by its broker ("R1"), without the salvage
# command (it repeats the arguments as given), and the padding that
# depends on the name's length squeezed; `section` picks one partition of a paired report.
normalised() {  # normalised FILE [paired]
  python3 - "$@" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
# The salvage command names the arguments as given (dirs, log dirs, snapshots): not compared.
d.pop('salvage', None)
if len(sys.argv) > 2:
    assert d['notes'] == [], d['notes']
    assert len(d['partitions']) == 1, d['partitions']
    d = d['partitions'][0]
# The open transactions come from the producer snapshot and the leader's batches, which a log
# dir snapshot does not keep: known there is false (not compared; snapshot-transactions
# checks it says so).
d.pop('transactions', None)
text = json.dumps(d, sort_keys=True, indent=1)
text = re.sub(r'[^"\s]*(?:broker-(\d)/d-0|/b(\d)\.snap:d-0)', lambda m: 'R' + (m.group(1) or m.group(2)), text)
print(re.sub(r' {2,}', ' ', text))
EOF
}

# same NAME EXPECTED-EXIT [paired] -- CMD...: CMD's normalised JSON equals the first one of NAME.
same() {
  local name=$1 code=$2 paired=""
  shift 2
  [[ $1 == paired ]] && { paired=paired; shift; }
  expect_exit "$code" "$@"
  normalised "$SCRATCH/out" $paired >"$SCRATCH/got.json"
  if [[ -f "$SCRATCH/$name.json" ]]; then
    cmp -s "$SCRATCH/$name.json" "$SCRATCH/got.json" ||
      { diff "$SCRATCH/$name.json" "$SCRATCH/got.json" | head -40; fail "$name differs: $*"; }
  else
    cp "$SCRATCH/got.json" "$SCRATCH/$name.json"
  fi
}

S="$SCRATCH"
same diff 1 "$KEPOCH" diff -o json "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"
same diff 1 "$KEPOCH" diff -o json "$S/b1.snap:d-0" "$S/b2.snap:d-0" "$S/b3.snap:d-0"
same diff 1 paired "$KEPOCH" diff -o json "$S/b1.snap" "$S/b2.snap" "$S/b3.snap"
same diff 1 paired "$KEPOCH" diff -o json "$B/broker-1" "$B/broker-2" "$B/broker-3"
same diff 1 paired "$KEPOCH" diff -o json "$B/broker-1" "$S/b2.snap" "$B/broker-3/d-0"
[[ $(json "$SCRATCH/out" "[c['unanswered'] for c in d['partitions'][0]['comparisons']]") == "[[], []]" ]] ||
  fail "the snapshots of this small log keep every batch: nothing should be unanswered"
[[ $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["comparisons"][0]["fork_offset_by_batches"])' "$S/diff.json") == 5 ]] ||
  fail "the fork is at offset 5"

for mode in fetch ofle hw all; do
  same "predict-$mode" 1 "$KEPOCH" predict -o json --mode $mode --leader "$B/broker-2/d-0" "$B/broker-1/d-0" "$B/broker-3/d-0"
  same "predict-$mode" 1 "$KEPOCH" predict -o json --mode $mode --leader "$S/b2.snap:d-0" "$S/b1.snap:d-0" "$S/b3.snap:d-0"
  same "predict-$mode" 1 paired "$KEPOCH" predict -o json --mode $mode --leader "$S/b2.snap" "$S/b1.snap" "$S/b3.snap"
  same "predict-$mode" 1 paired "$KEPOCH" predict -o json --mode $mode --leader "$B/broker-2" "$B/broker-1" "$B/broker-3"
done
[[ $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["replicas"][0]; print((r["truncate_to"], r["removed_records"], r["lost_records"]))' "$S/predict-fetch.json") == "(5, 3, 3)" ]] ||
  fail "broker 1 truncates to 5, removing and losing b-0..2"
expect_exit 1 "$KEPOCH" predict -o json --leader "$B/broker-2/d-0" "$B/broker-1/d-0"
[[ $(json "$SCRATCH/out" "(d['replicas'][0]['lost_aborted_records'], d['replicas'][0]['lost_control_records'])") == "(0, 0)" ]] ||
  fail "replica dirs: the lost records b-0..2 are plain (acks=1) records"
expect_exit 1 "$KEPOCH" predict -o json --leader "$S/b2.snap:d-0" "$S/b1.snap:d-0"
[[ $(json "$SCRATCH/out" "(d['replicas'][0]['lost_aborted_records'], d['replicas'][0]['lost_control_records'])") == "(0, 0)" ]] ||
  fail "snapshots keep the tail's transaction attributes: the lost records b-0..2 are plain there too"

# A partition the snapshot does not hold; a snapshot file that is not one.
expect_exit 2 "$KEPOCH" diff "$S/b1.snap:orders-0" "$S/b2.snap:d-0"
expect_in "$SCRATCH/err" "holds no partition orders-0"
printf '{"format":"kepoch-logdir-snapshot","version":9}\n' >"$S/v9.snap"
expect_exit 3 "$KEPOCH" diff "$S/v9.snap" "$S/b2.snap"
expect_in "$SCRATCH/err" "v9.snap:1: version: expected 1"

# The snapshot file may not go inside a log dir it reads (a scratch copy, in case it would).
cp -r "$B/broker-1" "$S/copy-1"
listing "$S/copy-1" >"$S/copy-before"
expect_exit 2 "$KEPOCH" logdir snapshot "$S/copy-1" --file "$S/copy-1/b1.snap"
expect_in "$SCRATCH/err" "inside the log dir"
expect_exit 2 "$KEPOCH" logdir snapshot "$S/copy-1" --file "$S/copy-1/d-0/../d-0/b1.snap"
listing "$S/copy-1" >"$S/copy-after"
cmp -s "$S/copy-before" "$S/copy-after" || fail "a refused snapshot left something in the log dir"
# A log dir that cannot be read: exit 3 and no file.
expect_exit 3 "$KEPOCH" logdir snapshot "$S/no-such-dir" --file "$S/none.snap"
[[ ! -e "$S/none.snap" ]] || fail "a failed snapshot left its file"
