#!/usr/bin/env bash
# Kafka's own consumer as the oracle for `predict --offsets` (issue 35): each consumer
# group's next fetch after an unclean election, as kepoch forecasts it from the disks
# (forecast/consumer_fate: SubscriptionState.maybeCompleteValidation and the fetch's
# OFFSET_OUT_OF_RANGE handling), against what the Java consumer of the Kafka under test does.
#
# Topic f (replicas 1,2): a-0..9 replicated (epoch 0). Every group commits first, all brokers
# up: offset 5 (below what the election removes), 15 (inside) or 20 (past it, the old log's
# end), each with leader epoch 0 (as a Java consumer commits) or none (-1: a client without
# KIP-320), and each group consumes with auto.offset.reset earliest, latest or none: 18
# groups. Broker 2 stops; broker 1 alone takes u-10..19 (acks=1) and dies; broker 2 wins an
# unclean election and takes n-10..17. kepoch predicts from broker 2's replica, broker 1's
# log dir (its replica and its __consumer_offsets, the broker down); then
# ConsumerFateProbe.java starts each group from its committed offset: the offset of the
# first record it gets (or the position it settles on, or the exception it throws) equals
# kepoch's next_position (or exception, and LogTruncationException's divergent offset).
# Six more groups consume with Debian's librdkafka 2.0.2 (kepoch_consumer_probe; no KIP-320:
# no validation, epoch or not), against `predict --client librdkafka-2.0`.
. "$(dirname "$0")/common.sh"
cluster_up
KHOME="$("$KEPOCH_SOURCE_DIR/tests/kafka/fetch-kafka" --home)"
D="$SCRATCH/fate"
mkdir -p "$D/classes"
javac -nowarn -cp "$KHOME/libs/*" -d "$D/classes" "$(dirname "$0")/ConsumerFateProbe.java" 2>/dev/null ||
  fail "javac of ConsumerFateProbe.java failed"
probe() {
  java -Xshare:auto -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData \
    -Dlog4j2.configurationFile="file:$KHOME/log4j2-tools.properties" \
    -cp "$KHOME/libs/*:$D/classes" ConsumerFateProbe "$@"
}
BOOT="$("$KC" bootstrap)"

"$KC" create-topic f --assignment 1:2 >/dev/null
"$KC" produce f 10 --acks all --prefix a >/dev/null
[[ $("$KC" end-offset f 0) == 10 ]] || fail "expected 10 records"

commits=() probes=() rdprobes=()
for spot in below:5 inside:15 past:20; do
  for epoch in 0 -1; do
    for policy in earliest latest none; do
      g="j-${spot%%:*}-e${epoch#-}-$policy"
      commits+=("$g:${spot#*:}:$epoch")
      probes+=("$g:$policy")
    done
  done
done
# librdkafka's groups (its "error" is the Java consumer's none).
for g in r-below-e0-error:5:0 r-inside-e0-earliest:15:0 r-inside-e1-latest:15:-1 \
         r-past-e0-earliest:20:0 r-past-e0-latest:20:0 r-past-e1-error:20:-1; do
  commits+=("$g")
  name=${g%%:*}
  rdprobes+=("$name:${name##*-}")
done
probe commit "$BOOT" f "${commits[@]}" > "$D/commit.out" 2>&1 || { cat "$D/commit.out"; fail "commits failed"; }

# Live, through kepoch's own client (ListGroups on every broker, FindCoordinator, OffsetFetch):
# `kepoch cluster groups` lists each group's committed offset as Kafka's ConsumerGroupCommand
# --describe --all-groups (kafka-consumer-groups.sh) shows it, and the leader epoch stored with
# it as the probe committed it (0, or none for -1: OffsetFetchResponse's
# committedLeaderEpoch, KIP-320).
expect_exit 0 "$KEPOCH" cluster groups -o json -b "$BOOT" --topic f
cp "$SCRATCH/out" "$D/groups.json"
"$KC" tool org.apache.kafka.tools.consumer.group.ConsumerGroupCommand --bootstrap-server "$BOOT" \
  --describe --all-groups >"$D/describe.txt" 2>"$D/describe.err" ||
  { cat "$D/describe.err"; fail "kafka-consumer-groups --describe failed"; }
python3 - "$D/groups.json" "$D/describe.txt" "${commits[@]}" <<'PY' || fail "kepoch cluster groups differs from kafka-consumer-groups"
import json, sys
d = json.load(open(sys.argv[1]))
kafka = sorted((r[0], r[1], int(r[2]), int(r[3])) for r in
               (l.split() for l in open(sys.argv[2]).read().splitlines())
               if len(r) >= 4 and r[0] != "GROUP" and r[1] == "f")
ours = sorted((o["group"], o["topic"], o["partition"], o["committed_offset"]) for o in d["offsets"])
print(f"kafka-consumer-groups: {len(kafka)} offsets; kepoch cluster groups: {len(ours)}")
assert kafka == ours, (kafka, ours)
want = {}
for spec in sys.argv[3:]:
    g, off, epoch = spec.split(":")
    want[g] = (int(off), None if int(epoch) < 0 else int(epoch))
got = {o["group"]: (o["committed_offset"], o["leader_epoch"]) for o in d["offsets"]}
assert got == want, (got, want)
assert d["complete"] is True and d["summary"].startswith(f"{d['groups_listed']} groups listed"), d
PY

"$KC" stop 2
"$KC" wait-isr f 0 "1" 60 >/dev/null
"$KC" produce f 10 --acks 1 --prefix u --start 10 >/dev/null
"$KC" kill 1 >/dev/null
# Live, before the election (issue 35 item 3): broker 1 fenced, f-0 leaderless, broker 2
# stopped; with unclean.leader.election.enable on f, the controller elects broker 2 when it
# returns. `kepoch cluster predict --groups` on broker 2's log dir forecasts each group's
# next fetch from the offsets it reads live (OffsetFetch at broker 3, the coordinators now).
"$KC" wait-leader f 0 -1 60 >/dev/null
"$KC" set-topic-config f unclean.leader.election.enable=true >/dev/null
B2="$("$KC" logdir 2)"
LIVE="$("$KC" live-bootstrap)"
expect_exit 1 "$KEPOCH" cluster predict -o json -b "$LIVE" --log-dir "$B2" --broker 2 --topic f --groups
cp "$SCRATCH/out" "$D/cluster-predict.json"
expect_exit 1 "$KEPOCH" cluster predict -o json -b "$LIVE" --log-dir "$B2" --broker 2 --topic f --groups \
  --client librdkafka-2.0
cp "$SCRATCH/out" "$D/cluster-predict-rdkafka.json"
"$KC" cont 2 >/dev/null
"$KC" wait-brokers 2,3 60 >/dev/null
# The controller elects broker 2 on its return (unclean); the command is for a controller
# that has not yet (ELECTION_NOT_NEEDED once it has).
"$KC" elect-unclean f 0 >/dev/null 2>&1 || true
"$KC" wait-leader f 0 2 60 >/dev/null
# Each group's next fetch now, on the log cluster predict saw (nothing written since).
probe probe "$BOOT" f "${probes[@]}" > "$D/live-probe.out" 2>"$D/live-probe.err" ||
  { cat "$D/live-probe.out" "$D/live-probe.err"; fail "the probe failed (after the election)"; }
"$KEPOCH_CONSUMER_PROBE" "$BOOT" f "${rdprobes[@]}" > "$D/live-rdkafka.out" 2>"$D/live-rdkafka.err" ||
  { cat "$D/live-rdkafka.out" "$D/live-rdkafka.err"; fail "the librdkafka probe failed (after the election)"; }
"$KC" produce f 8 --acks 1 --prefix n --start 10 >/dev/null

B1="$("$KC" logdir 1)"
snapshot 2 f "$D/leader"
expect_exit 1 "$KEPOCH" predict -o json --offsets "$B1" --leader "$D/leader/f-0" "$B1/f-0"
cp "$SCRATCH/out" "$D/predict.json"
expect_exit 1 "$KEPOCH" predict -o json --offsets "$B1" --client librdkafka-2.0 --leader "$D/leader/f-0" "$B1/f-0"
cp "$SCRATCH/out" "$D/predict-rdkafka.json"
expect_exit 1 "$KEPOCH" predict --offsets "$B1" --leader "$D/leader/f-0" "$B1/f-0"
echo "predict: $(head -n 1 "$SCRATCH/out")"

probe probe "$BOOT" f "${probes[@]}" > "$D/probe.out" 2>"$D/probe.err" || { cat "$D/probe.out" "$D/probe.err"; fail "the probe failed"; }
"$KEPOCH_CONSUMER_PROBE" "$BOOT" f "${rdprobes[@]}" > "$D/rdkafka.out" 2>"$D/rdkafka.err" ||
  { cat "$D/rdkafka.out" "$D/rdkafka.err"; fail "the librdkafka probe failed"; }

# KEPOCH_FATE_FIXTURES=DIR keeps the scene as fixtures (tests/data/consumer-fate): broker 2's
# replica (the new leader), broker 1's log dir (its replica, its __consumer_offsets, its
# checkpoints), and what Kafka's consumers did; only the files kepoch reads (no indexes).
if [[ -n ${KEPOCH_FATE_FIXTURES:-} ]]; then
  keep() {  # keep SRC_PARTITION_DIR DEST_PARENT
    mkdir -p "$2/$(basename "$1")"
    find "$1" -maxdepth 1 -type f \( -name '*.log' -o -name leader-epoch-checkpoint \
      -o -name partition.metadata \) -exec cp {} "$2/$(basename "$1")/" \;
  }
  F="$KEPOCH_FATE_FIXTURES"
  rm -rf "$F/broker-1" "$F/broker-2"
  keep "$D/leader/f-0" "$F/broker-2"
  cp "$D/leader"/*-checkpoint "$F/broker-2/" 2>/dev/null || true
  keep "$B1/f-0" "$F/broker-1"
  for p in "$B1"/__consumer_offsets-*; do keep "$p" "$F/broker-1"; done
  cp "$B1"/*-checkpoint "$B1/meta.properties" "$F/broker-1/"
  cp "$D/probe.out" "$F/java-consumer.out"
  cp "$D/rdkafka.out" "$F/librdkafka-consumer.out"
fi

python3 "$(dirname "$0")/compare_consumer_fate.py" "$D/predict.json" "$D/probe.out" j- 18 \
  no_change truncation_detected log_truncation_exception silent_skip out_of_range_reset \
  out_of_range_exception || fail "a Java consumer's fate differs from kepoch's forecast"
python3 "$(dirname "$0")/compare_consumer_fate.py" "$D/predict-rdkafka.json" "$D/rdkafka.out" r- 6 \
  no_change silent_skip out_of_range_reset out_of_range_exception ||
  fail "a librdkafka consumer's fate differs from kepoch's forecast (--client librdkafka-2.0)"

# cluster predict's forecast, made before the election, against the same consumers right
# after it: broker 2 leads f-0 (outcome leads) and every group's next position or exception
# is the consumer's. Without broker 1's log, a commit without an epoch cannot tell no_change
# from silent_skip (consumed_lost, reread, skipped_unseen null); a commit with one places the
# divergence in broker 2's epoch history, and its consumed_lost equals offline predict's,
# which had both logs.
for side in "" -rdkafka; do
  python3 - "$D/cluster-predict$side.json" "$D/predict$side.json" "$D/live$side.json" <<'PY' ||
import json, sys
live, offline = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
rows = [r for r in live["partitions"] if r["topic"] == "f" and r["partition"] == 0]
assert rows and rows[0]["outcome"] == "leads", rows
parts = [p for p in live["consumer_groups"] if p["topic"] == "f" and p["partition"] == 0]
assert len(parts) == 1, live["consumer_groups"]
p = parts[0]
assert p["groups_complete"] is True and p["consumed_from"] is None, p
assert p["leader_log_end_offset"] == 10 and p["latest_offset"] == 10, p
want = {(r["group"], r["auto_offset_reset"]): r for r in offline["consumer_groups"]["groups"]}
got = {(r["group"], r["auto_offset_reset"]): r for r in p["groups"]}
assert set(got) == set(want), sorted(set(got) ^ set(want))
known = uncertain = 0
for k, r in got.items():
    assert r["committed_offset"] == want[k]["committed_offset"], (k, r, want[k])
    assert r["committed_leader_epoch"] == want[k]["committed_leader_epoch"], (k, r, want[k])
    if r["consumed_lost"] is None:
        uncertain += 1
        assert r["committed_leader_epoch"] is None, (k, r)
        assert r["reread"] is None and r["skipped_unseen"] is None, (k, r)
    else:
        known += 1
        assert r["consumed_lost"] == want[k]["consumed_lost"], (k, r["consumed_lost"], want[k]["consumed_lost"])
assert known and uncertain, (known, uncertain)
assert p["uncertain_groups"] > 0 and "Consumer groups" in live["summary"]["text"], live["summary"]
json.dump({"consumer_groups": p}, open(sys.argv[3], "w"))
print(f"cluster predict{{side}}: {len(got)} rows, {known} with consumed_lost (offline's), "
      f"{uncertain} without (no epoch)".replace("{side}", sys.argv[1].endswith("rdkafka.json") and " (librdkafka-2.0)" or ""))
PY
    fail "cluster predict --groups$side: not the forecast expected"
done
python3 "$(dirname "$0")/compare_consumer_fate.py" "$D/live.json" "$D/live-probe.out" j- 18 \
  no_change truncation_detected log_truncation_exception out_of_range_reset \
  out_of_range_exception || fail "a Java consumer's fate differs from cluster predict's forecast"
python3 "$(dirname "$0")/compare_consumer_fate.py" "$D/live-rdkafka.json" "$D/live-rdkafka.out" r- 6 \
  no_change out_of_range_reset out_of_range_exception ||
  fail "a librdkafka consumer's fate differs from cluster predict's forecast (--client librdkafka-2.0)"
