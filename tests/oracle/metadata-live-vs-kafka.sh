#!/usr/bin/env bash
# Kafka's own DumpLogSegments --cluster-metadata-decoder as the oracle for `kepoch metadata
# dump` and `metadata history` on a metadata log written now by the Kafka under test
# (KEPOCH_KAFKA_VERSION: the default, 4.4.0 with its default ELR on; 3.9.1 as its own CTest
# test; every minor in `./dev matrix`): broker registrations (RegisterBrokerRecord v4 and
# BrokerRegistrationChangeRecord v3 on 4.4), fencing, a sole replica killed (ISR emptied,
# ELR on: ELR and last known ELR), a topic config, a topic deleted, and with ELR on from 4.1
# the sole replica's topic given a min.insync.replicas (the controller writes a
# ClearElrRecord for it). Every file of the controller's __cluster_metadata-0
# (segments and snapshots, the 4.4 bootstrap snapshot among them): each record Kafka decodes
# has the same type, version and fields in kepoch's dump, and kepoch reads all of them (no
# problem, exit 0). `metadata history` registers the three brokers, and each partition's
# last state is what Kafka's TopicCommand --describe shows (leader, ISR, ELR, last known ELR).
. "$(dirname "$0")/common.sh"
cluster_up
B="$KEPOCH_BOOTSTRAP"
. "$KEPOCH_SOURCE_DIR/tests/kafka/kafka-version"
ELR=$(cluster_elr)

"$KC" create-topic t --assignment 1:2:3 >/dev/null
"$KC" create-topic solo --assignment 3 >/dev/null
"$KC" create-topic gone --assignment 2:1 >/dev/null
"$KC" set-topic-config t retention.ms=86400000 >/dev/null
"$KC" produce t 10 --acks all >/dev/null
"$KC" produce solo 3 --acks all >/dev/null
"$KC" kill 3 >/dev/null
"$KC" wait-isr t 0 1,2 60 >/dev/null
for i in $(seq 1 100); do [[ $("$KC" leader solo 0) == -1 ]] && break; sleep 0.2; done
cleared=0
if [[ $ELR == 1 ]]; then
  [[ $("$KC" elr solo 0) == 3 ]] || fail "solo: ELR $("$KC" elr solo 0) with broker 3 killed, expected 3"
  major=${KEPOCH_KAFKA_VERSION%%.*} minor=$(cut -d. -f2 <<<"$KEPOCH_KAFKA_VERSION")
  if (( major > 4 || (major == 4 && minor >= 1) )); then
    # ConfigurationControlManager.createClearElrRecordsAsNeeded: a topic's
    # min.insync.replicas set with ELR on clears that topic's ELR (a ClearElrRecord).
    "$KC" set-topic-config solo min.insync.replicas=1 >/dev/null
    [[ $("$KC" elr solo 0) == "" ]] || fail "solo: ELR $("$KC" elr solo 0) after min.insync.replicas was set"
    cleared=1
  fi
fi
"$KC" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$B" --delete --topic gone >/dev/null
"$KC" start 3 >/dev/null
"$KC" wait-isr t 0 1,2,3 60 >/dev/null
sleep 2
# Kafka's view of each partition: "topic partition leader isr elr last_known_elr".
"$KC" describe t >"$SCRATCH/describe.txt"
"$KC" describe solo >>"$SCRATCH/describe.txt"
# The controller's metadata as of that describe (the shutdown to come fences every broker):
# copied while the controller is paused, so the copy is of one moment.
cpid=$(cat "$KEPOCH_CLUSTER_DIR/controller/pid")
kill -STOP "$cpid"
cp -a "$("$KC" logdir controller)/__cluster_metadata-0" "$SCRATCH/meta-as-described"
kill -CONT "$cpid"
"$KC" down --graceful >/dev/null

meta="$("$KC" logdir controller)/__cluster_metadata-0"
files=("$meta"/*.log "$meta"/*.checkpoint)
types="$SCRATCH/types.txt"
: >"$types"
for f in "${files[@]}"; do
  [[ -f $f ]] || continue
  expect_exit 0 "$KEPOCH" metadata dump -o json "$f"
  cp "$SCRATCH/out" "$SCRATCH/kepoch.json"
  "$KC" dump-log --cluster-metadata-decoder --print-data-log --files "$f" >"$SCRATCH/kafka-all.txt" ||
    fail "DumpLogSegments failed on $f"
  { grep ' payload: ' "$SCRATCH/kafka-all.txt" || true; } | grep -v NO_OP_RECORD >"$SCRATCH/kafka.txt" || true
  sed -nE 's/.* payload: \{"type":"([A-Z_]+)","version":([0-9]+).*/\1 v\2/p' "$SCRATCH/kafka.txt" >>"$types"
  if [[ -s $SCRATCH/kafka.txt ]]; then
    python3 "$KEPOCH_SOURCE_DIR/tests/cli/metadata_compare.py" "$SCRATCH/kepoch.json" "$SCRATCH/kafka.txt" ||
      fail "kepoch and DumpLogSegments disagree on $f"
  fi
done
[[ $(wc -l <"$types") -ge 20 ]] || fail "DumpLogSegments printed $(wc -l <"$types") records in all, expected a real log"
echo "Kafka $KEPOCH_KAFKA_VERSION (ELR $ELR): record types and versions, all decoded as Kafka does:"
sort "$types" | uniq -c | sed 's/^/  /'
grep -q '^REGISTER_BROKER_RECORD' "$types" || fail "no RegisterBrokerRecord in the log"
if [[ $cleared == 1 ]]; then
  grep -q '^CLEAR_ELR_RECORD' "$types" || fail "ELR turned off but no ClearElrRecord in the log"
fi

expect_exit 0 "$KEPOCH" metadata history -o json "$SCRATCH/meta-as-described"
cp "$SCRATCH/out" "$SCRATCH/history.json"
python3 - "$SCRATCH/history.json" "$SCRATCH/describe.txt" "$cleared" <<'PY' || fail "metadata history differs from Kafka"
import json, re, sys
h = json.load(open(sys.argv[1]))
assert h["problems"] == [], h["problems"]
registered = {b["broker_id"] for b in h["brokers"] if b["event"] in ("registered", "as_of_snapshot")}
assert registered >= {1, 2, 3}, ("brokers registered", registered)
last = {(p["topic"], p["partition"]): p["steps"][-1] for p in h["partitions"] if p["steps"]}
ids = lambda s: sorted(int(x) for x in s.split(",") if x) if s and s != "none" else []
seen = 0
for line in open(sys.argv[2]):
    if "Partition:" not in line: continue
    f = dict(re.findall(r"(\w+): ?(\S*)", line.replace("\t", " ")))
    key = (f["Topic"], int(f["Partition"]))
    s = last[key]
    leader = -1 if f["Leader"] == "none" else int(f["Leader"])
    got = (s["leader"], sorted(s["isr"]), sorted(s["elr"]), sorted(s["last_known_elr"]))
    want = (leader, ids(f["Isr"]), ids(f.get("Elr", "")), ids(f.get("LastKnownElr", "")))
    assert got == want, (key, "kepoch", got, "Kafka", want)
    seen += 1
assert seen == 2, seen
if sys.argv[3] == "1":
    steps = [s for p in h["partitions"] if p["topic"] == "solo" for s in p["steps"]]
    clear = [s for s in steps if s["record"] == "CLEAR_ELR_RECORD"]
    assert clear and clear[0]["elr"] == [] and clear[0]["last_known_elr"] == [], steps
    print("solo: ELR cleared by the ClearElrRecord at offset", clear[0]["offset"])
print("metadata history: brokers", sorted(registered), "registered; t-0 and solo-0 as Kafka describes them")
PY
