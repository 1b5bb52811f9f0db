#!/usr/bin/env python3
"""kepoch `metadata dump -o json` (argv[1]) against DumpLogSegments --cluster-metadata-decoder
record lines (argv[2], NO_OP records left out): every record Kafka printed has the same type
and version in kepoch's dump, and each field kepoch decoded equals Kafka's (camelCase to
snake_case); fields Kafka leaves out (tagged, at their default) are at that default in
kepoch's; a field kepoch prints as "(redacted)" (UserScramCredentialRecord's salt and keys,
as Kafka's RecordRedactor hides them) is not compared. argv[3] and argv[4], if given: how many records Kafka printed, how many of them
kepoch decodes."""
import json, re, sys
dump = json.load(open(sys.argv[1]))[0]
ours = {r["offset"]: r for r in dump["records"]}
snake = lambda k: re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", k).lower()
def norm(v):
    if isinstance(v, dict): return {snake(k): norm(x) for k, x in v.items()}
    if isinstance(v, list): return [norm(x) for x in v]
    return v
defaults = {"leader_recovery_state": 0, "eligible_leader_replicas": None, "last_known_elr": None}
seen = decoded = 0
for line in open(sys.argv[2]):
    m = re.match(r"\| offset: (\d+) .* payload: (.*)$", line)
    kafka = json.loads(m.group(2)); off = int(m.group(1)); seen += 1
    r = ours[off]
    assert (r["type"], r["version"]) == (kafka["type"], kafka["version"]), (off, r, kafka)
    if r["fields"] is None: continue
    decoded += 1
    want = norm(kafka["data"])
    for k, v in r["fields"].items():
        if k not in want:
            assert defaults.get(k, "absent") == v, (off, k, v)
        elif v != "(redacted)":  # SCRAM salts and keys: kepoch never prints them
            assert want[k] == v, (off, k, v, want[k])
    assert set(want) <= set(r["fields"]), (off, set(want) - set(r["fields"]))
if len(sys.argv) > 3:
    assert (seen, decoded) == (int(sys.argv[3]), int(sys.argv[4])), (seen, decoded)
noop = sum(r["type"] == "NO_OP_RECORD" for r in dump["records"])
control = sum(r["type"].startswith("control:") for r in dump["records"])
assert noop + seen + control == dump["record_count"] == len(dump["records"]), (noop, seen, control)
assert dump["problems"] == []
