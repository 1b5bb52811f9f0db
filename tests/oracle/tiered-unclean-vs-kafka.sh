#!/usr/bin/env bash
# Tiered storage after an unclean election (issue 36): the losing branch's uploaded segments
# against the new leader's epoch lineage, with Kafka's retention as the judge.
#
#   u  replicas 1,2 (broker 3 holds only __remote_log_metadata), tiered, 1 MiB segments.
#   1. 1500 records in sync; broker 1 (leader) copies segment 0-1023.
#   2. broker 2 stopped and out of the ISR; 2500 more records on broker 1 alone (acks=1):
#      it copies 1024-2047 and 2048-3071, of epoch 0, which broker 2 never had.
#   3. broker 1 killed, broker 2 elected uncleanly (a new epoch from its own end, ~1500), 3000
#      records on it: it copies its own segments from there.
#   4. kepoch logdir scan of broker 2 (the new leader): which finished remote segments are
#      outside its lineage (RemoteLogManager.isRemoteSegmentWithinLeaderEpochs).
#   5. retention.ms=1 on u: the leader's expiration task deletes every finished segment within
#      its lineage (all of kepoch's "within"), none outside it (Kafka skips them: KAFKA-16511);
#      those it keeps are among kepoch's "outside", and those it deletes anyway go by the
#      leader-epoch-cache truncation path (its log line says so).
. "$(dirname "$0")/common.sh"
export KEPOCH_TIERED=1
cluster_up

produce() {  # produce TOPIC N ACKS
  "$KC" tool org.apache.kafka.tools.ProducerPerformance --topic "$1" --num-records "$2" \
    --record-size 1000 --throughput -1 \
    --producer-props bootstrap.servers="$("$KC" live-bootstrap)" acks="$3" linger.ms=20 \
    >/dev/null || fail "producing to $1 failed"
}
# finished N [BROKER_ID]: the finished copies of u in broker 3's __remote_log_metadata (made
# by broker BROKER_ID); broker 3 runs throughout.
finished() {
  local files
  files=("$("$KC" logdir 3)"/__remote_log_metadata-*/*.log)
  "$KEPOCH" segment dump -o json "${files[@]}" > "$SCRATCH/meta.json" 2>/dev/null || true
  python3 - "$SCRATCH/meta.json" "${1:-}" <<'PY'
import json, sys
by = sys.argv[2]
copies, done = {}, set()
for f in json.load(open(sys.argv[1])):
    for b in f["batches"]:
        for r in b.get("records", []):
            m = r.get("remote_log_metadata") or {}
            if m.get("topic") != "u": continue
            if m["type"] == "REMOTE_LOG_SEGMENT_METADATA_RECORD": copies[m["segment_id"]] = m["broker_id"]
            if m.get("state") == "COPY_SEGMENT_FINISHED": done.add(m["segment_id"])
print(sum(1 for s in done if not by or str(copies.get(s)) == by))
PY
}
wait_finished() {  # wait_finished MIN [BROKER_ID]
  local i n=0
  for ((i = 0; i < 120; i++)); do
    n=$(finished "${2:-}")
    (( n >= $1 )) && { echo "u: $n finished copies${2:+ by broker $2}"; return 0; }
    sleep 0.5
  done
  fail "u: $n finished copies${2:+ by broker $2} after 60 s (wanted $1)"
}

"$KC" create-topic u --assignment 1:2 --config remote.storage.enable=true \
  --config segment.bytes=1048576 --config local.retention.bytes=1 >/dev/null
produce u 1500 all
wait_finished 1 1
"$KC" stop 2 >/dev/null
"$KC" wait-isr u 0 "1" 60 >/dev/null
produce u 2500 1
wait_finished 3 1
"$KC" kill 1 >/dev/null
"$KC" cont 2 >/dev/null
"$KC" wait-brokers 2,3 60 >/dev/null
"$KC" elect-unclean u 0 >/dev/null || fail "the unclean election failed"
"$KC" wait-leader u 0 2 60 >/dev/null
produce u 3000 1
wait_finished 2 2

B2="$("$KC" logdir 2)"
mkdir -p "$SCRATCH/b2"
pid=$("$KC" pid 2)
kill -STOP "$pid"
cp -a "$B2"/. "$SCRATCH/b2/"
kill -CONT "$pid"
"$KEPOCH" logdir scan -o json "$SCRATCH/b2" > "$SCRATCH/scan.json" || true
python3 - "$SCRATCH/scan.json" > "$SCRATCH/outside.txt" <<'PY' || fail "logdir scan's view of u"
import json, sys
d = json.load(open(sys.argv[1]))["log_dirs"][0]
p = [x for x in d["tiered"]["partitions"] if x["topic"] == "u"][0]
for s in p["segments"]:
    if s["state"] == "COPY_SEGMENT_FINISHED":
        print(s["segment_id"], s["start_offset"], s["end_offset"], s["within_lineage"], file=sys.stderr)
        if s["within_lineage"] is False: print(s["segment_id"])
PY
echo "kepoch: outside broker 2's lineage: $(tr '\n' ' ' < "$SCRATCH/outside.txt")"
[[ -s $SCRATCH/outside.txt ]] || fail "kepoch finds no segment of the losing branch outside the lineage"

# The retention pass: every finished segment the leader may delete goes.
"$KC" set-topic-config u retention.ms=1 >/dev/null
remote_ids() {
  find "$KEPOCH_REMOTE_STORAGE/kafka-tiered-storage" -name '*.log' -printf '%f\n' |
    sed -E 's/^[0-9]+-(.*)\.log$/\1/' | sort
}
last="" stable=0
for ((i = 0; i < 90; i++)); do
  now=$(remote_ids | tr '\n' ' ')
  if [[ $now == "$last" ]]; then stable=$((stable + 1)); else stable=0; last=$now; fi
  (( stable >= 8 )) && break
  sleep 1
done
echo "Kafka kept in remote storage after retention: $last"
# Kafka's retention (time, here) deleted every finished segment kepoch put within the lineage,
# and none that kepoch put outside it: those it keeps (they leak), or deletes only by the
# other path, when the log start passes every epoch of theirs ("due to leader-epoch-cache
# truncation"; a segment sharing its epoch and start offset with another is not even found
# by that path: the metadata cache keeps one segment per epoch and start offset).
python3 - "$SCRATCH/scan.json" "$SCRATCH/outside.txt" "$last" "$KEPOCH_CLUSTER_DIR" <<'PY' ||
import glob, json, sys
scan, outside_file, kept, cluster = sys.argv[1:5]
outside = set(open(outside_file).read().split())
kept = set(kept.split())
d = json.load(open(scan))["log_dirs"][0]
p = [x for x in d["tiered"]["partitions"] if x["topic"] == "u"][0]
within = {s["segment_id"] for s in p["segments"] if s["state"] == "COPY_SEGMENT_FINISHED" and s["within_lineage"]}
assert not (within & kept), f"Kafka kept {within & kept}, which kepoch put within the lineage"
assert kept <= outside, f"Kafka kept {kept - outside}, which kepoch did not name"
logs = "".join(open(f, errors="replace").read() for f in glob.glob(cluster + "/broker-*/server.log"))
for sid in outside - kept:
    line = [l for l in logs.splitlines() if f"id={sid}}}" in l and "Deleted remote log segment" in l]
    assert line and "due to leader-epoch-cache truncation" in line[0], f"{sid}: deleted otherwise: {line}"
    print(f"{sid}: outside the lineage, deleted only by the epoch-cache truncation path")
for sid in kept:
    print(f"{sid}: outside the lineage, kept by Kafka's retention (leaked)")
print(f"{len(within)} segments within the lineage: all deleted by retention")
PY
  fail "Kafka's retention pass disagrees with kepoch's lineage view"
echo "tiered-unclean-vs-kafka: Kafka ${KEPOCH_KAFKA_VERSION:-(default)}: pass"
