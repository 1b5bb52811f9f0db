#!/usr/bin/env python3
"""A KRaft metadata log (__cluster_metadata-0) for the partitions bench/gen-plan-snapshots.py
made (issue 41, item 2), so the plan benchmark runs the command operators run:

  gen-metadata-log.py STATES.jsonl OUT_DIR
  kepoch plan --metadata OUT_DIR/__cluster_metadata-0 SNAPSHOT...

STATES.jsonl is gen-plan-snapshots.py's: {"live": [...]}, then one {"topic", "partition",
"replicas", "isr", "leader", "leader_epoch"} per partition. The log, as a controller writes it
(one segment, 00000000000000000000.log, record batches v2 with CRC-32C; each record's value is
a metadata record: frame version 1, api key, version, the fields in the flexible encoding of
Kafka's metadata/src/main/resources/common/metadata/*.json, then an empty tagged-field
section; lib/kepoch/format/metadata_record.cpp reads them):

  - RegisterBrokerRecord v0 (fenced) for every broker 1..N, then UnfenceBrokerRecord v0 for
    every live one;
  - per topic a TopicRecord v0 (its id from the name), then per partition a PartitionRecord v0
    (leader: its first replica, ISR: every replica, leader epoch 1);
  - per partition whose state differs, a PartitionChangeRecord v0 as the controller writes it
    when brokers are fenced: the ISR shrunk to the live replicas (leader kept), or, when the
    only ISR member is fenced, the leader removed (NO_LEADER, leader epoch 2; the ISR kept).

Every partition's final state is then the one STATES.jsonl gives (the leaderless ones at leader
epoch 2, the epoch the controller issues without a leader, which no replica holds).
"""
import argparse
import hashlib
import json
import os
import struct

BROKER_EPOCH = 100
RECORDS_PER_BATCH = 2000


def _crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


TABLE = _crc32c_table()


def crc32c(data):
    crc = 0xFFFFFFFF
    t = TABLE
    for b in data:
        crc = t[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def uvarint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def varint(n):  # zigzag
    return uvarint((n << 1) ^ (n >> 63))


def compact_string(s):
    b = s.encode()
    return uvarint(len(b) + 1) + b


def compact_int32s(ids):
    return uvarint(len(ids) + 1) + b"".join(struct.pack(">i", i) for i in ids)


def topic_id(name):
    return hashlib.md5(name.encode()).digest()


def frame(api_key, version, body):
    # ApiMessageAndVersion in MetadataRecordSerde: frame version, api key, version, fields,
    # then the tagged fields (none).
    return uvarint(1) + uvarint(api_key) + uvarint(version) + body + uvarint(0)


def register_broker(broker):
    body = (struct.pack(">i", broker) + hashlib.md5(f"b{broker}".encode()).digest() +
            struct.pack(">q", BROKER_EPOCH) +
            uvarint(2) + compact_string("PLAINTEXT") + compact_string(f"broker-{broker}") +
            struct.pack(">Hh", 9092, 0) + uvarint(0) +  # one end point, its tagged fields
            uvarint(1) +  # no features
            uvarint(0) +  # rack: null
            b"\x01")  # fenced
    return frame(0, 0, body)


def unfence_broker(broker):
    return frame(8, 0, struct.pack(">iq", broker, BROKER_EPOCH))


def topic_record(name):
    return frame(2, 0, compact_string(name) + topic_id(name))


def partition_record(topic, partition, replicas):
    body = (struct.pack(">i", partition) + topic_id(topic) + compact_int32s(replicas) +
            compact_int32s(replicas) + compact_int32s([]) + compact_int32s([]) +
            struct.pack(">iii", replicas[0], 1, 0))  # leader, leader epoch, partition epoch
    return frame(3, 0, body)


def partition_change(topic, partition, isr=None, leader=None):
    tagged = []
    if isr is not None:
        tagged.append((0, compact_int32s(isr)))
    if leader is not None:
        tagged.append((1, struct.pack(">i", leader)))
    body = struct.pack(">i", partition) + topic_id(topic) + uvarint(len(tagged))
    for tag, value in tagged:
        body += uvarint(tag) + uvarint(len(value)) + value
    # frame() appends an empty tagged section: this record's is its own.
    return uvarint(1) + uvarint(5) + uvarint(0) + body


def record(offset_delta, value):
    body = (b"\x00" + varint(0) + varint(offset_delta) + varint(-1) + varint(len(value)) + value +
            uvarint(0))
    return varint(len(body)) + body


def batch(base_offset, values):
    records = b"".join(record(i, v) for i, v in enumerate(values))
    ts = 1_700_000_000_000
    after_crc = (struct.pack(">hiqqqhii", 0, len(values) - 1, ts, ts, -1, -1, -1, len(values)) +
                 records)
    crc = crc32c(after_crc)
    # partitionLeaderEpoch (the controller quorum's epoch), magic, crc
    rest = struct.pack(">ibI", 1, 2, crc) + after_crc
    return struct.pack(">qi", base_offset, len(rest)) + rest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("states")
    ap.add_argument("out")
    a = ap.parse_args()
    meta = os.path.join(a.out, "__cluster_metadata-0")
    os.makedirs(meta, exist_ok=True)
    # First pass: the brokers (every replica's, and the live ones).
    with open(a.states) as f:
        live = set(json.loads(f.readline())["live"])
        brokers = set(live)
        for line in f:
            brokers.update(json.loads(line)["replicas"])
    seg = open(os.path.join(meta, "00000000000000000000.log"), "wb")
    offset = 0
    pending = []
    stats = {"records": 0, "batches": 0}

    def flush():
        nonlocal offset
        if pending:
            seg.write(batch(offset, pending))
            offset += len(pending)
            stats["records"] += len(pending)
            stats["batches"] += 1
            pending.clear()

    def put(value):
        pending.append(value)
        if len(pending) == RECORDS_PER_BATCH:
            flush()

    for b in sorted(brokers):
        put(register_broker(b))
    for b in sorted(live):
        put(unfence_broker(b))
    # Second pass: the topics and partitions as created, then what the fencing changed.
    changes = []
    with open(a.states) as f:
        f.readline()
        topic = None
        for line in f:
            p = json.loads(line)
            if p["topic"] != topic:
                topic = p["topic"]
                put(topic_record(topic))
            put(partition_record(topic, p["partition"], p["replicas"]))
            if p["leader"] == -1:
                changes.append(partition_change(topic, p["partition"], leader=-1,
                                                isr=p["isr"] if p["isr"] != p["replicas"] else None))
            elif p["isr"] != p["replicas"]:
                changes.append(partition_change(topic, p["partition"], isr=p["isr"]))
    for v in changes:
        put(v)
    flush()
    seg.close()
    print(json.dumps({"dir": meta, "brokers": len(brokers), "live": len(live), **stats,
                      "changes": len(changes)}))


if __name__ == "__main__":
    main()
