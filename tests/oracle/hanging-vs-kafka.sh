#!/usr/bin/env bash
# Kafka as the oracle for predict's hanging-transaction forecast: a transaction whose COMMIT
# marker exists only on the replica an unclean election discards. Kafka's own
# `kafka-transactions.sh find-hanging` must then list exactly the transactions kepoch
# forecast as hanging (topic, partition, producer id and epoch, start offset), before the
# election and from the disks alone, and the abort command kepoch printed must unblock a
# read_committed consumer.
#
# Topic h (replicas 1,2): a-0..2 replicated. A transactional producer (HangingWorkload.java,
# Kafka's client) writes t-0..2 with acks=all: both replicas hold them. Broker 2 stops (ISR
# [1]); the producer commits: the coordinator writes the COMMIT marker to broker 1 alone and
# records CompleteCommit (__transaction_state: replicas 1,2,3, min ISR 2, kept by 1 and 3).
# Broker 1 dies. From the disks (broker 1's, broker 2's, broker 3's __transaction_state):
# `predict --elect --unclean` forecasts the open transaction at 3 as hanging (its marker
# lost, the coordinator's state CompleteCommit without h-0) and its last stable offset 3.
# Then broker 2 resumes and wins the unclean election; n-0..1 are produced. Kafka's
# find-hanging lists the same transaction; a read_committed consumer stops at offset 3
# (sees a-0..2 only); after kepoch's abort command it reads a-0..2 and n-0..1 (the aborted
# t-* never).
. "$(dirname "$0")/common.sh"
cluster_up
D="$SCRATCH/hanging"
mkdir -p "$D/classes"
KHOME="$("$KEPOCH_SOURCE_DIR/tests/kafka/fetch-kafka" --home)"
javac -nowarn -cp "$KHOME/libs/*" -d "$D/classes" "$(dirname "$0")/HangingWorkload.java" 2>/dev/null ||
  fail "javac of HangingWorkload.java failed"
workload() {
  java -Xshare:auto -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData \
    -Dlog4j2.configurationFile="file:$KHOME/log4j2-tools.properties" \
    -cp "$KHOME/libs/*:$D/classes" HangingWorkload "$@"
}

"$KC" create-topic h --assignment 1:2 >/dev/null
"$KC" produce h 3 --acks all --prefix a >/dev/null
workload produce "$KEPOCH_BOOTSTRAP" h kepoch-hanging "$D/go" >"$D/producer.out" 2>&1 &
producer=$!
for ((i = 0; i < 600; i++)); do grep -q '^sent' "$D/producer.out" && break; sleep 0.1; done
grep -q '^sent' "$D/producer.out" || { cat "$D/producer.out"; fail "the producer sent nothing"; }
"$KC" wait-isr h 0 "1,2" 60 >/dev/null
"$KC" stop 2
"$KC" wait-isr h 0 "1" 60 >/dev/null
touch "$D/go"
wait "$producer" || { cat "$D/producer.out"; fail "the transaction did not commit"; }
grep -q '^committed' "$D/producer.out" || fail "the transaction did not commit"
B1="$("$KC" logdir 1)" B2="$("$KC" logdir 2)" B3="$("$KC" logdir 3)"
# commitTransaction returns once the coordinator has logged PrepareCommit; the markers and
# CompleteCommit follow. Broker 1 dies only once broker 3's copy of the coordinator's log
# holds CompleteCommit (the marker is on broker 1): killed earlier, the coordinator that takes
# over finds PrepareCommit and writes the marker again, and nothing hangs (kepoch says so).
complete=0
for ((i = 0; i < 300; i++)); do
  for f in "$B3"/__transaction_state-*/*.log; do
    if "$KEPOCH" segment dump -o jsonl --records "$f" 2>/dev/null | grep '"kepoch-hanging"' |
      grep '"transaction_state":"CompleteCommit"' >/dev/null; then
      complete=1
      break 2
    fi
  done
  sleep 0.1
done
((complete)) || fail "broker 3's __transaction_state never held CompleteCommit for kepoch-hanging"
"$KC" kill 1 >/dev/null

# The forecast, from the disks only (broker 2 still stopped, broker 1 dead).
expect_exit 1 "$KEPOCH" predict -o json --elect --ids 1,2 --replicas 1,2 --isr 1 --alive 2 \
  --unclean --transaction-state "$B3" --transaction-state-partitions 3 \
  --bootstrap-server "$KEPOCH_BOOTSTRAP" "$B1/h-0" "$B2/h-0"
cp "$SCRATCH/out" "$D/predict.json"
echo "predict: $(json "$D/predict.json" "d['summary']")"
# Without the coordinator's log: the same transaction, its fate unknown (never "not hanging").
expect_exit 1 "$KEPOCH" predict -o json --elect --ids 1,2 --replicas 1,2 --isr 1 --alive 2 \
  --unclean "$B1/h-0" "$B2/h-0"
python3 - "$SCRATCH/out" <<'PY' || fail "without __transaction_state the forecast is not unknown"
import json, sys
t = json.load(open(sys.argv[1]))["transactions"]
assert t["hanging_transactions"] == 0 and t["hanging_unknown"] == 1, t
o = t["open_transactions"][0]
assert o["hanging"] is None and o["coordinator"] == "unknown" and o["marker_lost"] is True, o
PY

"$KC" cont 2 >/dev/null
"$KC" wait-brokers 2,3 60 >/dev/null
"$KC" elect-unclean h 0 >/dev/null
"$KC" wait-leader h 0 2 60 >/dev/null
"$KC" produce h 2 --acks all --prefix n >/dev/null
BS="$("$KC" live-bootstrap)"
sleep 1  # find-hanging skips transactions younger than --max-transaction-timeout (0 min: > 0 ms)
"$KC" tool org.apache.kafka.tools.TransactionsCommand --bootstrap-server "$BS" find-hanging \
  --topic h --max-transaction-timeout 0 >"$D/find-hanging.txt" 2>"$D/find-hanging.err" ||
  { cat "$D/find-hanging.err"; fail "find-hanging failed"; }
cat "$D/find-hanging.txt"
# Live, through kepoch's own client (DescribeProducers, ListTransactions, FindCoordinator,
# DescribeTransactions): `kepoch cluster hanging` lists what find-hanging lists
# (TransactionsCommand.FindHangingTransactionsCommand), its eight columns field by field.
expect_exit 1 "$KEPOCH" cluster hanging -o json -b "$BS" --topic h --max-transaction-timeout 0
cp "$SCRATCH/out" "$D/live-hanging.json"
"$KEPOCH" cluster hanging -b "$BS" --topic h --max-transaction-timeout 0 >"$D/live-hanging.txt" || true
cat "$D/live-hanging.txt"
python3 - "$D/live-hanging.json" "$D/find-hanging.txt" <<'PY' || fail "kepoch cluster hanging is not find-hanging's answer"
import json, sys
d = json.load(open(sys.argv[1]))
lines = [l.split() for l in open(sys.argv[2]).read().splitlines() if l.strip()]
head, rows = lines[0], lines[1:]
kafka = sorted(tuple(r) for r in rows)
cols = ["topic", "partition", "producer_id", "producer_epoch", "coordinator_epoch",
        "start_offset", "last_timestamp", "duration_minutes"]
assert head == ["Topic", "Partition", "ProducerId", "ProducerEpoch", "CoordinatorEpoch",
                "StartOffset", "LastTimestamp", "Duration(min)"], head
ours = sorted(tuple(str(t[c]) for c in cols) for t in d["transactions"] if t["hanging"] is True)
print("find-hanging:        ", kafka)
print("kepoch cluster hanging:", ours)
# Duration(min) is counted at each tool's own clock: equal unless a minute turned between.
strip = lambda rows: [r[:7] for r in rows]
assert strip(kafka) == strip(ours), (kafka, ours)
assert d["hanging_transactions"] == 1 and d["unknown"] == 0, d
t = [t for t in d["transactions"] if t["hanging"]][0]
assert t["abort_command"].endswith("abort --topic h --partition 0 --start-offset 3"), t
assert d["abort_commands"] == [t["abort_command"]], d["abort_commands"]
assert d["summary"].startswith("1 transaction hangs (first: h-0 at offset 3)"), d["summary"]
PY

python3 - "$D/predict.json" "$D/find-hanging.txt" <<'PY' || fail "kepoch's forecast is not find-hanging's answer"
import json, sys
t = json.load(open(sys.argv[1]))["transactions"]
lines = [l.split() for l in open(sys.argv[2]).read().splitlines() if l.strip()]
head, rows = lines[0], lines[1:]
col = {name: i for i, name in enumerate(head)}
kafka = sorted((r[col["Topic"]], int(r[col["Partition"]]), int(r[col["ProducerId"]]),
                int(r[col["ProducerEpoch"]]), int(r[col["StartOffset"]])) for r in rows)
ours = sorted(("h", 0, o["producer_id"], o["producer_epoch"], o["start_offset"])
              for o in t["open_transactions"] if o["hanging"] is True)
print("find-hanging:", kafka)
print("kepoch:      ", ours)
assert kafka == ours, (kafka, ours)
assert len(ours) == 1 and ours[0][4] == 3, ours
o = t["open_transactions"][0]
assert o["marker_lost"] is True and o["coordinator"] == "not_tracked", o
assert o["coordinator_state"] == "CompleteCommit" and o["transactional_id"] == "kepoch-hanging", o
assert t["last_stable_offset"] == 3, t
PY

# read_committed stops at the last stable offset, then the abort kepoch printed unblocks it.
workload consume "$BS" h >"$D/before.txt" 2>"$D/consume.err" || { cat "$D/consume.err"; fail "consumer failed"; }
grep -qx 'lso=3' "$D/before.txt" && grep -qx 'keys=a-0,a-1,a-2' "$D/before.txt" ||
  { cat "$D/before.txt"; fail "a read_committed consumer does not stop at 3"; }
abort="$(json "$D/predict.json" "d['transactions']['open_transactions'][0]['abort_command']")"
echo "kepoch's abort command: $abort"
read -r -a words <<<"$abort"
[[ ${words[0]} == kafka-transactions.sh && ${words[2]} == "$KEPOCH_BOOTSTRAP" ]] || fail "not the command expected: $abort"
# kafka-transactions.sh is TransactionsCommand; the bootstrap given to predict names broker 1
# too (dead): the live brokers' list stands in for it.
words[2]="$BS"
"$KC" tool org.apache.kafka.tools.TransactionsCommand "${words[@]:1}" >"$D/abort.out" 2>&1 ||
  { cat "$D/abort.out"; fail "kepoch's abort command failed"; }
workload consume "$BS" h >"$D/after.txt" 2>"$D/consume.err" || { cat "$D/consume.err"; fail "consumer failed"; }
grep -qx 'keys=a-0,a-1,a-2,n-0,n-1' "$D/after.txt" ||
  { cat "$D/after.txt"; fail "the abort did not unblock the read_committed consumer"; }
echo "read_committed: $(tr '\n' ' ' <"$D/before.txt")-> $(tr '\n' ' ' <"$D/after.txt")"
"$KC" tool org.apache.kafka.tools.TransactionsCommand --bootstrap-server "$BS" find-hanging \
  --topic h --max-transaction-timeout 0 >"$D/find-hanging-after.txt" 2>/dev/null || fail "find-hanging failed"
[[ $(grep -c . "$D/find-hanging-after.txt") -le 1 ]] || { cat "$D/find-hanging-after.txt"; fail "still hanging after the abort"; }
# And kepoch agrees, over every topic (find-hanging needs --topic or --broker-id; kepoch
# searches all by default): exit 0, nothing hangs.
expect_exit 0 "$KEPOCH" cluster hanging -o json -b "$BS" --max-transaction-timeout 0
json "$SCRATCH/out" "d['summary']"
echo "PASS: hanging-vs-kafka"
