"""What each consumer did against kepoch's forecast (`predict --offsets -o json`).

    compare_consumer_fate.py PREDICT_JSON PROBE_OUT PREFIX COUNT ACTION...

PROBE_OUT has a line "GROUP position N" or "GROUP exception NAME [divergent=N]" per group
(ConsumerFateProbe.java, kepoch_consumer_probe); a group's name ends with its
auto.offset.reset (librdkafka's "error" is kepoch's none). Every group whose name starts with
PREFIX must have kepoch's row for that policy, saying the same: next_position, or the
exception (librdkafka's error name without RD_KAFKA_RESP_ERR_) and LogTruncationException's
divergent offset. COUNT groups must have answered, and each ACTION must be met by one of them
(or the scene proves less than it claims). Exits 1 on any difference.
"""
import json
import sys

predict, probe_out, prefix, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
want_actions = sys.argv[5:]
d = json.load(open(predict))
rows = {(r["group"], r["auto_offset_reset"]): r for r in d["consumer_groups"]["groups"]}
seen = {}
for line in open(probe_out):
    parts = line.split()
    if len(parts) >= 3 and parts[0].startswith(prefix):
        seen[parts[0]] = " ".join(parts[1:])
bad = 0
actions = set()
for group, got in sorted(seen.items()):
    policy = group.rsplit("-", 1)[1]
    policy = "none" if policy == "error" else policy
    r = rows.get((group, policy))
    if r is None:
        print(f"{group}: kepoch has no row for {policy}")
        bad += 1
        continue
    if r["exception"]:
        name = r["exception"].removeprefix("RD_KAFKA_RESP_ERR_")
        divergent = r["divergent_offset"]
        want = f"exception {name}" + (f" divergent={divergent}" if divergent is not None else "")
    else:
        want = f"position {r['next_position']}"
    actions.add(r["action"])
    ok = want == got
    bad += 0 if ok else 1
    print(f"{group}: consumer {got}; kepoch {want} ({r['action']}: consumed_lost "
          f"{r['consumed_lost']}, reread {r['reread']}, skipped_unseen {r['skipped_unseen']})"
          f"{'' if ok else '  DIFFERS'}")
if len(seen) != count:
    print(f"{len(seen)} of {count} groups answered")
    bad += 1
for a in want_actions:
    if a not in actions:
        print(f"no group met {a}: the scene does not prove that branch")
        bad += 1
sys.exit(1 if bad else 0)
