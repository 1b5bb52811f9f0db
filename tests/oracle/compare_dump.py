#!/usr/bin/env python3
"""Compares `kepoch segment dump -o json --records` with Kafka's DumpLogSegments
(--deep-iteration) on the same file, field by field. Prints what both said; exits 1 on any
difference.

usage: compare_dump.py KEPOCH.json KAFKA.txt
"""
import json
import re
import sys

PAIR = re.compile(r"(\w+): (\S+)")
BATCH_FIELDS = {
    "baseOffset": "base_offset", "lastOffset": "last_offset", "count": "count",
    "baseSequence": "base_sequence", "producerId": "producer_id",
    "producerEpoch": "producer_epoch", "partitionLeaderEpoch": "partition_leader_epoch",
    "isTransactional": "is_transactional", "isControl": "is_control", "position": "position",
    "CreateTime": "max_timestamp", "LogAppendTime": "max_timestamp", "size": "size",
    "magic": "magic", "compresscodec": "compression", "crc": "crc", "isvalid": "crc_valid",
}
RECORD_FIELDS = {
    "offset": "offset", "CreateTime": "timestamp", "LogAppendTime": "timestamp",
    "keySize": "key_size", "valueSize": "value_size", "sequence": "sequence",
}


def parse_kafka(text):
    batches = []
    for line in text.splitlines():
        if line.startswith("baseOffset:"):
            batches.append({"fields": dict(PAIR.findall(line)), "records": []})
        elif line.startswith("| offset:"):
            fields = dict(PAIR.findall(line))
            keys = re.search(r"headerKeys: \[(.*?)\]", line)
            fields["headers"] = 0 if not keys or keys.group(1) == "" else len(keys.group(1).split(","))
            batches[-1]["records"].append(fields)
    return batches


def norm(value):
    return str(value).lower() if isinstance(value, bool) else str(value)


def main():
    ours = json.load(open(sys.argv[1]))
    assert isinstance(ours, list) and len(ours) == 1, "expected one file object"
    ours = ours[0]
    kafka = parse_kafka(open(sys.argv[2]).read())
    diffs = []
    if len(kafka) != len(ours["batches"]):
        diffs.append(f"batch count: Kafka {len(kafka)}, kepoch {len(ours['batches'])}")
    records = 0
    for i, (k, o) in enumerate(zip(kafka, ours["batches"])):
        for kname, oname in BATCH_FIELDS.items():
            if kname in k["fields"] and norm(o[oname]) != k["fields"][kname]:
                diffs.append(f"batch {i} {kname}: Kafka {k['fields'][kname]}, kepoch {o[oname]}")
        if len(k["records"]) != len(o.get("records", [])):
            diffs.append(f"batch {i} records: Kafka {len(k['records'])}, kepoch "
                         f"{len(o.get('records', []))} ({o.get('records_error', '')})")
        for j, (kr, orec) in enumerate(zip(k["records"], o.get("records", []))):
            records += 1
            for kname, oname in RECORD_FIELDS.items():
                if kname in kr and norm(orec[oname]) != kr[kname]:
                    diffs.append(f"batch {i} record {j} {kname}: Kafka {kr[kname]}, kepoch {orec[oname]}")
            if kr["headers"] != orec["headers"]:
                diffs.append(f"batch {i} record {j} headers: Kafka {kr['headers']}, kepoch {orec['headers']}")
    codecs = sorted({b["fields"].get("compresscodec", "?") for b in kafka})
    print(f"{ours['file']}: Kafka {len(kafka)} batches / {records} records ({','.join(codecs)}); "
          f"kepoch {len(ours['batches'])} batches: {'AGREE' if not diffs else 'DIFFER'}")
    for d in diffs[:20]:
        print("  " + d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
