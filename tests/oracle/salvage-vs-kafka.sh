#!/usr/bin/env bash
# Kafka as the oracle for `kepoch salvage` (and `kepoch replay` when built): an unclean
# election removes records of every kind from the old leader, and what salvage archives
# before the restart must be exactly what Kafka's truncation then removes, as Kafka's own
# DumpLogSegments shows the old leader's log before and after.
#
# Topic s (replicas 1,2): a-0..4 replicated. Broker 2 stops (ISR [1]); broker 1 alone takes
# idempotent records (i), a committed transaction (t + COMMIT), an aborted one (x + ABORT),
# plain acks=1 records with a header (p), and an open transaction (o, no marker: the
# producer halts). Broker 1 dies; broker 2 wins an unclean election and takes p-0 again (a
# client re-sending it: same key, value and header) and new records (n). Then:
#   - salvage reads broker 1's log dir (the broker down, as on its host before the restart)
#     against a copy of broker 2's replica: each removed record with its class, whether it
#     was committed and whether the new leader holds it (p-0: by content, likely);
#   - broker 1 restarts and truncates: the records gone from its log (DumpLogSegments
#     before/after, offset by offset) are exactly the archive's;
#   - replay (when the binary has it) produces the data back, and a read_committed consumer
#     of the partition sees every salvaged committed record once and no aborted record.
# Brokers 2 and 3 keep the transaction state log's min ISR (2) while broker 1 is alone on s.
. "$(dirname "$0")/common.sh"
cluster_up
D="$SCRATCH/salvage"
mkdir -p "$D"

"$KC" create-topic s --assignment 1:2 >/dev/null
"$KC" produce s 5 --acks all --prefix a >/dev/null
"$KC" stop 2
"$KC" wait-isr s 0 "1" 60 >/dev/null
"$KC" produce s 3 --acks all --prefix i >/dev/null
"$KC" produce s 3 --acks all --transactional --prefix t >/dev/null
"$KC" produce s 2 --acks all --abort --prefix x >/dev/null
"$KC" produce s 2 --acks 1 --prefix p --header h=v >/dev/null
"$KC" produce s 20000 --acks 1 --prefix q --linger-ms 50 >/dev/null
"$KC" produce s 2 --acks all --open --prefix o >/dev/null
"$KC" kill 1 >/dev/null
"$KC" cont 2 >/dev/null
"$KC" wait-brokers 2,3 60 >/dev/null
"$KC" elect-unclean s 0 >/dev/null
"$KC" wait-leader s 0 2 60 >/dev/null
"$KC" produce s 1 --acks 1 --prefix p --header h=v >/dev/null
"$KC" produce s 2 --acks all --prefix n >/dev/null

B1="$("$KC" logdir 1)"
snapshot 2 s "$D/leader"
dump() { local f; for f in "$1"/*.log; do "$KC" dump-log --print-data-log --files "$f" || exit 1; done; }
dump "$B1/s-0" > "$D/before.txt"

# Salvage from broker 1's own log dir, read-only, the archive outside it.
expect_exit 1 "$KEPOCH" salvage -o json --archive "$D/s.jsonl" --leader "$D/leader/s-0" "$B1/s-0"
cp "$SCRATCH/out" "$D/salvage.json"
echo "salvage: $(json "$D/salvage.json" "d['summary']")"
expect_exit 1 "$KEPOCH" predict -o json --leader "$D/leader/s-0" "$B1/s-0"
cp "$SCRATCH/out" "$D/predict.json"
# The same from the live cluster (`cluster predict`'s restart forecast): the same records, the
# leader's holdings unknown (its records are not read).
expect_exit 1 "$KEPOCH" salvage -o json --archive "$D/s-live.jsonl" -b "$("$KC" bootstrap)" --log-dir "$B1" --topic s
python3 - "$D" <<'PY' || fail "the live salvage differs from the offline one"
import json, sys
d = sys.argv[1]
def rows(name):
    return [json.loads(l) for l in open(f"{d}/{name}").read().splitlines()[1:-1]]
off, live = rows("s.jsonl"), rows("s-live.jsonl")
key = lambda r: (r["offset"], r["leader_epoch"], r["key"], r["value"], r["headers"], r["class"])
assert [key(r) for r in off] == [key(r) for r in live], "the live archive holds other records"
assert all(r["on_new_leader"] == {"present": None, "by": None, "certainty": "unknown"} for r in live)
print("live salvage: the same", len(live), "records")
PY

"$KC" start 1 >/dev/null
"$KC" wait-isr s 0 "1,2" 90 >/dev/null
dump "$B1/s-0" > "$D/after.txt"

python3 - "$D" <<'PY' || fail "the archive is not what Kafka removed"
import base64, json, re, sys
d = sys.argv[1]
PAIR = re.compile(r"(\w+): (\S+)")

def records(name):
    """(offset, leader epoch, producer id, sequence, key, value or marker) of every record
    DumpLogSegments printed."""
    out, batch = {}, None
    for line in open(f"{d}/{name}"):
        if line.startswith("baseOffset:"):
            batch = dict(PAIR.findall(line))
        elif line.startswith("| offset:"):
            f = dict(PAIR.findall(line))
            if batch["isControl"] == "true":
                what = ("control", f["endTxnMarker"].lower())
            else:
                what = (f["key"], f["payload"])
            out[int(f["offset"])] = (int(batch["partitionLeaderEpoch"]), int(batch["producerId"]),
                                     int(f["sequence"])) + what
    return out

before, after = records("before.txt"), records("after.txt")
removed = {o: r for o, r in before.items() if after.get(o) != r}
assert removed, "Kafka removed nothing: the scenario did not diverge"
lines = open(f"{d}/s.jsonl").read().splitlines()
head, end = json.loads(lines[0]), json.loads(lines[-1])
assert head["format"] == "kepoch-salvage-archive" and head["version"] == 1, head
archived = [json.loads(l) for l in lines[1:-1]]
assert end == {"end": {"records": len(archived)}}, end
ours = {}
for r in archived:
    if r["class"] == "control":
        what = ("control", r["control_type"])
    else:
        what = (base64.b64decode(r["key"]).decode(), base64.b64decode(r["value"]).decode())
    ours[r["offset"]] = (r["leader_epoch"], r["producer_id"], r["sequence"]) + what
print("Kafka removed", len(removed), "records, offsets", min(removed), "to", max(removed),
      "; kepoch archived", len(ours))
assert ours == removed, f"differ: only Kafka {set(removed.items()) - set(ours.items())}, only kepoch {set(ours.items()) - set(removed.items())}"
# The classes, from the markers in the removed tail as a read_committed consumer reads them.
want = {"i": "data", "t": "committed_transaction", "x": "aborted", "p": "data", "q": "data", "o": "open"}
for r in archived:
    if r["class"] == "control":
        continue
    prefix = base64.b64decode(r["key"]).decode().split("-")[0]
    assert r["class"] == want[prefix], (r["offset"], prefix, r["class"])
    assert r["transactional"] == (prefix in "txo"), r
    assert (r["producer_id"] >= 0) == (prefix not in "pq"), r
    if prefix == "p":
        assert [(base64.b64decode(h["key"]), base64.b64decode(h["value"])) for h in r["headers"]] == [(b"h", b"v")], r
markers = sorted(r["control_type"] for r in archived if r["class"] == "control")
assert markers == ["abort", "commit"], markers
# p-0 is on the new leader again (same key, value and header); nothing else is.
present = {base64.b64decode(r["key"]).decode(): r["on_new_leader"] for r in archived if r["class"] != "control"}
assert present["p-0"] == {"present": True, "by": "content", "certainty": "likely"}, present["p-0"]
for k, v in present.items():
    if k != "p-0":
        assert v["present"] is False and v["certainty"] == "certain", (k, v)
# The counts agree with predict's forecast of the same replicas.
s, p = json.load(open(f"{d}/salvage.json")), json.load(open(f"{d}/predict.json"))
assert s["totals"]["records"] == p["replicas"][0]["removed_records"], (s["totals"], p["replicas"][0])
print("salvage totals:", s["totals"])
PY
echo "salvage-vs-kafka: the archive holds exactly the records Kafka removed"

# Replay: interrupted (SIGINT) mid-way, then resumed; then a read_committed consumer of s-0
# from the start sees every salvaged record to replay once, no aborted or open record, and
# p-0 once (the new leader's copy; the archive's is skipped as present).
BOOT="$("$KC" bootstrap)"
expect_exit 0 "$KEPOCH" replay -o json --dry-run "$D/s.jsonl"
to_replay=$(json "$SCRATCH/out" "d['selected']")
[[ $to_replay == $(json "$D/salvage.json" "d['totals']['to_replay']") ]] || fail "dry run: $to_replay to replay, salvage said otherwise"
"$KEPOCH" replay -o json -b "$BOOT" --max-rate 5000 "$D/s.jsonl" >"$D/replay1.json" 2>"$D/replay1.err" &
pid=$!
sleep 2
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[[ $rc == 1 ]] || fail "the interrupted replay exited $rc: $(cat "$D/replay1.err" "$D/replay1.json")"
first=$(json "$D/replay1.json" "d['delivered']")
done1=$(json "$D/replay1.json" "d['done']")
echo "replay interrupted: $first delivered, $done1 archive records done: $(json "$D/replay1.json" "d['summary']")"
(( first > 0 && first < to_replay )) || fail "the replay was not interrupted mid-way ($first of $to_replay)"
expect_exit 0 "$KEPOCH" replay -o json -b "$BOOT" "$D/s.jsonl"
cp "$SCRATCH/out" "$D/replay2.json"
echo "replay resumed: $(json "$D/replay2.json" "d['summary']")"
[[ $(json "$D/replay2.json" "d['resumed_past']") == "$done1" ]] || fail "did not resume after record $done1"
(( first + $(json "$D/replay2.json" "d['delivered']") == to_replay )) || fail "delivered $first + $(json "$D/replay2.json" "d['delivered']"), not $to_replay"
# Done: a third run produces nothing.
expect_exit 0 "$KEPOCH" replay -o json -b "$BOOT" "$D/s.jsonl"
[[ $(json "$SCRATCH/out" "d['delivered']") == 0 ]] || fail "a completed replay produced again"

"$KC" tool org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "$BOOT" --topic s \
  --partition 0 --offset earliest --isolation-level read_committed --timeout-ms 8000 \
  --property print.key=true --property print.headers=true --property print.timestamp=true \
  >"$D/consumed.txt" 2>"$D/consumer.err" || true
python3 - "$D" <<'PY' || fail "the read_committed consumer does not see each salvaged record once"
import base64, collections, json, sys
d = sys.argv[1]
lines = [l.rstrip("\n").split("\t") for l in open(f"{d}/consumed.txt") if "\t" in l]
keys = collections.Counter(l[-2] for l in lines)
archived = [json.loads(l) for l in open(f"{d}/s.jsonl").read().splitlines()[1:-1]]
replayed = [r for r in archived if r["class"] in ("data", "committed_transaction") and r["on_new_leader"]["present"] is not True]
for r in replayed:
    k = base64.b64decode(r["key"]).decode()
    assert keys[k] == 1, f"{k}: read {keys[k]} times"
for k in ["a-0", "a-4", "p-0", "n-0", "n-1"]:
    assert keys[k] == 1, f"{k}: read {keys[k]} times"
bad = [k for k in keys if k.split("-")[0] in ("x", "o")]
assert not bad, f"aborted or open records read: {bad[:5]}"
dups = [k for k, n in keys.items() if n > 1]
assert not dups, f"read twice: {dups[:5]}"
# Headers and timestamps kept; the origin named.
p1 = next(l for l in lines if l[-2] == "p-1")
orig = next(r for r in archived if r["key"] == base64.b64encode(b"p-1").decode())
assert p1[0] == f"CreateTime:{orig['timestamp']}", (p1, orig["timestamp"])
assert "h:v" in p1[1] and f"kepoch.salvaged.from:s-0@{orig['offset']}:{orig['leader_epoch']}" in p1[1], p1
print(f"read_committed: {len(lines)} records, each of the {len(replayed)} replayed once, no aborted or open record")
PY
echo "salvage-vs-kafka: replay delivered every salvaged committed record once"
