#!/usr/bin/env python3
"""Compares `kepoch segment dump -o json --records` of coordinator log segments with Kafka's
DumpLogSegments --offsets-decoder / --transaction-log-decoder on the same files, record by
record and field by field. Exits 1 on any difference, printing each.

usage: compare_coordinator.py KEPOCH.json KAFKA.txt offsets|transactions [--min-records N]
       [--require TYPE...]

Kafka's lines: "Dumping FILE", then per data record "| offset: N ... key: K payload: P".
  Kafka 4.x (CoordinatorRecordMessageParser), both logs, and 3.9 --offsets-decoder:
    K = {"type":"T","data":{...}}   T the record type, data the key's JsonConverter fields
    P = {"version":"V","data":{...}} or <DELETE> (a tombstone)
    4.x --transaction-log-decoder names the status: "transactionStatus":"Ongoing".
  Kafka 3.9 --transaction-log-decoder (TransactionLog.formatRecordKeyAndValue):
    K = transaction_metadata::transactionalId=ID
    P = producerId:P,producerEpoch:E,state=S,partitions=[t-0,...],txnLastUpdateTimestamp=U,
        txnTimeoutMs=T   or <DELETE>
JsonConverter names are camelCase; kepoch's are snake_case, with a <name>_iso twin for
timestamps (not compared). Every key Kafka prints must be in kepoch's record with the same
value, and kepoch may print nothing Kafka does not (but transaction_state, the status named,
which must equal Kafka's name for it). Every data record kepoch decodes must be in Kafka's
dump, and none may carry an error.
"""
import argparse
import json
import re
import sys

LINE = re.compile(r"^\| offset: (\d+) .*? key: (.*?)(?: payload: (.*))?$")
snake = lambda k: re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", k[0].lower() + k[1:]).lower()
STATES = ["Empty", "Ongoing", "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort",
          "Dead", "PrepareEpochFence"]


def norm(v):
    if isinstance(v, dict):
        return {snake(k): norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    return v


def strip_iso(v):
    if isinstance(v, dict):
        return {k: strip_iso(x) for k, x in v.items() if not k.endswith("_iso")}
    if isinstance(v, list):
        return [strip_iso(x) for x in v]
    return v


def parse_kafka(text):
    files, current = {}, None
    for line in text.splitlines():
        if line.startswith("Dumping "):
            current = files.setdefault(line[len("Dumping "):].strip(), [])
        elif line.startswith("| offset:") and " key: " in line:
            m = LINE.match(line)
            if not m:
                raise SystemExit(f"unparsed Kafka line: {line}")
            current.append((int(m.group(1)), m.group(2), m.group(3)))
    return files


def compare_value(errors, where, kafka, ours, log):
    """kafka: the normalised data object; ours: kepoch's value (iso twins stripped)."""
    ours = dict(ours)
    if log == "transactions" and "transaction_status" in kafka:
        name = ours.pop("transaction_state", None)
        if name != kafka["transaction_status"]:
            errors.append(f"{where}: transaction state {name!r}, Kafka {kafka['transaction_status']!r}")
        status = ours.get("transaction_status")
        want = STATES[status] if isinstance(status, int) and 0 <= status < len(STATES) else str(status)
        if want != kafka["transaction_status"]:
            errors.append(f"{where}: transaction_status {status} is not {kafka['transaction_status']}")
        kafka = {k: v for k, v in kafka.items() if k != "transaction_status"}
        ours.pop("transaction_status", None)
    if kafka != ours:
        for k in sorted(set(kafka) | set(ours)):
            if kafka.get(k, "<absent>") != ours.get(k, "<absent>"):
                errors.append(f"{where}: {k}: kepoch {ours.get(k, '<absent>')!r}, Kafka {kafka.get(k, '<absent>')!r}")


def compare_legacy_txn(errors, where, key, payload, rec):
    m = re.fullmatch(r"transaction_metadata::transactionalId=(.*)", key)
    if not m:
        errors.append(f"{where}: unparsed 3.9 key {key!r}")
        return
    if rec["key"] != {"transactional_id": m.group(1)} or rec["type_id"] != 0:
        errors.append(f"{where}: key {rec['key']} type {rec['type_id']}, Kafka {key}")
    if payload == "<DELETE>":
        if rec["value"] is not None:
            errors.append(f"{where}: Kafka says tombstone, kepoch {rec['value']}")
        return
    m = re.fullmatch(r"producerId:(-?\d+),producerEpoch:(-?\d+),state=(\w+),partitions=\[(.*)\],"
                     r"txnLastUpdateTimestamp=(-?\d+),txnTimeoutMs=(-?\d+)", payload or "")
    if not m:
        errors.append(f"{where}: unparsed 3.9 payload {payload!r}")
        return
    v = rec["value"] or {}
    parts = sorted(p for p in m.group(4).split(",") if p)
    ours_parts = sorted(f"{t['topic']}-{p}" for t in (v.get("transaction_partitions") or [])
                        for p in t["partition_ids"])
    got = (v.get("producer_id"), v.get("producer_epoch"), v.get("transaction_state"), ours_parts,
           v.get("transaction_last_update_timestamp_ms"), v.get("transaction_timeout_ms"))
    want = (int(m.group(1)), int(m.group(2)), m.group(3), parts, int(m.group(5)), int(m.group(6)))
    if got != want:
        errors.append(f"{where}: kepoch {got}, Kafka {want}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kepoch")
    ap.add_argument("kafka")
    ap.add_argument("log", choices=["offsets", "transactions"])
    ap.add_argument("--min-records", type=int, default=1)
    ap.add_argument("--require", nargs="*", default=[])
    a = ap.parse_args()
    ours_files = {f["file"]: f for f in json.load(open(a.kepoch))}
    kafka_files = parse_kafka(open(a.kafka).read())
    errors, compared, types = [], 0, set()
    for path, lines in kafka_files.items():
        item = ours_files.get(path)
        if item is None:
            errors.append(f"{path}: Kafka dumped it, kepoch did not")
            continue
        if item.get("problems"):
            errors.append(f"{path}: kepoch's problems: {item['problems']}")
        ours = {}
        for b in item["batches"]:
            for r in b.get("records", []):
                if "coordinator" in r:
                    ours[r["offset"]] = r["coordinator"]
                elif not b["is_control"]:
                    errors.append(f"{path} offset {r['offset']}: a data record kepoch did not decode")
        kafka_offsets = {o for o, _, _ in lines}
        for extra in sorted(set(ours) - kafka_offsets):
            errors.append(f"{path} offset {extra}: kepoch decoded a record Kafka did not print")
        for offset, key, payload in lines:
            where = f"{path} offset {offset}"
            rec = ours.get(offset)
            if rec is None:
                errors.append(f"{where}: not in kepoch's dump")
                continue
            if "error" in rec:
                errors.append(f"{where}: kepoch: {rec['error']} (Kafka: {key} {payload})")
                continue
            rec = strip_iso(rec)
            compared += 1
            types.add(rec["type"])
            if not key.startswith("{"):
                compare_legacy_txn(errors, where, key, payload, rec)
                continue
            k = json.loads(key)
            if int(k["type"]) != rec["type_id"]:
                errors.append(f"{where}: type {rec['type_id']}, Kafka {k['type']}")
            compare_value(errors, where + " key", norm(k["data"]), rec["key"], a.log)
            if payload == "<DELETE>":
                if rec["value"] is not None or rec["value_version"] is not None:
                    errors.append(f"{where}: Kafka says tombstone, kepoch {rec['value_version']} {rec['value']}")
                continue
            p = json.loads(payload)
            if int(p["version"]) != rec["value_version"]:
                errors.append(f"{where}: value version {rec['value_version']}, Kafka {p['version']}")
            compare_value(errors, where + " value", norm(p["data"]), rec["value"] or {}, a.log)
    for e in errors:
        print("DIFF", e)
    print(f"compared {compared} records of {len(kafka_files)} files; types: {sorted(types)}")
    if compared < a.min_records:
        errors.append(f"only {compared} records compared (at least {a.min_records} expected)")
        print("DIFF", errors[-1])
    for t in a.require:
        if t not in types:
            errors.append(f"no {t} record compared")
            print("DIFF", errors[-1])
    sys.exit(1 if errors else 0)


main()
