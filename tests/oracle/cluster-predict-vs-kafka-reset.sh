#!/usr/bin/env bash
# Kafka as the oracle for a follower whose log ends below its leader's log start (issue 22,
# item 4): broker 3 is down while the leader goes on and DeleteRecords moves the log start
# past broker 3's log end. On restart its fetch is out of range and AbstractFetcherThread
# .fetchOffsetAndTruncate truncates it fully and starts it at the leader's log start
# (truncateFullyAndStartAt). kepoch (cluster predict, and offline predict on copies of both
# replica dirs) must say so: truncated fully to the leader's log start, its whole log
# removed, none of it lost to the cluster (the leader deleted those offsets itself), exit 0.
# The leader writes its log start to log-start-offset-checkpoint every second (default: a
# minute), so that the copy offline predict reads has the log start DeleteRecords set (until
# then the files say 0, and offline predict rightly sees no reset).
export KEPOCH_EXTRA_PROPS="log.flush.start.offset.checkpoint.interval.ms=1000"
. "$(dirname "$0")/common.sh"
cluster_up
B="$KEPOCH_BOOTSTRAP"
SNAP="$SCRATCH/snap"
mkdir -p "$SNAP"
T=reset

"$KC" create-topic "$T" --assignment 1:2:3 >/dev/null
"$KC" produce "$T" 5 --acks all --prefix a >/dev/null
"$KC" kill 3 >/dev/null
"$KC" wait-isr "$T" 0 "1,2" 60 >/dev/null
"$KC" produce "$T" 5 --acks all --prefix b --start 5 >/dev/null
echo '{"version": 1, "partitions": [{"topic": "reset", "partition": 0, "offset": 8}]}' > "$SNAP/delete.json"
"$KC" tool org.apache.kafka.tools.DeleteRecordsCommand --bootstrap-server "$("$KC" live-bootstrap)" \
  --offset-json-file "$SNAP/delete.json" > "$SNAP/delete.out"
grep -q 'low_watermark: 8' "$SNAP/delete.out" || fail "DeleteRecords: $(cat "$SNAP/delete.out")"
leader=$("$KC" leader "$T" 0)
# LogManager writes it first 30 s after startup (InitialTaskDelayMs), then every second.
for i in $(seq 1 60); do
  grep -qx 'reset 0 8' "$("$KC" logdir "$leader")/log-start-offset-checkpoint" 2>/dev/null && break
  sleep 1
done
grep -qx 'reset 0 8' "$("$KC" logdir "$leader")/log-start-offset-checkpoint" ||
  fail "broker $leader never checkpointed log start 8"

rc=0
"$KEPOCH" cluster predict -b "$B" --log-dir "$("$KC" logdir 3)" --details -o json \
  > "$SNAP/cluster.json" 2> "$SNAP/cluster.err" || rc=$?
snapshot 3 "$T" "$SNAP/follower"
snapshot "$leader" "$T" "$SNAP/leader"
orc=0
"$KEPOCH" predict -o json --leader "$SNAP/leader/$T-0" "$SNAP/follower/$T-0" > "$SNAP/offline.json" \
  2> "$SNAP/offline.err" || orc=$?

"$KC" start 3 >/dev/null
"$KC" wait-isr "$T" 0 "1,2,3" 60 >/dev/null
snapshot 3 "$T" "$SNAP/after"
# Kafka's own DumpLogSegments of broker 3's replica before and after its restart.
for side in follower after; do
  "$KC" dump-log --files "$(ls "$SNAP/$side/$T-0"/*.log | paste -sd,)" > "$SNAP/kafka-$side.txt"
done
"$KC" truncation-lines 3 "$T-0" > "$SNAP/kafka-lines" || true
echo "Kafka: $(cat "$SNAP/kafka-lines")"

python3 - "$SNAP" "$rc" "$orc" <<'PY' || fail "kepoch's account of the full reset differs from Kafka's"
import json, re, sys
snap, rc, orc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def dumped(side):
    out = []
    for line in open(f"{snap}/kafka-{side}.txt"):
        m = re.search(r"baseOffset: (\d+) lastOffset: (\d+) count: (\d+)", line)
        if m:
            out.append({"base_offset": int(m.group(1)), "last_offset": int(m.group(2)),
                        "count": int(m.group(3))})
    return out
live = json.load(open(f"{snap}/cluster.json"))
section = [s for s in live["forecasts"] if s["topic"] == "reset"][0]["replicas"][0]
offline = json.load(open(f"{snap}/offline.json"))["replicas"][0]
before, after = dumped("follower"), dumped("after")
removed = sum(b["count"] for b in before)  # the whole log: truncateFullyAndStartAt
errors = []
# Kafka: broker 3 deleted its whole log (0-4) and holds only the leader's batches from the
# one holding its log start 8 (a batch may begin below it: Partition.appendRecordsToFollower
# starts the log there, then the log start moves up to 8).
if not after or any(b["last_offset"] < 8 for b in after):
    errors.append(f"Kafka's follower after the restart: {[(b['base_offset'], b['last_offset']) for b in after]}")
if removed == 0 or before[-1]["last_offset"] >= 8:
    errors.append(f"broker 3's log before: {before}: not below the leader's log start 8")
want = {"truncate_to": 8, "truncated_fully": True, "removed_records": removed, "lost_records": 0,
        "below_leader_start_records": removed, "committed_loss": False, "lost_unknown_records": 0}
for name, got in (("cluster predict", section), ("predict", offline)):
    for k, v in want.items():
        if got[k] != v:
            errors.append(f"{name}: {k} {got[k]}, expected {v}")
print(f"kepoch: truncate fully to {section['truncate_to']}, removed {section['removed_records']}, "
      f"below the leader's log start {section['below_leader_start_records']}; exit {rc} (offline {orc})")
if (rc, orc) != (0, 0):
    errors.append(f"exit status: cluster predict {rc}, predict {orc}: nothing the cluster holds is lost")
for e in errors:
    print("MISMATCH", e)
sys.exit(1 if errors else 0)
PY
grep -q 'Truncate fully' "$SNAP/kafka-lines" || fail "Kafka did not log a full truncation for broker 3"
echo "cluster predict and predict agree with Kafka's full reset"
