#!/usr/bin/env bash
# Kafka as the oracle for what `cluster predict` and offline `predict` say about a truncation
# after an unclean election, over dozens of partitions (issue 22, item 1): the returning old
# leader had more records than the replica elected uncleanly, every one acknowledged to an
# acks=all producer, so its removed range reaches (and passes) the new leader's high
# watermark and log end. Kafka is the judge of every partition: where broker 1 truncated
# ("Truncating to offset N"), and which of its records it no longer holds once caught up
# (its batches before the restart that are not, by offsets and CRC, in its log after).
#   - cluster predict: each partition's truncation is Kafka's, its lost records are the
#     records Kafka removed for good (their sum too), all of them committed (acknowledged
#     and below broker 1's checkpointed high watermark), none unknown (the leader is quiet:
#     its high watermark is its log end), every such partition is at_risk, exit 1;
#   - offline predict on copies of both log dirs gives the same counts and exit status.
. "$(dirname "$0")/common.sh"
cluster_up
B="$KEPOCH_BOOTSTRAP"
SNAP="$SCRATCH/snap"
mkdir -p "$SNAP"
T=many
N=30

# wait_all WHAT [TRIES]: polls kafka-topics --describe until every partition of $T satisfies
# WHAT (a Python expression over leader and isr, a set of ids), TRIES polls (45) at most.
wait_all() {
  local i tries=${2:-45}
  for ((i = 0; i < tries; i++)); do
    if "$KC" describe "$T" 2>/dev/null | python3 -c '
import re, sys
n, what = int(sys.argv[1]), sys.argv[2]
rows = {}
for line in sys.stdin:
    m = re.search(r"Partition: (\d+)\s+Leader: (-?\d+|none)\s+Replicas: [\d,]+\s+Isr: ([\d,]*)", line)
    if m:
        leader = -1 if m.group(2) == "none" else int(m.group(2))
        rows[int(m.group(1))] = (leader, {int(x) for x in m.group(3).split(",") if x})
ok = len(rows) == n and all(eval(what, {"leader": l, "isr": s}) for l, s in rows.values())
sys.exit(0 if ok else 1)
' "$N" "$1"; then
      return 0
    fi
    sleep 1
  done
  [[ -n "${2:-}" ]] && return 1
  "$KC" describe "$T" || true
  fail "partitions of $T never satisfied: $1"
}

# copy_logdir BROKER DEST: the partition dirs of $T and the root checkpoints of a broker's log
# dir, copied while it is SIGSTOPped (when it runs) so that the copy is of one moment.
copy_logdir() {
  local src pid f
  src="$("$KC" logdir "$1")"
  mkdir -p "$2"
  pid="$("$KC" pid "$1" 2>/dev/null || true)"
  [[ -n "$pid" ]] && kill -STOP "$pid"
  cp -a "$src/$T"-* "$2/"
  for f in "${ROOT_FILES[@]}"; do [[ -f "$src/$f" ]] && cp -a "$src/$f" "$2/"; done
  [[ -n "$pid" ]] && kill -CONT "$pid"
  return 0
}

assignment=$(printf '1:2:3,%.0s' $(seq 1 "$N"))
"$KC" create-topic "$T" --assignment "${assignment%,}" >/dev/null
"$KC" produce "$T" 90 --acks all --prefix a >/dev/null
wait_all 'leader == 1 and isr == {1, 2, 3}'

# Brokers 2 and 3 stall; broker 1 alone in the ISR acknowledges acks=all records (min ISR 1).
"$KC" stop 2
"$KC" stop 3
wait_all 'isr == {1}'
"$KC" produce "$T" 300 --acks all --prefix u >/dev/null
# Broker 1's high watermarks reach its replication-offset-checkpoint (written every
# replica.high.watermark.checkpoint.interval.ms, 5 s): polled, not slept for. Broker 1 alone
# in the ISR acknowledged all 390 records (acks=all), so its high watermarks of $T's
# partitions, each from offset 0, add up to 390.
hw_file="$("$KC" logdir 1)/replication-offset-checkpoint"
hw_sum() { awk -v t="$T" 'NF == 3 && $1 == t { s += $3 } END { print s + 0 }' "$hw_file" 2>/dev/null; }
for _ in $(seq 1 120); do [[ $(hw_sum) == 390 ]] && break; sleep 0.25; done
[[ $(hw_sum) == 390 ]] || fail "broker 1 never checkpointed high watermarks adding up to 390 (now $(hw_sum))"
"$KC" kill 1 >/dev/null

# Broker 2 returns and is elected uncleanly in every partition, then writes other records
# at some of the offsets broker 1 holds.
"$KC" cont 2 >/dev/null
"$KC" wait-brokers 2 60 >/dev/null
python3 -c 'import json, sys; print(json.dumps({"partitions": [{"topic": sys.argv[1], "partition": p} for p in range(int(sys.argv[2]))]}))' \
  "$T" "$N" > "$SNAP/elect.json"
for attempt in 1 2 3 4; do
  # Partitions the controller has not yet made leaderless answer ELECTION_NOT_NEEDED: again.
  "$KC" tool org.apache.kafka.tools.LeaderElectionCommand --bootstrap-server "$("$KC" live-bootstrap)" \
    --election-type unclean --path-to-json-file "$SNAP/elect.json" >/dev/null 2>&1 || true
  wait_all 'leader == 2' 10 && break
  [[ $attempt -lt 4 ]] || wait_all 'leader == 2'
done
"$KC" cont 3 >/dev/null
"$KC" produce "$T" 100 --acks 1 --prefix c >/dev/null
wait_all 'leader == 2 and isr == {2, 3}'
sleep 3  # broker 3's next fetch carries the last records: the leaders' HW reaches their end

# kepoch, while broker 1 is down; then copies of both log dirs for offline predict.
rc=0
"$KEPOCH" cluster predict -b "$B" --log-dir "$("$KC" logdir 1)" -o json \
  > "$SNAP/cluster.json" 2> "$SNAP/cluster.err" || rc=$?
[[ $rc -le 1 ]] || fail "cluster predict exited $rc: $(cat "$SNAP/cluster.err")"
copy_logdir 1 "$SNAP/before"
copy_logdir 2 "$SNAP/leader"
orc=0
"$KEPOCH" predict -o json --leader "$SNAP/leader" "$SNAP/before" > "$SNAP/offline.json" \
  2> "$SNAP/offline.err" || orc=$?
[[ $orc -le 1 ]] || fail "predict exited $orc: $(cat "$SNAP/offline.err")"

"$KC" start 1 >/dev/null
wait_all 'isr == {1, 2, 3}'
copy_logdir 1 "$SNAP/after"
# Kafka's own DumpLogSegments of every partition's segments, one run per side.
for side in before after; do
  "$KC" dump-log --files "$(ls "$SNAP/$side/$T"-*/*.log | paste -sd,)" > "$SNAP/kafka-$side.txt"
done
for p in $(seq 0 $((N - 1))); do
  "$KC" truncation-lines 1 "$T-$p" | { grep -oE 'Truncating to offset [0-9]+' || true; } |
    awk '{print $4}' | head -n1 > "$SNAP/kafka-cut-$p"
done

python3 - "$SNAP" "$T" "$N" "$rc" "$orc" <<'PY' || fail "kepoch's account of the truncation differs from Kafka's"
import json, re, sys
snap, topic, n, rc, orc = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
live = json.load(open(f"{snap}/cluster.json"))
rows = {r["partition"]: r for r in live["partitions"] if r["topic"] == topic}
offline = {s["partition"]: s["replicas"][0] for s in json.load(open(f"{snap}/offline.json"))["partitions"]
           if s["topic"] == topic}
assert sorted(rows) == list(range(n)), sorted(rows)
assert sorted(offline) == list(range(n)), sorted(offline)

# Kafka's DumpLogSegments: "Dumping <dir>/<topic>-<p>/<segment>.log", then per batch
# "baseOffset: B lastOffset: L count: N ... crc: C isvalid: ...".
def dumped(side):
    out, current = {}, None
    for line in open(f"{snap}/kafka-{side}.txt"):
        m = re.match(r"Dumping .*/" + re.escape(topic) + r"-(\d+)/\d+\.log", line)
        if m:
            current = out.setdefault(int(m.group(1)), [])
            continue
        m = re.search(r"baseOffset: (\d+) lastOffset: (\d+) count: (\d+) .*? crc: (\d+)", line)
        if m:
            current.append((int(m.group(1)), int(m.group(2)), int(m.group(4)), int(m.group(3))))
    return out
dumps = {side: dumped(side) for side in ("before", "after")}
def batches(name):
    side, p = name.split("-")
    return dumps[side].get(int(p), [])

errors, kafka_lost_sum, lossy = [], 0, set()
for p in range(n):
    row, off = rows[p], offline[p]
    before, after = batches(f"before-{p}"), batches(f"after-{p}")
    kept = {(b[0], b[1], b[2]) for b in after}
    kafka_lost = sum(b[3] for b in before if (b[0], b[1], b[2]) not in kept)
    kafka_lost_sum += kafka_lost
    if kafka_lost:
        lossy.add(f"{topic}-{p}")
    cut = open(f"{snap}/kafka-cut-{p}").read().strip()
    leo = before[-1][1] + 1 if before else 0
    if row["outcome"] != "follows":
        errors.append(f"{p}: outcome {row['outcome']}")
        continue
    if cut and int(cut) < leo and row["truncate_to"] != int(cut):
        errors.append(f"{p}: Kafka truncated to {cut}, kepoch said {row['truncate_to']}")
    if not cut and row["truncate_to"] < leo:
        errors.append(f"{p}: Kafka did not truncate, kepoch said {row['truncate_to']}")
    # Every record broker 1 held was acknowledged (acks=all), below its high watermark.
    # What Kafka removed: broker 1's records from the offset it truncated to.
    if cut and int(cut) < leo:
        removed = sum(b[3] for b in before if b[0] >= int(cut))
        if any(b[0] < int(cut) <= b[1] for b in before):
            errors.append(f"{p}: Kafka truncated inside a batch at {cut}: not the scenario")
        if row["removed_records"] != removed:
            errors.append(f"{p}: kepoch removed {row['removed_records']}, Kafka {removed}")
    want = (kafka_lost, kafka_lost, 0, kafka_lost > 0)
    got = (row["lost_records"], row["committed_lost_records"], row["lost_unknown_records"],
           row["committed_loss"])
    if got != want:
        errors.append(f"{p}: kepoch (lost, committed, unknown, committed_loss) {got}, Kafka {want}")
    for k in ("truncate_to", "removed_records", "lost_records", "committed_lost_records",
              "lost_unknown_records", "committed_loss"):
        if off[k] != row[k]:
            errors.append(f"{p}: offline predict {k} {off[k]}, cluster predict {row[k]}")
s = live["summary"]
print(f"Kafka removed {kafka_lost_sum} records for good in {len(lossy)} partitions; kepoch: "
      f"lost {s['lost_records']}, committed {s['committed_lost_records']}, unknown "
      f"{s['lost_unknown_records']}, at risk {len(s['at_risk'])}; exit {rc} (offline {orc})")
if s["lost_records"] != kafka_lost_sum or s["committed_lost_records"] != kafka_lost_sum:
    errors.append(f"summary lost {s['lost_records']} / committed {s['committed_lost_records']}, Kafka {kafka_lost_sum}")
if set(s["at_risk"]) != lossy:
    errors.append(f"at_risk {sorted(s['at_risk'])}, Kafka lost records in {sorted(lossy)}")
if kafka_lost_sum == 0 or len(lossy) < n // 2:
    errors.append(f"the scenario lost too little to prove anything: {kafka_lost_sum} in {len(lossy)}")
if (rc, orc) != (1, 1):
    errors.append(f"exit status: cluster predict {rc}, predict {orc}; committed records were lost")
for e in errors:
    print("MISMATCH", e)
sys.exit(1 if errors else 0)
PY
echo "cluster predict and predict agree with Kafka on every partition"
