#!/usr/bin/env bash
# `predict --elect` chooses the leader as the KRaft controller did, with Kafka's own metadata
# records as the judge: in tests/data/divergence (Kafka 4.1.1, ELR off) the ISR had shrunk to
# [1] when broker 1 died. Kafka then wrote PARTITION_CHANGE_RECORD leader=-1 (no clean leader
# among the alive brokers 2 and 3), and after an unclean election request leader=2, isr=[2],
# leaderRecoveryState=1 (RECOVERING). metadata-records.jsonl holds those records.
. "$(dirname "$0")/common.sh"

D="$DATA/divergence"
B="$D/before"
records="$D/metadata-records.jsonl"
dirs=("$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0")

# Kafka's records, read back: the fencing left no leader; the unclean election chose 2.
kafka() { python3 -c "
import json,sys
changes=[json.loads(l)['data'] for l in open(sys.argv[1]) if 'PARTITION_CHANGE_RECORD' in l]
print($1)" "$records"; }
[[ $(kafka "[c.get('leader') for c in changes if 'leader' in c]") == "[-1, 2]" ]] ||
  fail "fixture: unexpected leader changes in $records"
unclean=$(kafka "[(c['leader'], c['isr'], c['leaderRecoveryState']) for c in changes if c.get('leader', -1) >= 0][0]")
echo "Kafka's unclean election: (leader, isr, recovery state) = $unclean"

# Clean election with the ISR Kafka had ([1]) and brokers 2, 3 alive: nobody, exit 1.
expect_exit 1 "$KEPOCH" predict -o json --elect --ids 1,2,3 --isr 1 --alive 2,3 "${dirs[@]}"
[[ $(json "$SCRATCH/out" "d['election']['leader']") == None ]] || fail "a clean leader was chosen"
[[ $(json "$SCRATCH/out" "d['election']['branch']") == none ]] || fail "branch"
expect_in "$SCRATCH/out" "No replica can lead: no member of the ISR [1] is alive"
# The same in the table: the verdict says it once, the reason on stderr as a problem.
expect_exit 1 "$KEPOCH" predict --elect --ids 1,2,3 --isr 1 --alive 2,3 "${dirs[@]}"
expect_in "$SCRATCH/out" "No replica can lead: no member of the ISR [1] is alive (alive: [2,3])"
expect_in "$SCRATCH/err" "no member of the ISR [1] is alive"
if grep -qi "no replica can lead: no replica can lead" "$SCRATCH/out"; then
  fail "the verdict says 'no replica can lead' twice"
fi

# Unclean election allowed: broker 2 (first alive replica), ISR [2], recovering; exactly
# what Kafka wrote. Then broker 1 truncates to 5 as Kafka did (predict-divergence.sh). An
# unclean leader need not hold what was committed, and broker 1 crashed (its high watermark
# checkpoint may lag): whether b-0..2 were committed cannot be ruled out, exit 1.
expect_exit 1 "$KEPOCH" predict -o json --elect --unclean --ids 1,2,3 --isr 1 --alive 2,3 "${dirs[@]}"
got=$(json "$SCRATCH/out" "(d['election']['leader'], d['election']['isr_after'], 1 if d['election']['leader_recovering'] else 0)")
echo "kepoch: (leader, isr, recovery state) = $got"
[[ "$got" == "$unclean" ]] || fail "kepoch elected $got, Kafka $unclean"
[[ $(json "$SCRATCH/out" "d['leader']['dir']") == "${dirs[1]}" ]] || fail "leader dir"
[[ $(json "$SCRATCH/out" "[(r['dir'].split('/')[-2], r['truncate_to'], r['lost_records']) for r in d['replicas']]") == \
  "[('broker-1', 5, 3), ('broker-3', 9, 0)]" ]] || fail "forecast: $(cat "$SCRATCH/out")"
[[ $(json "$SCRATCH/out" "[r['committed_loss'] for r in d['replicas']]") == "[None, False]" ]] ||
  fail "unclean leader: broker 1's loss should be unknown: $(cat "$SCRATCH/out")"

# Had broker 1 come back while still the only ISR member (instead of the unclean election),
# it would have led cleanly at a new epoch, and brokers 2 and 3 would drop c-0..3 (offsets
# 5-8): committed by broker 3's high watermark of 9, so exit 1. Committed is a property of
# the records: broker 2 holds the very same c-0..3 (epoch 2, offsets 5-8), so its copy is
# committed too, whatever high watermark broker 2 itself last checkpointed.
expect_exit 1 "$KEPOCH" predict -o json --elect --ids 1,2,3 --isr 1 "${dirs[@]}"
[[ $(json "$SCRATCH/out" "(d['election']['leader'], d['election']['unclean'], d['election']['branch'])") == \
  "(1, False, 'first_valid_replica')" ]] || fail "broker 1 should lead cleanly"
[[ $(json "$SCRATCH/out" "d['leader']['epochs'][-1]") == "{'epoch': 3, 'start_offset': 8}" ]] ||
  fail "the new leader's epoch entry at its log end"
[[ $(json "$SCRATCH/out" "[(r['truncate_to'], r['lost_records'], r['committed_loss']) for r in d['replicas']]") == \
  "[(5, 4, True), (5, 4, True)]" ]] || fail "forecast with broker 1 leading: $(cat "$SCRATCH/out")"

# ELR on (KIP-966): an empty ISR with broker 3 eligible; 3 leads cleanly and becomes the ISR.
expect_exit 0 "$KEPOCH" predict -o json --elect --ids 1,2,3 --isr '' --elr 3 --alive 2,3 "${dirs[@]}"
[[ $(json "$SCRATCH/out" "(d['election']['leader'], d['election']['unclean'], d['election']['isr_after'])") == \
  "(3, False, [3])" ]] || fail "ELR election: $(json "$SCRATCH/out" "d['election']")"

# Usage errors: bad ids, ids not matching the dirs, --elect with --leader, no leader at all.
expect_exit 2 "$KEPOCH" predict --elect --ids 1,x "${dirs[@]}"
expect_in "$SCRATCH/err" "--ids: 'x' is not a broker id"
expect_exit 2 "$KEPOCH" predict --elect --ids 1,2 "${dirs[@]}"
expect_in "$SCRATCH/err" "--ids gives 2 broker ids for 3 dirs"
expect_exit 2 "$KEPOCH" predict --elect --leader "${dirs[1]}" "${dirs[0]}"
expect_exit 2 "$KEPOCH" predict "${dirs[0]}"
expect_in "$SCRATCH/err" "--leader"
# Without --ids the broker id comes from meta.properties, which these copies lack.
expect_exit 2 "$KEPOCH" predict --elect --isr 1 "${dirs[@]}"
expect_in "$SCRATCH/err" "no broker id"
# With meta.properties in the log dir no --ids are needed: tests/data/logdir is broker 1, and
# a copy of it plays broker 2. The ISR [2] elects the copy, given as the second argument.
mkdir "$SCRATCH/b2"
cp -r "$DATA/logdir/." "$SCRATCH/b2/"
sed -i 's/^node.id=1$/node.id=2/' "$SCRATCH/b2/meta.properties"
expect_exit 0 "$KEPOCH" predict -o json --elect --isr 2 "$DATA/logdir/t-0" "$SCRATCH/b2/t-0"
[[ $(json "$SCRATCH/out" "(d['election']['leader'], d['leader']['dir'])") == "(2, '$SCRATCH/b2/t-0')" ]] ||
  fail "meta.properties node.id: $(cat "$SCRATCH/out")"
# Whole log dirs: the same election for every partition they share, one section each.
expect_exit 0 "$KEPOCH" predict -o json --elect --isr 2 "$DATA/logdir" "$SCRATCH/b2"
[[ $(json "$SCRATCH/out" "(d['election']['leader'], len(d['partitions']) > 1, all(p['leader']['dir'].startswith('$SCRATCH/b2') for p in d['partitions']))") == \
  "(2, True, True)" ]] || fail "whole log dirs with --elect: $(cat "$SCRATCH/out")"
echo "ok"
