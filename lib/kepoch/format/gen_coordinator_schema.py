#!/usr/bin/env python3
"""Writes kepoch's table of the coordinators' record schemas from Kafka's own schema files.

    lib/kepoch/format/gen_coordinator_schema.py DIR...

DIR: one per release, oldest first, named after it (3.9.1, 4.4.0), holding Kafka's message
schemas as the release's jars pack them under common/message/:
  DIR/group-coordinator/*.json        kafka-group-coordinator-<v>.jar (__consumer_offsets)
  DIR/transaction-coordinator/*.json  kafka-transaction-coordinator-<v>.jar (__transaction_state)
  DIR/share-coordinator/*.json        kafka-share-coordinator-<v>.jar, 4.0+ (__share_group_state)
  DIR/clients/ConsumerProtocol*.json  kafka-clients-<v>.jar (a classic group's member
                                      subscription and assignment, inside GroupMetadataValue)
e.g. `unzip -j kafka-group-coordinator-4.4.0.jar 'common/message/*.json' -d 4.4.0/group-coordinator`.

A coordinator record is a key (int16 record type, then the key schema's fields) and a value
(int16 version, then the value schema's fields; no value: a tombstone). The record type is
the key schema's apiKey (Kafka 4.0+: "type": "coordinator-key"); in 3.9 files (no apiKey) it
is the key schema's version: OffsetCommitKey "0-1" is types 0 and 1, and its fields are read
at that version. A type's key and value schemas are <Name>Key and <Name>Value; the newest
release that has a type gives its schemas (4.4 reads type 0 as LegacyOffsetCommit; 3.9's
ShareGroupPartitionMetadata, type 9, left no successor and is kept). Writes:

  lib/kepoch/format/coordinator_schema_table.inc   every type of each log, its key and value
                                                   schemas (read by coordinator_record.cpp)
  tests/unit/data/coordinator-schemas/versions.tsv log, type, name, value versions, per
                                                   release: what the unit test must cover

Nothing else is read or written; Kafka's files are not copied into the repository."""
import json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_metadata_schema as g  # noqa: E402  (the field emitter and version helpers)

LOGS = [("offsets", "group-coordinator"), ("transactions", "transaction-coordinator"),
        ("share_state", "share-coordinator")]


def load(d):
    out = {}
    if not os.path.isdir(d):
        return out
    for f in sorted(os.listdir(d)):
        if f.endswith(".json"):
            text = re.sub(r"^\s*//.*$", "", open(os.path.join(d, f)).read(), flags=re.M)
            j = json.loads(text)
            out[j["name"]] = j
    return out


def commons(j):
    return {c["name"]: c["fields"] for c in j.get("commonStructs", [])}


def flexible_from(j):
    r = g.vrange(j.get("flexibleVersions"))
    return r[0] if r else -1


def schema_row(cname, j, api_key=0):
    fields = "{}"
    if j["fields"]:
        fields = cname
        g.fields_array(cname, j["fields"], commons(j))
    lo, hi = g.vrange(j["validVersions"])
    return (f'{{{api_key}, "{j["name"]}", "", {lo}, {hi}, {fields}, {flexible_from(j)}}}')


def main():
    dirs = sys.argv[1:]
    if not dirs:
        sys.exit(__doc__)
    releases = [os.path.basename(os.path.normpath(d)) for d in dirs]
    per_log = {log: {} for log, _ in LOGS}  # log -> type -> (release, key json, value json)
    tsv_rows = []
    for rel, d in zip(releases, dirs):
        for log, sub in LOGS:
            files = load(os.path.join(d, sub))
            for name, key in files.items():
                if not name.endswith("Key"):
                    continue
                value = files[name[:-3] + "Value"]
                if "apiKey" in key:
                    types, key_version = [key["apiKey"]], 0
                else:
                    lo, hi = g.vrange(key["validVersions"])
                    types, key_version = list(range(lo, hi + 1)), None
                for t in types:
                    per_log[log][t] = (rel, key, value, t if key_version is None else key_version)
                    vlo, vhi = g.vrange(value["validVersions"])
                    tsv_rows.append((rel, log, t, name[:-3], vlo, vhi))
    lines = []
    for log, _ in LOGS:
        rows = []
        for t in sorted(per_log[log]):
            rel, key, value, key_version = per_log[log][t]
            base = key["name"][:-3]
            snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", base).lower()
            k = schema_row(f"k{log.title().replace('_', '')}{base}Key{t}", key, t)
            v = schema_row(f"k{log.title().replace('_', '')}{base}Value{t}", value, t)
            rows.append(f'    {{{t}, "{base}", "{snake}", {key_version}, {k}, {v}}},')
        lines.append((log, rows))
    clients = load(os.path.join(dirs[-1], "clients"))
    protocol = []
    for name in ("ConsumerProtocolSubscription", "ConsumerProtocolAssignment"):
        protocol.append(f"constexpr RecordSchema k{name} = {schema_row('k' + name + 'Fields', clients[name])};")
    with open(os.path.join(g.HERE, "coordinator_schema_table.inc"), "w") as out:
        out.write("// Generated by lib/kepoch/format/gen_coordinator_schema.py from Kafka's coordinator\n")
        out.write("// record schemas (group-, transaction- and share-coordinator common/message/*.json,\n")
        out.write("// and the clients' ConsumerProtocol*.json) of " + ", ".join(releases) + "; do not edit.\n")
        out.write("// Field: name (snake_case), Kafka's name, type, array, versions first and last,\n")
        out.write("// nullable from (-1 never), tagged from (-1 never), tag, struct fields.\n")
        out.write("// Schema: record type, name, (unused), versions first and last, fields, first\n")
        out.write("// flexible version (-1 none). Type: record type, name, snake_case name, the version\n")
        out.write("// its key fields are read at, key schema, value schema.\n")
        for cname, flines in g.arrays:
            out.write(f"constexpr SchemaField {cname}[] = {{\n" + "\n".join(flines) + "\n};\n")
        for log, rows in lines:
            name = "k" + log.title().replace("_", "") + "Types"
            out.write(f"constexpr CoordinatorRecordType {name}[] = {{\n" + "\n".join(rows) + "\n};\n")
        out.write("\n".join(protocol) + "\n")
    tsv = os.path.join(g.ROOT, "tests", "unit", "data", "coordinator-schemas", "versions.tsv")
    os.makedirs(os.path.dirname(tsv), exist_ok=True)
    with open(tsv, "w") as out:
        out.write("# Generated by lib/kepoch/format/gen_coordinator_schema.py from Kafka's coordinator\n")
        out.write("# record schemas (each type's value validVersions, per release).\n")
        out.write("release\tlog\ttype\trecord\tfirst_value_version\tlast_value_version\n")
        for row in tsv_rows:
            out.write("\t".join(str(x) for x in row) + "\n")


if __name__ == "__main__":
    main()
