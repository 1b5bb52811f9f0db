#!/usr/bin/env bash
# `kepoch plan --metadata`: what it takes from the KRaft metadata log besides the partitions'
# registrations, on logs Kafka 4.1.1 wrote. Topic configs (ConfigRecord: the topic's own,
# else the cluster-wide default, else the flags, which stand for the controllers' static
# config) decide each partition's min.insync.replicas and unclean election; topic ids decide
# which replicas are the topic's: a replica whose partition.metadata names another id (the
# topic deleted and created again) is never a candidate and its records never count.
. "$(dirname "$0")/common.sh"

# --- Topic configs: tests/data/metadata's log sets __transaction_state's
# min.insync.replicas=2 and unclean.leader.election.enable=false (ConfigRecords Kafka wrote when
# it created the topic), and no cluster-wide default. ---
M="$DATA/metadata"
grep -q '"resourceName":"__transaction_state","name":"min.insync.replicas","value":"2"' "$M/dump-log-records.txt" ||
  fail "the fixture's metadata log no longer sets __transaction_state's min.insync.replicas"
expect_exit 1 "$KEPOCH" plan -o json --all --metadata "$M" --ids 1 "$DATA/logdir"
cp "$SCRATCH/out" "$SCRATCH/default.json"
configs() {  # configs FILE: topic -> (min.insync.replicas, unclean election, condition)
  json "$1" "sorted({(p['topic'], p['min_insync_replicas'], p['unclean_leader_election'], p['condition']) for p in d['partitions'] if p['topic'] in ('__transaction_state', 't')})"
}
[[ $(configs "$SCRATCH/default.json") == \
  "[('__transaction_state', 2, False, 'leaderless'), ('t', 1, False, 'leaderless')]" ]] ||
  fail "configs from the log: $(configs "$SCRATCH/default.json")"
expect_in "$SCRATCH/default.json" "min.insync.replicas: the topic config of __transaction_state=2 (metadata log); other topics: 1 (Kafka's default) assumed"
# The flags stand for the controllers' static config: the topic's own config still wins.
expect_exit 1 "$KEPOCH" plan -o json --all --metadata "$M" --ids 1 --unclean --min-isr 3 "$DATA/logdir"
[[ $(configs "$SCRATCH/out") == \
  "[('__transaction_state', 2, False, 'leaderless'), ('t', 3, True, 'unclean')]" ]] ||
  fail "configs from the log and the flags: $(configs "$SCRATCH/out")"
expect_in "$SCRATCH/out" "unclean.leader.election.enable: the topic config of __transaction_state=false (metadata log); other topics: true assumed"

# --- Topic ids: tests/data/metadata-snapshot's s-0 (replicas 1,2,3; broker 3 said gone, so
# nobody leads). Broker 1's snapshot as taken: its replica is a candidate. ---
S="$DATA/metadata-snapshot"
"$KEPOCH" logdir snapshot --file "$SCRATCH/b1.snap" "$S/broker-1" >/dev/null
id=$(sed -n 's/.*"name":"s-0","topic":"s","partition":0,"topic_id":"\([^"]*\)".*/\1/p' "$SCRATCH/b1.snap")
[[ -n $id ]] || fail "no topic id in broker 1's snapshot of s-0"
expect_exit 1 "$KEPOCH" plan -o json --metadata "$S" --topic s --ids 1 --gone 3 "$SCRATCH/b1.snap"
[[ $(json "$SCRATCH/out" "[(c['broker'], c['rank']) for c in d['candidates']]") == "[(1, 1)]" ]] ||
  fail "broker 1's replica is not the candidate: $(json "$SCRATCH/out" "d['candidates']")"
[[ $(json "$SCRATCH/out" "d['problems']") == "[]" ]] || fail "problems: $(json "$SCRATCH/out" "d['problems']")"
# The same snapshot with another topic id, as a replica of an older topic s would carry it.
other=AAAAAAAAAAAAAAAAAAAAAQ
sed "s/\"topic_id\":\"$id\"/\"topic_id\":\"$other\"/" "$SCRATCH/b1.snap" >"$SCRATCH/b1-old.snap"
! cmp -s "$SCRATCH/b1.snap" "$SCRATCH/b1-old.snap" || fail "the topic id was not replaced"
expect_exit 1 "$KEPOCH" plan -o json --metadata "$S" --topic s --ids 1 --gone 3 "$SCRATCH/b1-old.snap"
[[ $(json "$SCRATCH/out" "d['candidates']") == "[]" ]] ||
  fail "a replica of another topic id is a candidate: $(json "$SCRATCH/out" "d['candidates']")"
[[ $(json "$SCRATCH/out" "d['partitions'][0]['recommendation']") == "unknown" ]] ||
  fail "recommendation: $(json "$SCRATCH/out" "d['partitions'][0]")"
want="broker 1's replica of s-0 has topic id $other, the metadata's is $id (the topic was deleted and created again): not a candidate"
[[ $(WANT="$want" json "$SCRATCH/out" "[(p['severity'], __import__('os').environ['WANT'] in p['message']) for p in d['problems']]") == \
  "[('warning', True)]" ]] || fail "problems: $(json "$SCRATCH/out" "d['problems']")"
expect_in "$SCRATCH/out" "$want"
# Said with the table too (problems go to standard error), and the broker's note says its
# state was given but holds no replica of the partition to use.
expect_exit 1 "$KEPOCH" plan --metadata "$S" --topic s --ids 1 --gone 3 "$SCRATCH/b1-old.snap"
expect_in "$SCRATCH/err" "warning: broker 1's replica of s-0 has topic id $other"
expect_in "$SCRATCH/out" "broker 1: its state holds no usable replica of 1 partition(s)"
echo "ok"
