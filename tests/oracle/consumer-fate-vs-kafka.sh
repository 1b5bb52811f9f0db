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
# With librdkafka's rules (--client librdkafka-2.0) the same commits are checked by
# kepoch_consumer_probe (librdkafka 2.0.2, no KIP-320): no validation, epoch or not.
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

commits=() probes=()
for spot in below:5 inside:15 past:20; do
  for epoch in 0 -1; do
    for policy in earliest latest none; do
      g="j-${spot%%:*}-e${epoch#-}-$policy"
      commits+=("$g:${spot#*:}:$epoch")
      probes+=("$g:$policy")
    done
  done
done
probe commit "$BOOT" f "${commits[@]}" > "$D/commit.out" 2>&1 || { cat "$D/commit.out"; fail "commits failed"; }

"$KC" stop 2
"$KC" wait-isr f 0 "1" 60 >/dev/null
"$KC" produce f 10 --acks 1 --prefix u --start 10 >/dev/null
"$KC" kill 1 >/dev/null
"$KC" cont 2 >/dev/null
"$KC" wait-brokers 2,3 60 >/dev/null
"$KC" elect-unclean f 0 >/dev/null
"$KC" wait-leader f 0 2 60 >/dev/null
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

# kepoch's row for a group and policy, in the probe's words.
python3 - "$D/predict.json" "$D/probe.out" <<'PY' || fail "a group's fate differs from kepoch's forecast"
import json, sys
d = json.load(open(sys.argv[1]))
g = d["consumer_groups"]
rows = {(r["group"], r["auto_offset_reset"]): r for r in g["groups"]}
seen = {}
for line in open(sys.argv[2]):
    parts = line.split()
    if len(parts) >= 3 and parts[0].startswith("j-"):
        seen[parts[0]] = " ".join(parts[1:])
bad = 0
actions = set()
for group, got in sorted(seen.items()):
    policy = group.rsplit("-", 1)[1]
    r = rows.get((group, policy))
    if r is None:
        print(f"{group}: kepoch has no row"); bad += 1; continue
    if r["exception"]:
        want = "exception " + r["exception"] + (f" divergent={r['divergent_offset']}" if r["divergent_offset"] is not None else "")
    else:
        want = f"position {r['next_position']}"
    actions.add(r["action"])
    mark = "ok" if want == got else "DIFFERS"
    if want != got: bad += 1
    print(f"{group}: Kafka {got}; kepoch {want} ({r['action']}, lost {r['consumed_lost']}, "
          f"re-read {r['reread']}, skipped {r['skipped_unseen']}) {mark}")
if len(seen) != 18:
    print(f"the probe answered for {len(seen)} groups of 18"); bad += 1
# The scenario must reach every branch, or it proves little.
for a in ["no_change", "truncation_detected", "log_truncation_exception", "silent_skip",
          "out_of_range_reset", "out_of_range_exception"]:
    if a not in actions:
        print(f"no group met {a}"); bad += 1
sys.exit(1 if bad else 0)
PY
