#!/usr/bin/env bash
# `partition inspect` on replica dirs written by real Kafka: the epoch checkpoint agrees with
# the history the batches tell (Kafka's DumpLogSegments epochs are pinned by the oracle
# tests); a checkpoint that lost an entry is shown against the batches.
. "$(dirname "$0")/common.sh"

lc="$DATA/leader-changes"
expect_exit 0 "$KEPOCH" partition inspect -o json "$lc/broker-1/lc-0" "$lc/broker-2/lc-0" "$lc/broker-3/lc-0"
[[ $(json "$SCRATCH/out" "[f['checkpoint_vs_rebuilt']['equal'] for f in d]") == "[True, True, True]" ]] || fail "checkpoint differs from batches"
[[ $(json "$SCRATCH/out" "[len(f['rebuilt_epoch_cache']) for f in d]") == "[5, 5, 5]" ]] || fail "expected 5 epochs"
[[ $(json "$SCRATCH/out" "len({f['log_end_offset'] for f in d})") == 1 ]] || fail "replicas in sync should share the log end offset"
[[ $(json "$SCRATCH/out" "d[0]['topic'], d[0]['partition']") == "lc 0" ]] || fail "topic-partition from the dir name"

# A checkpoint missing epoch 2: the batches still tell it.
mkdir -p "$SCRATCH/b1"
cp -a "$lc/broker-1/lc-0" "$SCRATCH/b1/"
grep -v '^2 ' "$lc/broker-1/lc-0/leader-epoch-checkpoint" | sed '2s/.*/4/' > "$SCRATCH/b1/lc-0/leader-epoch-checkpoint"
expect_exit 0 "$KEPOCH" partition inspect -o json "$SCRATCH/b1/lc-0"
[[ $(json "$SCRATCH/out" "d[0]['checkpoint_vs_rebuilt']['equal']") == False ]] || fail "expected a difference"
[[ $(json "$SCRATCH/out" "[e['epoch'] for e in d[0]['checkpoint_vs_rebuilt']['only_in_rebuilt']]") == "[2]" ]] || fail "epoch 2 only in the batches"

expect_exit 3 "$KEPOCH" partition inspect "$SCRATCH/nope"
expect_in "$SCRATCH/err" "nope: not a directory"
mkdir -p "$SCRATCH/not_a_partition"
expect_exit 3 "$KEPOCH" partition inspect "$SCRATCH/not_a_partition"
