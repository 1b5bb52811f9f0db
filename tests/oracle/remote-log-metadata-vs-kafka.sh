#!/usr/bin/env bash
# Tiered storage (KIP-405): kepoch's decode of __remote_log_metadata against Kafka's own
# (kafka-dump-log --remote-log-metadata-decoder: RemoteLogMetadataSerde), on one cluster with
# Kafka's LocalTieredStorage as the remote tier (KEPOCH_TIERED=1). Run on the default release
# and on 3.9.1 (tests/CMakeLists.txt): 4.x writes the tagged TxnIndexEmpty, 3.9 does not.
#
#   tiered  1 partition on brokers 1,2,3, 1 MiB segments, local.retention.bytes=1: every
#           rolled segment is copied (RemoteLogManager's RLMCopyTask: COPY_SEGMENT_STARTED,
#           then the update COPY_SEGMENT_FINISHED); then retention.bytes makes the leader's
#           expiration task delete the oldest (updates DELETE_SEGMENT_STARTED/FINISHED).
#   gone    the same, copied, then the topic deleted: RemoteLogManager.stopPartitions deletes
#           its remote segments (DELETE_SEGMENT_STARTED/FINISHED; 3.9-4.4 write no
#           RemotePartitionDeleteMetadata record for it, their RemoteLogManager has no caller
#           of putRemotePartitionDeleteMetadata: a partition delete record, should one be
#           written, is compared like the others).
#
# Checks, on broker 1's copy of every __remote_log_metadata partition (its segments read
# while it runs, read-only): every record Kafka decodes equals kepoch's field by field
# (remote_log_metadata_compare.py), every record state above is there, and the
# LocalTieredStorage directory holds exactly the segments whose last state is
# COPY_SEGMENT_FINISHED. logdir scan's tiered view of broker 1 equals Kafka's earliest,
# earliest-local and latest-tiered offsets. Then a damaged copy: problems with the byte offset.
. "$(dirname "$0")/common.sh"
export KEPOCH_TIERED=1
cluster_up
[[ -n ${KEPOCH_REMOTE_STORAGE:-} && -d $KEPOCH_REMOTE_STORAGE ]] || fail "the tiered cluster exports no KEPOCH_REMOTE_STORAGE"
B1="$("$KC" logdir 1)"

produce() {  # produce TOPIC N: N records of 1000 bytes (about a 1 MiB segment per 1000)
  "$KC" tool org.apache.kafka.tools.ProducerPerformance --topic "$1" --num-records "$2" \
    --record-size 1000 --throughput -1 \
    --producer-props bootstrap.servers="$KEPOCH_BOOTSTRAP" acks=all linger.ms=20 >/dev/null ||
    fail "producing to $1 failed"
}

# decode: kepoch's JSON of broker 1's __remote_log_metadata segments, in $SCRATCH/kepoch.json
decode() {
  local files
  files=("$B1"/__remote_log_metadata-*/*.log)
  "$KEPOCH" segment dump -o json "${files[@]}" > "$SCRATCH/kepoch.json" 2> "$SCRATCH/kepoch.err" ||
    { cat "$SCRATCH/kepoch.err"; fail "kepoch segment dump failed on __remote_log_metadata"; }
}

# count TYPE STATE [TOPIC]: records of that type and state in the last decode
count() {
  python3 - "$SCRATCH/kepoch.json" "$@" <<'PY'
import json, sys
path, typ, state = sys.argv[1:4]
topic = sys.argv[4] if len(sys.argv) > 4 else None
n = 0
for item in json.load(open(path)):
    for b in item["batches"]:
        for r in b.get("records", []):
            m = r.get("remote_log_metadata") or {}
            if m.get("type") == typ and m.get("state") == state and (topic is None or m.get("topic") == topic):
                n += 1
print(n)
PY
}

# wait_for MIN TYPE STATE [TOPIC]: until broker 1's metadata holds MIN such records (90 s)
wait_for() {
  local min=$1 i n=0
  shift
  for ((i = 0; i < 180; i++)); do
    decode
    n=$(count "$@")
    (( n >= min )) && { echo "broker 1: $n $*"; return 0; }
    sleep 0.5
  done
  fail "after 90 s broker 1's __remote_log_metadata has $n $* (wanted $min)"
}

TIERED_CFG=(--config remote.storage.enable=true --config segment.bytes=1048576
            --config local.retention.bytes=1)
"$KC" create-topic tiered --assignment 1:2:3 "${TIERED_CFG[@]}" >/dev/null
"$KC" create-topic gone --assignment 2:3:1 "${TIERED_CFG[@]}" >/dev/null
produce tiered 5000
produce gone 2500
# 5000 records of ~1 KB: 4 rolled segments (the 5th is active and never copied); 2500: 2.
wait_for 4 REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD COPY_SEGMENT_FINISHED tiered
wait_for 2 REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD COPY_SEGMENT_FINISHED gone
# Remote retention by size (RLMExpirationTask): the oldest copied segments go, two stay.
"$KC" set-topic-config tiered retention.bytes=3000000 >/dev/null
"$KC" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$KEPOCH_BOOTSTRAP" \
  --delete --topic gone >/dev/null || fail "deleting topic gone failed"
wait_for 1 REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD DELETE_SEGMENT_FINISHED tiered
wait_for 2 REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD DELETE_SEGMENT_FINISHED gone
# The deletions under way settle: no segment left between DELETE_SEGMENT_STARTED and
# DELETE_SEGMENT_FINISHED (the storage check needs a quiet moment).
for ((i = 0; i < 60; i++)); do
  decode
  (( $(count REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD DELETE_SEGMENT_STARTED) ==
     $(count REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD DELETE_SEGMENT_FINISHED) )) && break
  sleep 0.5
done

# Compare on a copy taken while broker 1 is stopped: Kafka's tool and kepoch read the same
# bytes, and the storage dir is of the same moment.
# offsets T TIME: GetOffsetShell's answer for partition 0 (-2 earliest, -4 earliest local,
# -5 latest tiered: KIP-1005).
offsets() {
  "$KC" tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$KEPOCH_BOOTSTRAP" \
    --topic "$1" --partitions 0 --time "$2" | awk -F: '{print $3}'
}
kafka_offsets() { echo "$(offsets tiered -2) $(offsets tiered -4) $(offsets tiered -5)"; }
# Local retention done: every copied segment deleted locally (local.retention.bytes=1), so the
# earliest local offset is the one after the latest tiered (60 s at most).
for ((i = 0; i < 60; i++)); do
  read -r _ local tiered_end <<<"$(kafka_offsets)"
  (( local == tiered_end + 1 )) && break
  sleep 1
done
before=$(kafka_offsets)
SNAP="$SCRATCH/snap"
mkdir -p "$SNAP/b1"
pids=()
for n in 1 2 3; do pids+=("$("$KC" pid $n)"); done
kill -STOP "${pids[@]}"
cp -a "$B1"/. "$SNAP/b1/"
cp -a "$B1"/__remote_log_metadata-* "$SNAP/"
cp -a "$KEPOCH_REMOTE_STORAGE" "$SNAP/remote"
kill -CONT "${pids[@]}"
after=$(kafka_offsets)
[[ $before == "$after" ]] || fail "the offsets moved while the copy was taken: $before, then $after"
files=("$SNAP"/__remote_log_metadata-*/*.log)
"$KEPOCH" segment dump -o json "${files[@]}" > "$SCRATCH/kepoch.json" ||
  fail "kepoch segment dump failed (exit $?)"
"$KC" dump-log --remote-log-metadata-decoder --files "$(IFS=,; echo "${files[*]}")" \
  > "$SCRATCH/kafka.txt" || fail "kafka-dump-log failed"
python3 "$KEPOCH_SOURCE_DIR/tests/oracle/remote_log_metadata_compare.py" \
  "$SCRATCH/kepoch.json" "$SCRATCH/kafka.txt" "$SNAP/remote" ||
  fail "kepoch and kafka-dump-log (or the remote storage) disagree"
# Every kind of record the scenario makes Kafka write was compared.
for want in "REMOTE_LOG_SEGMENT_METADATA_RECORD COPY_SEGMENT_STARTED" \
  "REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD COPY_SEGMENT_FINISHED" \
  "REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD DELETE_SEGMENT_STARTED" \
  "REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD DELETE_SEGMENT_FINISHED"; do
  # shellcheck disable=SC2086
  (( $(count $want) > 0 )) || fail "no $want record to compare"
done

# logdir scan's tiered view of broker 1 (the leader of tiered-0) against Kafka's answers:
# the earliest offset (-2) is the first finished remote segment's start, the earliest local
# offset (-4) the local replica's start, the latest tiered offset (-5) the remote end; every
# finished segment within the leader's epoch lineage, no overlap or gap; the deleted topic's
# segments all deleted, no local replica.
"$KEPOCH" logdir scan -o json "$SNAP/b1" > "$SCRATCH/scan.json" || fail "logdir scan failed (exit $?)"
python3 - "$SCRATCH/scan.json" $after <<'PY' || fail "logdir scan's tiered view differs from Kafka"
import json, sys
d = json.load(open(sys.argv[1]))["log_dirs"][0]
earliest, earliest_local, latest_tiered = map(int, sys.argv[2:5])
t = {p["topic"]: p for p in d["tiered"]["partitions"]}
p = t["tiered"]
ours = (p["remote_start"], p["local_start"], p["remote_end"])
assert ours == (earliest, earliest_local, latest_tiered), f"kepoch {ours}, Kafka -2/-4/-5 {(earliest, earliest_local, latest_tiered)}"
assert p["local_replica"] and p["local_end"] >= p["local_start"], p
finished = [s for s in p["segments"] if s["state"] == "COPY_SEGMENT_FINISHED"]
assert finished and all(s["within_lineage"] is True for s in finished), finished
assert not [f for f in p["findings"] if f["severity"] == "warning"], p["findings"]
g = t["gone"]
assert g["segments"] and all(s["state"] == "DELETE_SEGMENT_FINISHED" for s in g["segments"]), g
assert not g["local_replica"] and g["remote_end"] is None, g
assert d["has_errors"] is False, d["problems"]
print(f"logdir scan: tiered-0 remote {p['remote_start']}-{p['remote_end']}, local from {p['local_start']}: as Kafka answers -2/-4/-5")
PY

# The other output formats say the same: YAML's document equals JSON's.
"$KEPOCH" segment dump -o yaml "${files[@]}" > "$SCRATCH/kepoch.yaml" || fail "-o yaml failed"
python3 - "$SCRATCH/kepoch.json" "$SCRATCH/kepoch.yaml" <<'PY' || fail "YAML and JSON differ"
import json, sys
try:
    import yaml
except ImportError:
    sys.exit(0)
j = json.load(open(sys.argv[1]))
y = yaml.safe_load(open(sys.argv[2]))
def strip(v):  # JSON's *_iso twins are table/YAML's timestamps
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if not k.endswith("_iso")}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
def remote(doc):
    return [r.get("remote_log_metadata") for f in doc for b in f["batches"] for r in b.get("records", [])]
assert remote(strip(j)) == remote(strip(y)), "remote_log_metadata differs between -o json and -o yaml"
PY
"$KEPOCH" segment dump "${files[@]}" > "$SCRATCH/kepoch.txt" || fail "table output failed"
expect_in "$SCRATCH/kepoch.txt" "remote_log_metadata"

# A damaged copy: the first record's api key made 9: its batch's CRC fails (Kafka's
# ensureValid) and the record is "Unknown metadata id 9" at the api key's byte offset, exit 1,
# and the rest still decoded.
bad="$SCRATCH/bad/__remote_log_metadata-0"
src=$(for f in "${files[@]}"; do [[ $(stat -c %s "$f") -gt 0 ]] && echo "$f" && break; done)
mkdir -p "$bad"
cp "$src" "$bad/00000000000000000000.log"
at=$(python3 - "$bad/00000000000000000000.log" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
# find the first record's value: after the header (61), record length varint, attributes (1),
# timestamp delta, offset delta (1 each for the first record), key length -1 (1), value length
i = 61
while b[i] & 0x80: i += 1
i += 1 + 1 + 1 + 1 + 1  # end of length, attributes, timestamp delta 0, offset delta 0, key -1
while b[i] & 0x80: i += 1
i += 1  # past the value length: the frame version
assert b[i] == 1, b[i]
b[i + 1] = 9  # api key 9: no such record
open(p, "wb").write(bytes(b))
print(i + 1)
PY
)
expect_exit 1 "$KEPOCH" segment dump -o json "$bad/00000000000000000000.log"
python3 - "$SCRATCH/out" "$at" <<'PY' || fail "the damaged record is not reported with its offset"
import json, sys
d = json.load(open(sys.argv[1]))[0]
at = int(sys.argv[2])
probs = d["problems"]
assert len(probs) == 2, probs
assert probs[0]["position"] == 0 and "Record is corrupt" in probs[0]["message"], probs
assert probs[1]["position"] == at and probs[1]["message"] == "record at offset 0: Unknown metadata id 9", probs
decoded = [r["remote_log_metadata"] for b in d["batches"] for r in b["records"]]
assert "error" in decoded[0] and all("error" not in m for m in decoded[1:]), decoded[:2]
print("damaged copy:", probs[0])
PY
echo "remote-log-metadata-vs-kafka: Kafka ${KEPOCH_KAFKA_VERSION:-(default)}: pass"
