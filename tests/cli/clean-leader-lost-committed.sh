#!/usr/bin/env bash
# A leader elected cleanly (from the ISR) holds every committed record: Kafka's guarantee, on
# which predict and plan call what a follower loses to it uncommitted. Not when the leader's own
# replication-offset-checkpoint records a high watermark above its log end: Kafka flushes that
# checkpoint but not the log, so a power loss can keep the one and lose the other, and the
# records committed up to that high watermark are gone from the leader. What a follower then
# loses above its own high watermark may be committed: never "no committed record is lost".
# The scene, cut from tests/data/logdir's t-0 (10 records, offsets 0-9, all in epoch 0):
# broker 1, the only ISR member, lost the last batch (6-9) with power; its checkpoint says 10.
# Broker 2, out of the ISR, holds 0-9, shut down cleanly with a high watermark of 6 recorded.
. "$(dirname "$0")/common.sh"

T="$DATA/logdir/t-0"
mkdir -p "$SCRATCH/b1/t-0" "$SCRATCH/b2/t-0"
cp "$T/leader-epoch-checkpoint" "$T/partition.metadata" "$SCRATCH/b1/t-0/"
head -c 480 "$T/00000000000000000000.log" >"$SCRATCH/b1/t-0/00000000000000000000.log"
printf '0\n1\nt 0 10\n' >"$SCRATCH/b1/replication-offset-checkpoint"
cp "$T"/* "$SCRATCH/b2/t-0/"
printf '0\n1\nt 0 6\n' >"$SCRATCH/b2/replication-offset-checkpoint"
: >"$SCRATCH/b2/.kafka_cleanshutdown"

# The cut is where the gzip batch of 6-9 began: broker 1's log ends at 6.
expect_exit 0 "$KEPOCH" partition inspect -o json "$SCRATCH/b1/t-0"
[[ $(json "$SCRATCH/out" "d[0]['log_end_offset']") == 6 ]] || fail "broker 1's log end: $(cat "$SCRATCH/out")"

# Broker 1 elected cleanly: broker 2 truncates to 6 and loses 4 records, which broker 1's
# high watermark of 10 says were committed. Not ruled out: exit 1, committed_loss null.
args=(--elect --ids 1,2 --replicas 1,2 --isr 1 "$SCRATCH/b1/t-0" "$SCRATCH/b2/t-0")
expect_exit 1 "$KEPOCH" predict -o json "${args[@]}"
[[ $(json "$SCRATCH/out" "(d['replicas'][0]['truncate_to'], d['replicas'][0]['lost_records'], d['replicas'][0]['committed_loss'])") == \
  "(6, 4, None)" ]] || fail "broker 2's forecast: $(json "$SCRATCH/out" "d['replicas'][0]")"
expect_in "$SCRATCH/out" "recorded a high watermark of 10, above its log end 6"
expect_not_in "$SCRATCH/out" "No committed record is lost"
expect_exit 1 "$KEPOCH" predict "${args[@]}"
expect_in "$SCRATCH/out" "A committed loss cannot be ruled out."

# The same leader given with --leader: the same doubt (it held before).
expect_exit 1 "$KEPOCH" predict -o json --leader "$SCRATCH/b1/t-0" "$SCRATCH/b2/t-0"
[[ $(json "$SCRATCH/out" "d['replicas'][0]['committed_loss']") == None ]] || fail "--leader: committed_loss"

# plan: Kafka's default (broker 1, the ISR) is not called free of committed loss; the plan's
# choice, broker 2, loses nothing (it holds every record broker 1 holds).
expect_exit 0 "$KEPOCH" plan -o json --ids 1,2 --replicas 1,2 --isr 1 --alive 2 "$SCRATCH/b1/t-0" "$SCRATCH/b2/t-0"
[[ $(json "$SCRATCH/out" "sorted((c['broker'], c['clean'], c['lost_records'], c['committed_loss_possible']) for c in d['candidates'])") == \
  "[(1, True, 4, True), (2, False, 0, False)]" ]] || fail "plan's candidates: $(json "$SCRATCH/out" "d['candidates']")"
[[ $(json "$SCRATCH/out" "[p['chosen'] for p in d['partitions']]") == "[2]" ]] || fail "plan's choice"

# Both brokers up: Kafka's clean choice now is broker 1, which would cost broker 2 the 4
# records broker 1's high watermark says were committed. Not "Kafka's default is best": the
# candidates are weighed, and broker 2, which loses nothing, is elected uncleanly.
expect_exit 0 "$KEPOCH" plan -o json --ids 1,2 --replicas 1,2 --isr 1 --alive 1,2 "$SCRATCH/b1/t-0" "$SCRATCH/b2/t-0"
[[ $(json "$SCRATCH/out" "[(p['recommendation'], p['chosen'], p['kafka_choice']) for p in d['partitions']]") == \
  "[('elect_unclean', 2, 1)]" ]] || fail "plan with both up: $(json "$SCRATCH/out" "d['partitions']")"
expect_in "$SCRATCH/out" "Elect broker 2 for t-0 now: it loses nothing, Kafka's default (broker 1) would lose 4."

# With only broker 1 given (broker 2 gone for good), the plan has no choice but broker 1: it
# loses what only broker 2 held, and is never exit 0.
expect_exit 1 "$KEPOCH" plan -o json --ids 1 --replicas 1,2 --isr 1 --alive 1 --gone 2 "$SCRATCH/b1/t-0"
echo "ok"
