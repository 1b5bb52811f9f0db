#!/usr/bin/env python3
"""Compares kepoch's decode of __remote_log_metadata segments with Kafka's own, record by
record and field by field, and the LocalTieredStorage directory with the decoded segments.

    remote_log_metadata_compare.py KEPOCH_JSON KAFKA_DUMP [STORAGE_DIR | STORAGE_LIST]

KEPOCH_JSON: `kepoch segment dump -o json` of the segments (a list of files, each with
batches and their records' `remote_log_metadata`). KAFKA_DUMP: `kafka-dump-log
--remote-log-metadata-decoder --files ...` of the same files, in the same order: per record a
line "| offset: N ... payload: <RemoteLogMetadata.toString()>" (RemoteLogSegmentMetadata,
RemoteLogSegmentMetadataUpdate, RemotePartitionDeleteMetadata; toString of Kafka's
storage-api classes), or "Error at offset N, skipping. <message>".

Every record Kafka printed must be in kepoch's dump at the same file and offset, and every
field Kafka prints must equal kepoch's (an unknown field name fails: a release that prints
more must be looked at). With STORAGE_DIR (LocalTieredStorage's rsm.config.dir): the segment
files under kafka-tiered-storage/<topic>-<partition>-<topicId>/ are exactly the segments
whose last state in the metadata is COPY_SEGMENT_FINISHED (the copy is done and no delete has
started; LocalTieredStorage removes a segment's files in deleteLogSegmentData, between
DELETE_SEGMENT_STARTED and DELETE_SEGMENT_FINISHED), each named by its start offset and
segment id, its .log as long as segment_size_in_bytes. STORAGE_LIST: a file of lines
"kafka-tiered-storage/<dir>/<name>.log SIZE" (what the oracle recorded of a storage dir).
Files are matched by their last two path components (partition dir and name), so a dump
made elsewhere (a committed fixture's) compares.

Prints a line per kind of record compared; exits 1 on the first difference."""
import json
import os
import re
import sys


def fail(msg):
    print(f"MISMATCH: {msg}", file=sys.stderr)
    sys.exit(1)


def split_top(s):
    """'a=1, b={x=1, y=2}, c=X{...}' -> ['a=1', 'b={x=1, y=2}', 'c=X{...}']"""
    out, depth, cur = [], 0, ""
    i = 0
    while i < len(s):
        c = s[i]
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        if depth == 0 and s.startswith(", ", i):
            out.append(cur)
            cur = ""
            i += 2
            continue
        cur += c
        i += 1
    if cur:
        out.append(cur)
    return out


def parse_object(s):
    """'Name{k=v, ...}' -> ('Name', {k: v-text})"""
    m = re.fullmatch(r"(\w+)\{(.*)\}", s.strip(), re.S)
    if not m:
        fail(f"not a Kafka object: {s!r}")
    fields = {}
    for part in split_top(m.group(2)):
        k, _, v = part.partition("=")
        fields[k] = v
    return m.group(1), fields


def topic_id_partition(text):  # TopicIdPartition.toString: "<topicId>:<topic>-<partition>"
    tid, _, tp = text.partition(":")
    topic, _, part = tp.rpartition("-")
    return {"topic_id": tid, "topic": topic, "partition": int(part)}


def custom_metadata(text):  # Optional.empty | Optional[CustomMetadata{N bytes}]
    if text == "Optional.empty":
        return False
    if re.fullmatch(r"Optional\[CustomMetadata\{\d+ bytes\}\]", text):
        return True
    fail(f"customMetadata {text!r}")


def epochs_map(text):  # HashMap.toString: {0=0, 3=1024}
    inner = text.strip()[1:-1]
    out = {}
    for part in split_top(inner):
        if part:
            k, _, v = part.partition("=")
            out[int(k)] = int(v)
    return out


def segment_id(text):
    name, f = parse_object(text)
    assert name == "RemoteLogSegmentId", name
    d = topic_id_partition(f.pop("topicIdPartition"))
    d["segment_id"] = f.pop("id")
    if f:
        fail(f"RemoteLogSegmentId fields kepoch does not compare: {sorted(f)}")
    return d


def kafka_fields(payload):
    """The fields Kafka printed, as kepoch names them, and the kepoch type they belong to."""
    name, f = parse_object(payload)
    d = {}
    if name == "RemoteLogSegmentMetadata":
        typ = "REMOTE_LOG_SEGMENT_METADATA_RECORD"
        d.update(segment_id(f.pop("remoteLogSegmentId")))
        for k, ours in (("startOffset", "start_offset"), ("endOffset", "end_offset"),
                        ("brokerId", "broker_id"), ("maxTimestampMs", "max_timestamp_ms"),
                        ("eventTimestampMs", "event_timestamp_ms"),
                        ("segmentSizeInBytes", "segment_size_in_bytes")):
            d[ours] = int(f.pop(k))
        d["segment_leader_epochs"] = epochs_map(f.pop("segmentLeaderEpochs"))
        d["custom_metadata"] = custom_metadata(f.pop("customMetadata"))
        d["state"] = f.pop("state")
        if "txnIdxEmpty" in f:  # 4.x prints it (the tagged field, default false)
            d["txn_index_empty"] = f.pop("txnIdxEmpty") == "true"
    elif name == "RemoteLogSegmentMetadataUpdate":
        typ = "REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD"
        d.update(segment_id(f.pop("remoteLogSegmentId")))
        d["custom_metadata"] = custom_metadata(f.pop("customMetadata"))
        d["state"] = f.pop("state")
        d["event_timestamp_ms"] = int(f.pop("eventTimestampMs"))
        d["broker_id"] = int(f.pop("brokerId"))
    elif name == "RemotePartitionDeleteMetadata":
        typ = "REMOTE_PARTITION_DELETE_METADATA_RECORD"
        d.update(topic_id_partition(f.pop("topicPartition")))
        d["state"] = f.pop("state")
        d["event_timestamp_ms"] = int(f.pop("eventTimestampMs"))
        d["broker_id"] = int(f.pop("brokerId"))
    else:
        fail(f"a record kind kepoch's comparer does not know: {name}")
    if f:
        fail(f"{name} fields the comparer does not know (a newer Kafka?): {sorted(f)}")
    return typ, d


def kepoch_value(ours, key):
    v = ours[key]
    if key == "segment_leader_epochs":
        # The transform's HashMap: a repeated epoch keeps its last offset.
        m = {}
        for e in v:
            m[e["leader_epoch"]] = e["offset"]
        return m
    if key == "txn_index_empty":
        return bool(v)  # not written: the field's default, false
    return v


def short(path):  # partition dir / file name
    parts = os.path.normpath(path).split(os.sep)
    return "/".join(parts[-2:])


def main():
    kepoch_json, kafka_dump = sys.argv[1], sys.argv[2]
    storage = sys.argv[3] if len(sys.argv) > 3 else None
    ours = {}
    order = []
    for item in json.load(open(kepoch_json)):
        f = short(item["file"])
        for b in item["batches"]:
            for r in b.get("records", []):
                ours[(f, r["offset"])] = r.get("remote_log_metadata")
                order.append((f, r["offset"]))
        if item.get("problems"):
            fail(f"kepoch reports problems in {item['file']}: {item['problems']}")
    theirs = []
    current = None
    for line in open(kafka_dump):
        line = line.rstrip("\n")
        m = re.match(r"Dumping (.*)$", line)
        if m:
            current = short(m.group(1))
            continue
        m = re.match(r"\| offset: (\d+) .*? payload: (.*)$", line)
        if m:
            theirs.append((current, int(m.group(1)), m.group(2)))
            continue
        if "Error at offset" in line:
            fail(f"Kafka could not decode a record: {line}")
    if not theirs:
        fail("Kafka printed no record")
    if len(theirs) != len(order):
        fail(f"Kafka printed {len(theirs)} records, kepoch {len(order)}")
    counts = {}
    fields_compared = 0
    for f, offset, payload in theirs:
        if (f, offset) not in ours:
            fail(f"{f} offset {offset}: in Kafka's dump, not in kepoch's")
        mine = ours[(f, offset)]
        if mine is None or "error" in mine:
            fail(f"{f} offset {offset}: kepoch did not decode it ({mine}); Kafka: {payload}")
        typ, d = kafka_fields(payload)
        if mine["type"] != typ:
            fail(f"{f} offset {offset}: type {mine['type']}, Kafka {typ}")
        for k, v in d.items():
            if k not in mine:
                fail(f"{f} offset {offset}: kepoch has no {k} (Kafka: {v})")
            if kepoch_value(mine, k) != v:
                fail(f"{f} offset {offset}: {k} is {kepoch_value(mine, k)!r}, Kafka {v!r}")
            fields_compared += 1
        counts[(typ, d["state"])] = counts.get((typ, d["state"]), 0) + 1
    for (typ, state), n in sorted(counts.items()):
        print(f"equal: {n} {typ} {state}")
    print(f"equal: {len(theirs)} records, {fields_compared} fields")

    if storage is None:
        return
    # The last state of every segment, by the metadata's order (offsets within a partition of
    # __remote_log_metadata are in order, and a segment's events go to one partition).
    last = {}
    segs = {}
    for key in order:
        r = ours[key]
        if r["type"] in ("REMOTE_LOG_SEGMENT_METADATA_RECORD", "REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD"):
            sid = r["segment_id"]
            last[sid] = r["state"]
            if r["type"] == "REMOTE_LOG_SEGMENT_METADATA_RECORD":
                segs[sid] = r
    expected = {}
    for sid, state in last.items():
        if state == "COPY_SEGMENT_FINISHED":
            r = segs[sid]
            d = f"{r['topic']}-{r['partition']}-{r['topic_id']}"
            expected[(d, f"{r['start_offset']:020d}-{sid}")] = r["segment_size_in_bytes"]
    found = {}
    if os.path.isfile(storage):
        for line in open(storage):
            path, size = line.split()
            parts = path.split("/")
            found[(parts[-2], parts[-1][:-4])] = int(size)
    else:
        root = os.path.join(storage, "kafka-tiered-storage")
        for d in sorted(os.listdir(root)):
            for name in os.listdir(os.path.join(root, d)):
                if name.endswith(".log"):
                    found[(d, name[:-4])] = os.path.getsize(os.path.join(root, d, name))
    if set(found) != set(expected):
        fail(f"remote storage holds {sorted(set(found) - set(expected))} not finished in the "
             f"metadata, lacks {sorted(set(expected) - set(found))}")
    for k, size in expected.items():
        if found[k] != size:
            fail(f"{k}: .log of {found[k]} bytes, metadata says {size}")
    states = {}
    for s in last.values():
        states[s] = states.get(s, 0) + 1
    print(f"equal: remote storage holds the {len(expected)} segments whose last state is "
          f"COPY_SEGMENT_FINISHED (last states: {states})")


main()
