#!/usr/bin/env bash
# logdir scan reads remote-log-index-cache for what it is (RemoteIndexCache): on the log dir
# Kafka 4.4.0 filled (tests/data/tiered/index-cache: a consumer read tiered-0 from offset 0
# through the remote tier, then remote retention deleted the oldest segment), each cached
# entry's segment id and start offset from its names, what RemoteIndexCache.init does with it
# at start-up, and its segment's state in the log dir's __remote_log_metadata. Then copies
# with damage (a name init cannot read, a corrupt index: the broker does not start), an empty
# cache dir, and a log dir without the metadata (its state unknown, said as unknown).
. "$(dirname "$0")/common.sh"
FIX="$DATA/tiered/index-cache"
B1="$FIX/broker-1"

expect_exit 0 "$KEPOCH" logdir scan -o json "$B1"
cp "$SCRATCH/out" "$SCRATCH/scan.json"
python3 - "$SCRATCH/scan.json" "$FIX/remote-storage-files.txt" <<'PY' || fail "the remote index cache report is wrong"
import json, re, sys
d = json.load(open(sys.argv[1]))["log_dirs"][0]
c = d["remote_index_cache"]
assert c["dir"].endswith("broker-1/remote-log-index-cache"), c["dir"]
assert c["files"] == 9 and c["metadata_read"] is True and c["unreadable"] is None, c
snake = re.compile(r"^[a-z][a-z0-9_]*$")
def keys(v):
    if isinstance(v, dict):
        for k, x in v.items():
            assert snake.match(k), f"field {k!r} is not snake_case"
            keys(x)
    elif isinstance(v, list):
        for x in v:
            keys(x)
keys(c)
entries = c["entries"]
assert [e["start_offset"] for e in entries] == [0, 1024, 2048], entries
for e in entries:
    assert e["state"] == "cached" and e["at_startup"] == "loaded", e
    assert e["topic"] == "tiered" and e["partition"] == 0, e
    assert e["metadata_start_offset"] == e["start_offset"], e
    assert sorted(e["files"]) == sorted(f"{e['start_offset']}_{e['segment_id']}{s}" for s in (".index", ".timeindex", ".txnindex")), e
# The metadata's states agree with the remote tier Kafka left: the live entries' segments are
# in LocalTieredStorage's directory, the deleted one's is not.
stored = open(sys.argv[2]).read()
for e in entries:
    there = f"-{e['segment_id']}.log" in stored
    assert there == (e["metadata"] == "live"), (e["segment_id"], e["metadata"], there)
assert [e["metadata"] for e in entries] == ["deleted", "live", "live"], entries
assert entries[0]["segment_state"] == "DELETE_SEGMENT_FINISHED", entries[0]
kinds = [(f["severity"], f["kind"], f["file"]) for f in c["findings"]]
assert kinds == [("info", "stale_entry", f"0_{entries[0]['segment_id']}")], kinds
assert d["has_errors"] is False and d["problems"] == [], d["problems"]
# The tiered view says the same of the oldest segment.
segs = {s["segment_id"]: s["state"] for p in d["tiered"]["partitions"] for s in p["segments"]}
assert segs[entries[0]["segment_id"]] == "DELETE_SEGMENT_FINISHED", segs
print("remote index cache: 3 entries, the deleted segment's stale")
PY

# The table: the cache section, with its stale entry; the verdict stays "No error found".
expect_exit 0 "$KEPOCH" logdir scan "$B1"
expect_in "$SCRATCH/out" "No error found."
expect_in "$SCRATCH/out" "remote_index_cache:"
expect_in "$SCRATCH/out" "stale_entry"
expect_in "$SCRATCH/out" "AT_STARTUP"
# YAML carries the same members as JSON.
expect_exit 0 "$KEPOCH" logdir scan -o yaml "$B1"
expect_in "$SCRATCH/out" "at_startup: loaded"
expect_in "$SCRATCH/out" "metadata: deleted"

# --- Damage (deliberately corrupted copies): a name RemoteIndexCache.init cannot read
# (Uuid.fromString throws) and an offset index of 7 bytes (OffsetIndex.sanityCheck throws
# CorruptIndexException) stop the broker: errors naming the file, exit 1. A .deleted file is
# an entry being deleted; a file Kafka never reads is only noted.
bad="$SCRATCH/bad/broker-1"
mkdir -p "$SCRATCH/bad"
cp -a "$B1" "$bad"
chmod -R u+w "$bad"
cache="$bad/remote-log-index-cache"
id2048=$(cd "$cache" && ls 2048_*.index | sed 's/^2048_//; s/\.index$//')
printf 'xxxxxxx' > "$cache/2048_$id2048.index"
: > "$cache/lost.txt"
: > "$cache/4096_AAAAAAAAAAAAAAAAAAAAAQ.index.deleted"
: > "$cache/0_AAAAAAAAAAAAAAAAAAAAAg.log"
expect_exit 1 "$KEPOCH" logdir scan -o json "$bad"
cp "$SCRATCH/out" "$SCRATCH/bad.json"
python3 - "$SCRATCH/bad.json" "$id2048" <<'PY' || fail "the damaged cache is not reported as Kafka reads it"
import json, sys
d = json.load(open(sys.argv[1]))["log_dirs"][0]
id2048 = sys.argv[2]
probs = {p["file"].rsplit("/", 1)[1]: p for p in d["problems"]}
assert set(probs) == {"lost.txt", f"2048_{id2048}"}, probs
for p in probs.values():
    assert p["severity"] == "error" and p["kafka_outcome"] == "startup-fatal", p
assert "Uuid" in probs["lost.txt"]["message"] or "UUID" in probs["lost.txt"]["message"], probs["lost.txt"]
assert "CorruptIndexException" in probs[f"2048_{id2048}"]["message"], probs
c = d["remote_index_cache"]
by = {e["start_offset"]: e for e in c["entries"]}
assert by[2048]["at_startup"] == "broker_fails", by[2048]
assert by[4096]["state"] == "marked_for_deletion" and by[4096]["at_startup"] == "deleted", by[4096]
assert by[4096]["metadata"] == "unknown", by[4096]
assert by[0]["state"] == "cached", by[0]  # the .log beside it is not Kafka's: noted only
kinds = {f["kind"] for f in c["findings"]}
assert {"unparsable_name", "corrupt_index", "other_file", "marked_for_deletion"} <= kinds, kinds
PY
expect_exit 1 "$KEPOCH" logdir scan "$bad"
expect_in "$SCRATCH/out" "Errors found."
expect_in "$SCRATCH/err" "lost.txt: error: not a name RemoteIndexCache can read"

# --- An empty cache dir: nothing cached, no finding. A log dir without __remote_log_metadata:
# the entries' states are not read (unknown), not called live or deleted.
empty="$SCRATCH/empty/broker-1"
mkdir -p "$SCRATCH/empty"
cp -a "$B1" "$empty"
chmod -R u+w "$empty"
rm -f "$empty"/remote-log-index-cache/*
expect_exit 0 "$KEPOCH" logdir scan -o json "$empty"
[[ $(json "$SCRATCH/out" "len(d['log_dirs'][0]['remote_index_cache']['entries']), d['log_dirs'][0]['remote_index_cache']['files']") == "0 0" ]] ||
  fail "an empty cache dir is not reported empty"
nometa="$SCRATCH/nometa/broker-1"
mkdir -p "$SCRATCH/nometa"
cp -a "$B1" "$nometa"
chmod -R u+w "$nometa"
rm -rf "$nometa"/__remote_log_metadata-*
expect_exit 0 "$KEPOCH" logdir scan -o json "$nometa"
[[ $(json "$SCRATCH/out" "sorted({e['metadata'] for e in d['log_dirs'][0]['remote_index_cache']['entries']}), d['log_dirs'][0]['remote_index_cache']['metadata_read']") == "['not_read'] False" ]] ||
  fail "without __remote_log_metadata the entries' states are not unknown"
# A log dir without a cache dir: the member is null.
expect_exit 0 "$KEPOCH" logdir scan -o json "$DATA/divergence/before/broker-1"
[[ $(json "$SCRATCH/out" "d['log_dirs'][0]['remote_index_cache']") == None ]] || fail "remote_index_cache not null"
echo "logdir scan: remote-log-index-cache read for what it is"
