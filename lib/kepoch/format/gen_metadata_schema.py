#!/usr/bin/env python3
"""Writes kepoch's table of the KRaft metadata record schemas from Kafka's own schema files.

    lib/kepoch/format/gen_metadata_schema.py DIR...

DIR: directories holding Kafka's metadata/src/main/resources/common/metadata/*.json (in the
source tree at a release tag, or the same files packed in kafka-metadata-<version>.jar under
common/metadata/), one per release, oldest first. Every release's api keys and version
ranges must be a prefix of the newest one's (Kafka only adds), and the newest release's
files give the fields. Writes:

  lib/kepoch/format/metadata_schema_table.inc   the fields of every record type, every
                                                version (read by metadata_schema.cpp)
  tests/unit/data/metadata-schemas/versions.tsv api key, record name, first and last version,
                                                per release: what the unit test must cover

    lib/kepoch/format/gen_metadata_schema.py --remote-log-metadata DIR...

The same for the records of __remote_log_metadata (tiered storage), from Kafka's
storage/src/main/resources/message/Remote*.json (or kafka-storage-<version>.jar's message/):

  lib/kepoch/format/remote_log_metadata_schema_table.inc   (read by remote_log_metadata.cpp)
  tests/unit/data/remote-log-metadata-schemas/versions.tsv

Nothing else is read or written; Kafka's files are not copied into the repository."""
import json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def load(d):
    out = {}
    for f in sorted(os.listdir(d)):
        if not f.endswith(".json"):
            continue
        text = re.sub(r"^\s*//.*$", "", open(os.path.join(d, f)).read(), flags=re.M)
        j = json.loads(text)
        if j.get("type") != "metadata":
            continue
        out[j["apiKey"]] = j
    return out


def vrange(s):  # "0+", "1-3", "2", "none"
    if s is None or s == "none":
        return None
    if s.endswith("+"):
        return int(s[:-1]), 0x7FFF
    if "-" in s:
        a, b = s.split("-")
        return int(a), int(b)
    return int(s), int(s)


def snake(name):  # Kafka's JSON field name (camelCase), then snake_case as kepoch prints it
    camel = name[0].lower() + name[1:]
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", camel).lower()


def type_name(record):  # MetadataRecordType: RegisterBrokerRecord -> REGISTER_BROKER_RECORD
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", record).upper()


TYPES = {"int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
         "uint16": "uint16", "float64": "float64", "bool": "boolean", "string": "string",
         "bytes": "bytes", "uuid": "uuid"}

arrays = []  # (c name, [field lines]) in definition order (nested first)


def fields_array(cname, fields, common=None):
    """Appends the SchemaField array `cname` (and its structs' arrays first) to `arrays`.
    `common`: the schema's commonStructs by name (a struct type named, not defined, here)."""
    common = common or {}
    lines = []
    for f in fields:
        t = f["type"]
        is_array = t.startswith("[]")
        base = t[2:] if is_array else t
        sub = "{}"
        if base in TYPES:
            kind = TYPES[base]
        else:
            kind = "structure"
            sub_name = f"{cname}_{f['name']}"
            fields_array(sub_name, f["fields"] if "fields" in f else common[base], common)
            sub = sub_name
        v = vrange(f.get("versions", f.get("taggedVersions")))  # a tagged-only field: its tagged versions
        n = vrange(f.get("nullableVersions"))
        tg = vrange(f.get("taggedVersions"))
        lines.append(
            f'    {{"{snake(f["name"])}", "{f["name"]}", SchemaType::{kind}, {str(is_array).lower()}, '
            f'{v[0]}, {v[1]}, {n[0] if n else -1}, {tg[0] if tg else -1}, {f.get("tag", -1)}, {sub}}},')
    arrays.append((cname, lines))


def load_remote(d):  # the records of __remote_log_metadata: Remote*.json of type "metadata"
    out = {}
    for f in sorted(os.listdir(d)):
        if not (f.startswith("Remote") and f.endswith(".json")):
            continue
        text = re.sub(r"^\s*//.*$", "", open(os.path.join(d, f)).read(), flags=re.M)
        j = json.loads(text)
        if j.get("type") == "metadata":
            out[j["apiKey"]] = j
    return out


def remote_main(dirs):
    if not dirs:
        sys.exit(__doc__)
    releases = [(os.path.basename(os.path.normpath(d)), load_remote(d)) for d in dirs]
    newest = releases[-1][1]
    records = []
    for key in sorted(newest):
        j = newest[key]
        fields = f"k{j['name']}" if j["fields"] else "{}"
        if j["fields"]:
            fields_array(fields, j["fields"])
        lo, hi = vrange(j["validVersions"])
        records.append(f'    {{{key}, "{j["name"]}", "{type_name(j["name"])}", {lo}, {hi}, {fields}}},')
    with open(os.path.join(HERE, "remote_log_metadata_schema_table.inc"), "w") as out:
        out.write("// Generated by lib/kepoch/format/gen_metadata_schema.py --remote-log-metadata from\n")
        out.write("// Kafka's storage/src/main/resources/message/Remote*.json (" +
                  ", ".join(r for r, _ in releases) + "); do not edit.\n")
        out.write("// Field: name (snake_case), Kafka's name, type, array, versions first and last,\n")
        out.write("// nullable from (-1 never), tagged from (-1 never), tag, struct fields.\n")
        for cname, lines in arrays:
            out.write(f"constexpr SchemaField {cname}[] = {{\n" + "\n".join(lines) + "\n};\n")
        out.write("constexpr RecordSchema kRemoteLogMetadataSchemas[] = {\n" + "\n".join(records) + "\n};\n")
    tsv = os.path.join(ROOT, "tests", "unit", "data", "remote-log-metadata-schemas", "versions.tsv")
    os.makedirs(os.path.dirname(tsv), exist_ok=True)
    with open(tsv, "w") as out:
        out.write("# Generated by lib/kepoch/format/gen_metadata_schema.py --remote-log-metadata from\n")
        out.write("# Kafka's __remote_log_metadata record schemas (validVersions, tagged fields).\n")
        out.write("release\tapi_key\trecord\tfirst_version\tlast_version\ttagged_fields\n")
        for rel, recs in releases:
            for key in sorted(recs):
                lo, hi = vrange(recs[key]["validVersions"])
                nlo, nhi = vrange(newest[key]["validVersions"])
                assert recs[key]["name"] == newest[key]["name"] and lo == nlo and hi <= nhi, (rel, key)
                tags = ",".join(f["name"] for f in recs[key]["fields"] if "tag" in f) or "-"
                out.write(f"{rel}\t{key}\t{recs[key]['name']}\t{lo}\t{hi}\t{tags}\n")


def main():
    if sys.argv[1:2] == ["--remote-log-metadata"]:
        return remote_main(sys.argv[2:])
    dirs = sys.argv[1:]
    if not dirs:
        sys.exit(__doc__)
    releases = [(os.path.basename(os.path.normpath(d)), load(d)) for d in dirs]
    newest = releases[-1][1]
    records = []
    for key in sorted(newest):
        j = newest[key]
        fields = f"k{j['name']}" if j["fields"] else "{}"  # (no zero-length arrays in C++)
        if j["fields"]:
            fields_array(fields, j["fields"])
        lo, hi = vrange(j["validVersions"])
        records.append(f'    {{{key}, "{j["name"]}", "{type_name(j["name"])}", {lo}, {hi}, {fields}}},')
    with open(os.path.join(HERE, "metadata_schema_table.inc"), "w") as out:
        out.write("// Generated by lib/kepoch/format/gen_metadata_schema.py from Kafka's\n")
        out.write("// metadata/src/main/resources/common/metadata/*.json (" +
                  ", ".join(r for r, _ in releases) + "); do not edit.\n")
        out.write("// Field: name (snake_case), Kafka's name, type, array, versions first and last,\n")
        out.write("// nullable from (-1 never), tagged from (-1 never), tag, struct fields.\n")
        for cname, lines in arrays:
            out.write(f"constexpr SchemaField {cname}[] = {{\n" + "\n".join(lines) + "\n};\n")
        out.write("constexpr RecordSchema kRecordSchemas[] = {\n" + "\n".join(records) + "\n};\n")
    tsv = os.path.join(ROOT, "tests", "unit", "data", "metadata-schemas", "versions.tsv")
    with open(tsv, "w") as out:
        out.write("# Generated by lib/kepoch/format/gen_metadata_schema.py from Kafka's metadata\n")
        out.write("# record schemas (validVersions of each common/metadata/*.json).\n")
        out.write("release\tapi_key\trecord\tfirst_version\tlast_version\n")
        for rel, recs in releases:
            for key in sorted(recs):
                lo, hi = vrange(recs[key]["validVersions"])
                nlo, nhi = vrange(newest[key]["validVersions"])
                assert recs[key]["name"] == newest[key]["name"] and lo == nlo and hi <= nhi, (rel, key)
                out.write(f"{rel}\t{key}\t{recs[key]['name']}\t{lo}\t{hi}\n")


if __name__ == "__main__":
    main()
