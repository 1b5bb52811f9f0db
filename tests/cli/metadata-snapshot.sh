#!/usr/bin/env bash
# `metadata history` on a metadata log Kafka itself cleaned (tests/data/metadata-snapshot,
# written by tests/data/gen-metadata-snapshot: the TopicRecords and PartitionRecords of s and
# u are gone from the segments and live on only in snapshots). Kafka is the judge:
#  - the replay starts where a node's kept files begin (KafkaMetadataLog.recoverSnapshots and
#    deleteBeforeSnapshot): the oldest snapshot whose end offset reaches the first segment's
#    base offset, then the log from that end offset;
#  - each partition's steps are that snapshot's PartitionRecord as Kafka's DumpLogSegments
#    decodes it (as_of_snapshot, no offset), then the PartitionChangeRecords it decodes in the
#    log from the snapshot's end offset, merged as PartitionRegistration.merge does; nothing
#    is reported as a change that no record read shows;
#  - the final state is what the live cluster reported (live.txt: leader, ISR, replicas),
#    with the leader epoch of the brokers' last "starts at leader epoch" line;
#  - `metadata dump` of the snapshot decodes what DumpLogSegments decodes.
# A truncated or corrupted snapshot stops the history with one line naming the file and byte
# (exit 3); --snapshot and --no-snapshot choose the start; `partition inspect --metadata`
# holds a replica's epoch cache against the controller's view. KEPOCH_METADATA_SNAPSHOT
# points the test at another copy (the oracle test makes a fresh one from a live cluster).
. "$(dirname "$0")/common.sh"
FIX="${KEPOCH_METADATA_SNAPSHOT:-$DATA/metadata-snapshot}"
META="$FIX/__cluster_metadata-0"
[[ -d $META ]] || fail "no fixture at $FIX"

# A read-only copy (kepoch opens nothing for writing; the copy makes sure of it).
cp -r "$META" "$SCRATCH/ro"
chmod -R a-w "$SCRATCH/ro"
expect_exit 0 "$KEPOCH" metadata history -o json "$SCRATCH/ro"
cp "$SCRATCH/out" "$SCRATCH/history.json"
python3 - "$SCRATCH/history.json" "$META" "$FIX/dump-records.txt" "$FIX/live.txt" \
  "$FIX/state-change.log" "$SCRATCH/kafka-snapshot.txt" <<'PY' || fail "history disagrees with Kafka"
import json, os, re, sys
hist, meta, dump, live, states, snap_out = sys.argv[1:7]
h = json.load(open(hist))
logs = sorted(f for f in os.listdir(meta) if f.endswith(".log"))
snaps = sorted((int(f[:20]), int(f[21:31])) for f in os.listdir(meta) if f.endswith(".checkpoint"))
log_start = int(logs[0][:20])
assert log_start > 0, "the fixture's log was not cleaned"
oldest = [s for s in snaps if s[0] >= log_start][0]
st = h["start"]
assert st["rule"] == "oldest_snapshot_then_log", st
assert (st["snapshot"]["end_offset"], st["snapshot"]["epoch"]) == oldest, (st, oldest)
assert st["log_start_offset"] == log_start and st["replayed_from_offset"] == oldest[0], st
assert h["problems"] == [], h["problems"]

# Kafka's decoding of every file: "Dumping NAME", then "| offset: N CreateTime: T ... payload: J".
sections, cur = {}, None
for line in open(dump):
    if line.startswith("Dumping "):
        cur = line.split()[1]; sections[cur] = []; continue
    m = re.match(r"\| offset: (\d+) CreateTime: (\d+) .* payload: (.*)$", line)
    if m: sections[cur].append((int(m.group(1)), line, json.loads(m.group(3))))
snap_name = "%020d-%010d.checkpoint" % oldest
snap = [r for _, _, r in sections[snap_name]]
open(snap_out, "w").writelines(l for _, l, _ in sections[snap_name])
names = {r["data"]["topicId"]: r["data"]["name"] for r in snap if r["type"] == "TOPIC_RECORD"}
assert set(names.values()) >= {"s", "u"}, names
log = sorted((o, r) for n, recs in sections.items() if n.endswith(".log") for o, _, r in recs)
assert not any(r["type"] in ("TOPIC_RECORD", "PARTITION_RECORD") for _, r in log), \
    "a PartitionRecord is still in the log: it was not cleaned past the topics' creation"

snap_id = "%d-%d" % oldest
want = {}
for r in snap:
    if r["type"] != "PARTITION_RECORD": continue
    d = r["data"]
    want[(names[d["topicId"]], d["partitionId"])] = [dict(
        offset=None, snapshot=snap_id, causes=["as_of_snapshot"], leader=d["leader"],
        leader_epoch=d["leaderEpoch"], partition_epoch=d["partitionEpoch"], isr=d["isr"],
        replicas=d["replicas"])]
changes = 0
for o, r in log:
    if r["type"] != "PARTITION_CHANGE_RECORD" or o < oldest[0]: continue
    d = r["data"]; steps = want[(names[d["topicId"]], d["partitionId"])]
    s = {k: v for k, v in steps[-1].items() if k != "causes"}
    s.update(offset=o, snapshot=None, partition_epoch=s["partition_epoch"] + 1)
    if "isr" in d: s["isr"] = d["isr"]
    if "replicas" in d: s["replicas"] = d["replicas"]
    if "leader" in d: s.update(leader=d["leader"], leader_epoch=s["leader_epoch"] + 1)
    steps.append(s); changes += 1
assert changes > 0, "no partition change after the snapshot: the scenario's step 4 is missing"
got = {(p["topic"], p["partition"]): p["steps"] for p in h["partitions"]}
assert set(got) == set(want), (set(got), set(want))
for key, steps in want.items():
    assert [{k: s[k] for k in w} for s, w in zip(got[key], steps)] == steps and \
        len(got[key]) == len(steps), (key, got[key], steps)

# The live cluster's view, and the leader epochs the brokers said they started.
epochs = {}
for line in open(states):
    m = re.search(r"(?:Leader|Follower) (\S+) .*starts at leader epoch (\d+) .*with partition epoch (\d+)", line)
    if m: epochs[m.group(1)] = (int(m.group(2)), int(m.group(3)))
for line in open(live):
    tp, *kv = line.split()
    f = dict(x.split("=", 1) for x in kv)
    topic, part = tp.rsplit("-", 1)
    last = got[(topic, int(part))][-1]
    ids = lambda s: [int(x) for x in s.split(",") if x]
    assert last["leader"] == int(f["leader"]), (tp, last, f)
    assert sorted(last["isr"]) == ids(f["isr"]), (tp, last, f)
    assert last["replicas"] == ids(f["replicas"]), (tp, last, f)
    epoch, partition_epoch = epochs[tp]
    assert last["leader_epoch"] == epoch, (tp, last, epochs[tp])
    assert last["partition_epoch"] >= partition_epoch, (tp, last, epochs[tp])
# s-0's last change moved its leader (broker 1 killed): the broker logged that partition epoch.
assert got[("s", 0)][-1]["partition_epoch"] == epochs["s-0"][1], (got[("s", 0)][-1], epochs["s-0"])
# Brokers as the snapshot registers them: no offset, never "registered".
restated = [b for b in h["brokers"] if b["snapshot"] == snap_id]
assert sorted(b["broker_id"] for b in restated) == [1, 2, 3], h["brokers"]
assert all(b["event"] == "as_of_snapshot" and b["offset"] is None for b in restated), restated
print("steps after the snapshot:", changes)
PY

# The snapshot history starts from, decoded as DumpLogSegments decodes it.
SNAP="$META/$(json "$SCRATCH/history.json" "d['start']['snapshot']['file'].rsplit('/', 1)[1]")"
expect_exit 0 "$KEPOCH" metadata dump -o json "$SNAP"
python3 "$(dirname "$0")/metadata_compare.py" "$SCRATCH/out" "$SCRATCH/kafka-snapshot.txt" ||
  fail "metadata dump of the snapshot disagrees with DumpLogSegments"
expect_exit 0 "$KEPOCH" metadata dump "$SNAP"
expect_in "$SCRATCH/out" "control:snapshot_header"
expect_in "$SCRATCH/out" "topic=s partition=0 leader="

# Without the snapshot the log's changes have no partition to apply to: orphans, exit 1.
expect_exit 1 "$KEPOCH" metadata history -o json --no-snapshot "$META"
[[ $(json "$SCRATCH/out" "d['start']['rule'], d['partitions']") == "no_snapshot []" ]] || fail "--no-snapshot"
expect_in "$SCRATCH/out" "which no PARTITION_RECORD created"

# From the newest snapshot (a name in the directory): fewer steps, the same final state.
newest=$(cd "$META" && ls -- *.checkpoint | tail -n1)
expect_exit 0 "$KEPOCH" metadata history -o json --snapshot "$newest" "$META"
[[ $(json "$SCRATCH/out" "d['start']['rule'], d['start']['snapshot']['id']") == \
   "given_snapshot $((10#${newest:0:20}))-$((10#${newest:21:10}))" ]] || fail "--snapshot start"
final='[(p["topic"], p["partition"], p["steps"][-1]["leader"], p["steps"][-1]["leader_epoch"], p["steps"][-1]["partition_epoch"], p["steps"][-1]["isr"]) for p in d["partitions"]]'
[[ $(json "$SCRATCH/out" "$final") == "$(json "$SCRATCH/history.json" "$final")" ]] ||
  fail "the newest snapshot and the oldest one end in different states"
cp "$SNAP" "$SCRATCH/renamed.checkpoint"
expect_exit 3 "$KEPOCH" metadata history --snapshot "$SCRATCH/renamed.checkpoint" "$META"
expect_in "$SCRATCH/err" "not a KRaft snapshot name"

# Damaged snapshots (copies): cut short, and one byte changed in its data batch.
cp -r "$META" "$SCRATCH/cut"
chmod -R u+w "$SCRATCH/cut"
name=$(basename "$SNAP")
size=$(stat -c %s "$SNAP")
truncate -s $((size - 9)) "$SCRATCH/cut/$name"
expect_exit 3 "$KEPOCH" metadata history "$SCRATCH/cut"
expect_in "$SCRATCH/err" "$SCRATCH/cut/$name: at byte"
expect_in "$SCRATCH/err" "damaged snapshot"
[[ $(wc -l <"$SCRATCH/err") == 1 ]] || fail "a damaged snapshot is one line"
[[ ! -s $SCRATCH/out ]] || fail "no report from a damaged snapshot"
cp "$SNAP" "$SCRATCH/cut/$name"
python3 - "$SCRATCH/cut/$name" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[len(b) // 2] ^= 0x40  # inside the data batch (the header and footer batches are small)
open(sys.argv[1], "wb").write(bytes(b))
PY
expect_exit 3 "$KEPOCH" metadata history "$SCRATCH/cut"
expect_in "$SCRATCH/err" "Record is corrupt"
# Every snapshot gone: the log was cleaned and nothing holds its start (Kafka refuses it).
rm -f "$SCRATCH/cut/"*.checkpoint
expect_exit 1 "$KEPOCH" metadata history -o json "$SCRATCH/cut"
expect_in "$SCRATCH/out" "Inconsistent snapshot state"

# partition inspect --metadata: broker 3 leads s-0; its cache ends at the controller's epoch.
expect_exit 0 "$KEPOCH" partition inspect -o json "$FIX/broker-3/s-0" "$FIX/broker-1/s-0" --metadata "$FIX"
python3 - "$SCRATCH/out" "$SCRATCH/history.json" <<'PY' || fail "partition inspect --metadata"
import json, sys
d = json.load(open(sys.argv[1])); h = json.load(open(sys.argv[2]))
s0 = [p for p in h["partitions"] if (p["topic"], p["partition"]) == ("s", 0)][0]
for r in d:
    c = r["controller"]
    assert c["topic_id"] == r["topic_id"] == s0["topic_id"], (c, r["topic_id"])
    last = s0["steps"][-1]
    for k in ("leader", "leader_epoch", "partition_epoch", "isr", "replicas"):
        assert c[k] == last[k], (k, c[k], last[k])
    assert c["findings"] == [], c["findings"]
    assert c["issued"][0]["metadata_offset"] is None and c["issued"][0]["snapshot"] == s0["steps"][0]["snapshot"], c["issued"]
leader = d[0]
assert leader["epoch_checkpoint"][-1]["epoch"] == leader["controller"]["last_led_epoch"], leader
PY
mkdir -p "$SCRATCH/b3"
cp -r "$FIX/broker-3/s-0" "$SCRATCH/b3/"
chmod -R u+w "$SCRATCH/b3"
python3 - "$SCRATCH/b3/s-0/leader-epoch-checkpoint" <<'PY'
import sys  # one more entry: an epoch 7 above the last, one offset later
lines = open(sys.argv[1]).read().split("\n")
epoch, offset = map(int, lines[int(lines[1]) + 1].split())
entries = lines[2:2 + int(lines[1])] + ["%d %d" % (epoch + 7, offset + 1)]
open(sys.argv[1], "w").write("\n".join(["0", str(len(entries))] + entries) + "\n")
PY
expect_exit 1 "$KEPOCH" partition inspect -o json "$SCRATCH/b3/s-0" --metadata "$META"
expect_in "$SCRATCH/out" "was never issued by the controller"
expect_exit 3 "$KEPOCH" partition inspect "$FIX/broker-3/s-0" --metadata "$SCRATCH/none"
