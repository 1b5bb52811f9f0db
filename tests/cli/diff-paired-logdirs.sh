#!/usr/bin/env bash
# `diff` and `predict` over whole broker log dirs pair replicas by topic and partition and
# report one section per partition: the logdir fixture (codec-zstd-0, t-0) against the
# snapshot of a copy that says it is broker 2 gives two identical sections; against its own
# snapshot (both broker 1's) it is refused; log dirs that share no partition are a usage
# error; a partition only one side holds is named in `notes`.
. "$(dirname "$0")/common.sh"

L="$DATA/logdir"
expect_exit 0 "$KEPOCH" logdir snapshot "$L" --file "$SCRATCH/own.snap"
expect_exit 2 "$KEPOCH" diff "$L" "$SCRATCH/own.snap"
expect_in "$SCRATCH/err" "are both broker 1's"
mkdir "$SCRATCH/b2"
cp -r "$L/." "$SCRATCH/b2"
chmod -R u+w "$SCRATCH/b2"
sed -i 's/^node.id=1$/node.id=2/' "$SCRATCH/b2/meta.properties"
expect_exit 0 "$KEPOCH" logdir snapshot "$SCRATCH/b2" --file "$SCRATCH/l.snap"
expect_exit 0 "$KEPOCH" diff -o json "$L" "$SCRATCH/l.snap"
[[ $(json "$SCRATCH/out" "[(p['topic'], p['partition'], [c['identical'] for c in p['comparisons']]) for p in d['partitions']]") == "[('codec-zstd', 0, [True]), ('t', 0, [True])]" ]] ||
  fail "expected codec-zstd-0 and t-0, each identical: $(cat "$SCRATCH/out")"
expect_exit 0 "$KEPOCH" predict -o json --leader "$SCRATCH/l.snap" "$L"
[[ $(json "$SCRATCH/out" "[(p['topic'], p['replicas'][0]['truncate_to'], p['replicas'][0]['removed_records']) for p in d['partitions']]") == "[('codec-zstd', 5, 0), ('t', 10, 0)]" ]] ||
  fail "nothing to truncate: $(cat "$SCRATCH/out")"

# One partition against a whole log dir: t-0 pairs, codec-zstd-0 is only in the log dir.
expect_exit 0 "$KEPOCH" diff -o json "$L/t-0" "$SCRATCH/l.snap"
[[ $(json "$SCRATCH/out" "(len(d['partitions']), d['partitions'][0]['topic'], len(d['notes']))") == "(1, 't', 1)" ]] ||
  fail "expected t-0 paired and a note for codec-zstd-0: $(cat "$SCRATCH/out")"
expect_in "$SCRATCH/out" "codec-zstd-0: only in"

expect_exit 2 "$KEPOCH" diff "$L" "$DATA/divergence/before/broker-1"
expect_in "$SCRATCH/err" "no partition pairs up"
