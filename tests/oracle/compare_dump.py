#!/usr/bin/env python3
"""Compares `kepoch segment dump -o json --records` with Kafka's DumpLogSegments
(--deep-iteration) on the same file, field by field. Prints what both said; exits 1 on any
difference.

Control records: DumpLogSegments prints "endTxnMarker: COMMIT coordinatorEpoch: 0" for
transaction markers, "<Name> {json}" for SnapshotHeader, SnapshotFooter, KRaftVersion and
KRaftVoters (the message's JsonConverter, camelCase), "LeaderChange: {json}" with
--cluster-metadata-decoder and "controlType: LEADER_CHANGE(2)" without; each is compared
with the record's `control` object.

Every line DumpLogSegments prints carries a known set of fields (REQUIRED_*): a line that
lacks one is a difference (Kafka's format changed, or this parse broke), never a field
silently left out of the comparison. --min-batches and --min-records fail a file where Kafka
listed fewer (an empty or cut output would otherwise agree with anything empty); --codec
requires every data batch to be in that compression.

usage: compare_dump.py KEPOCH.json KAFKA.txt [--min-batches N] [--min-records N] [--codec C]
"""
import argparse
import json
import re
import sys

PAIR = re.compile(r"(\w+): (\S+)")
BATCH_FIELDS = {
    "baseOffset": "base_offset", "lastOffset": "last_offset", "count": "count",
    "baseSequence": "base_sequence", "producerId": "producer_id",
    "producerEpoch": "producer_epoch", "partitionLeaderEpoch": "partition_leader_epoch",
    "isTransactional": "is_transactional", "isControl": "is_control", "position": "position",
    "CreateTime": "max_timestamp", "LogAppendTime": "max_timestamp",
    "NoTimestampType": "max_timestamp", "size": "size",
    "magic": "magic", "compresscodec": "compression", "crc": "crc", "isvalid": "crc_valid",
}
CONTROL_JSON = re.compile(r" (SnapshotHeader|SnapshotFooter|KRaftVersion|KRaftVoters|LeaderChange:?) (\{.*\})")
CONTROL_TYPES = {"SnapshotHeader": "snapshot_header", "SnapshotFooter": "snapshot_footer",
                 "KRaftVersion": "kraft_version", "KRaftVoters": "kraft_voters",
                 "LeaderChange": "leader_change", "LeaderChange:": "leader_change"}
TIMESTAMPS = ("CreateTime", "LogAppendTime", "NoTimestampType")  # exactly one per line
REQUIRED_BATCH = ["baseOffset", "lastOffset", "count", "baseSequence", "producerId", "producerEpoch",
                  "partitionLeaderEpoch", "isTransactional", "isControl", "position", "size",
                  "magic", "compresscodec", "crc", "isvalid"]
REQUIRED_LEGACY_ENTRY = ["lastOffset", "position", "size", "magic", "compresscodec", "crc", "isvalid"]
REQUIRED_RECORD = ["offset", "keySize", "valueSize", "sequence", "headerKeys"]
REQUIRED_LEGACY_RECORD = ["offset", "keySize", "valueSize", "isValid", "crc"]
RECORD_FIELDS = {
    "offset": "offset", "CreateTime": "timestamp", "LogAppendTime": "timestamp",
    "NoTimestampType": "timestamp", "keySize": "key_size", "valueSize": "value_size",
    "sequence": "sequence", "isValid": "crc_valid", "crc": "crc",
}


def parse_kafka(text):
    batches = []
    for line in text.splitlines():
        if line.startswith("baseOffset:") or line.startswith("offset:"):
            fields = dict(PAIR.findall(line))
            legacy = line.startswith("offset:")
            if legacy:  # a legacy entry: its (last) offset only
                fields["lastOffset"] = fields.pop("offset")
            batches.append({"fields": fields, "records": [], "legacy": legacy})
        elif line.startswith("| offset:"):
            # Legacy records end "isValid: B crc: N}": DumpLogSegments prints a stray brace.
            fields = {k: v.rstrip("}") for k, v in PAIR.findall(line)}
            keys = re.search(r"headerKeys: \[(.*?)\]", line)
            fields["headers"] = 0 if not keys or keys.group(1) == "" else len(keys.group(1).split(","))
            control = CONTROL_JSON.search(line)
            if control:
                fields["control"] = (CONTROL_TYPES[control.group(1)], json.loads(control.group(2)))
            batches[-1]["records"].append(fields)
    return batches


def snake(name):
    """Kafka's JSON names to kepoch's: lastContainedLogTimestamp -> last_contained_log_timestamp,
    kRaftVersion -> kraft_version."""
    name = name.replace("kRaft", "kraft")
    return re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def kepoch_shape(kafka_json, type_name):
    """Kafka's message JSON in kepoch's names; LeaderChange voters are ids in kepoch."""
    if isinstance(kafka_json, list):
        return [kepoch_shape(e, type_name) for e in kafka_json]
    if not isinstance(kafka_json, dict):
        return kafka_json
    out = {snake(k): kepoch_shape(v, type_name) for k, v in kafka_json.items()}
    if type_name == "leader_change":
        for key in ("voters", "granting_voters"):
            if key in out:
                out[key] = [v["voter_id"] for v in out[key]]
    return out


def compare_control(where, kr, orec, diffs):
    """The record's control object against what DumpLogSegments printed, if it printed it."""
    ours = orec.get("control")
    if "endTxnMarker" in kr:
        want = {"type": kr["endTxnMarker"].lower(), "coordinator_epoch": int(kr["coordinatorEpoch"])}
    elif "control" in kr:
        type_name, body = kr["control"]
        want = dict(kepoch_shape(body, type_name), type=type_name)
    elif "controlType" in kr:
        m = re.match(r"(\w+)\((-?\d+)\)", kr["controlType"])
        want = {"type_id": int(m.group(2))}
    else:
        return 0
    if ours is None:
        diffs.append(f"{where} control: Kafka {want}, kepoch none")
        return 1
    for k, v in want.items():
        if ours.get(k) != v:
            diffs.append(f"{where} control {k}: Kafka {v}, kepoch {ours.get(k)}")
    return 1


def norm(value):
    return str(value).lower() if isinstance(value, bool) else str(value)


def missing(where, fields, required, diffs):
    """Names the required fields a line of DumpLogSegments lacks, and a missing timestamp."""
    for name in required:
        if name not in fields:
            diffs.append(f"{where}: DumpLogSegments printed no {name}")
    if sum(t in fields for t in TIMESTAMPS) != 1:
        diffs.append(f"{where}: DumpLogSegments printed no single timestamp ({'/'.join(TIMESTAMPS)})")


def main():
    args = argparse.ArgumentParser()
    args.add_argument("kepoch")
    args.add_argument("kafka")
    args.add_argument("--min-batches", type=int, default=1)
    args.add_argument("--min-records", type=int, default=0)
    args.add_argument("--codec")
    args = args.parse_args()
    ours = json.load(open(args.kepoch))
    assert isinstance(ours, list) and len(ours) == 1, "expected one file object"
    ours = ours[0]
    kafka = parse_kafka(open(args.kafka).read())
    diffs = []
    if len(kafka) != len(ours["batches"]):
        diffs.append(f"batch count: Kafka {len(kafka)}, kepoch {len(ours['batches'])}")
    records = 0
    controls = 0
    for i, (k, o) in enumerate(zip(kafka, ours["batches"])):
        missing(f"batch {i}", k["fields"], REQUIRED_LEGACY_ENTRY if k["legacy"] else REQUIRED_BATCH, diffs)
        for kname, oname in BATCH_FIELDS.items():
            if kname in k["fields"] and norm(o[oname]) != k["fields"][kname]:
                diffs.append(f"batch {i} {kname}: Kafka {k['fields'][kname]}, kepoch {o[oname]}")
        if len(k["records"]) != len(o.get("records", [])):
            diffs.append(f"batch {i} records: Kafka {len(k['records'])}, kepoch "
                         f"{len(o.get('records', []))} ({o.get('records_error', '')})")
        for j, (kr, orec) in enumerate(zip(k["records"], o.get("records", []))):
            records += 1
            missing(f"batch {i} record {j}", kr, REQUIRED_LEGACY_RECORD if k["legacy"] else REQUIRED_RECORD, diffs)
            for kname, oname in RECORD_FIELDS.items():
                if kname in kr and norm(orec.get(oname)) != kr[kname]:
                    diffs.append(f"batch {i} record {j} {kname}: Kafka {kr[kname]}, kepoch {orec[oname]}")
            for kname, type_name in (("CreateTime", "create-time"), ("LogAppendTime", "log-append-time"),
                                     ("NoTimestampType", "no-timestamp")):
                if kname in kr and "timestamp_type" in orec and orec["timestamp_type"] != type_name:
                    diffs.append(f"batch {i} record {j} timestamp type: Kafka {kname}, kepoch {orec['timestamp_type']}")
            if kr["headers"] != orec["headers"]:
                diffs.append(f"batch {i} record {j} headers: Kafka {kr['headers']}, kepoch {orec['headers']}")
            controls += compare_control(f"batch {i} record {j}", kr, orec, diffs)
    kafka_records = sum(len(b["records"]) for b in kafka)
    if len(kafka) < args.min_batches:
        diffs.append(f"DumpLogSegments listed {len(kafka)} batches, fewer than {args.min_batches}")
    if kafka_records < args.min_records:
        diffs.append(f"DumpLogSegments listed {kafka_records} records, fewer than {args.min_records}")
    if args.codec:
        for i, b in enumerate(kafka):
            if b["fields"].get("isControl") != "true" and b["fields"].get("compresscodec") != args.codec:
                diffs.append(f"batch {i}: compression {b['fields'].get('compresscodec')}, not {args.codec}")
    codecs = sorted({b["fields"].get("compresscodec", "?") for b in kafka})
    print(f"{ours['file']}: Kafka {len(kafka)} batches / {records} records / {controls} control "
          f"records ({','.join(codecs)}); "
          f"kepoch {len(ours['batches'])} batches: {'AGREE' if not diffs else 'DIFFER'}")
    for d in diffs[:20]:
        print("  " + d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
