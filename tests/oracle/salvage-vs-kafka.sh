#!/usr/bin/env bash
# Kafka as the oracle for `kepoch salvage` (and `kepoch replay` when built): an unclean
# election removes records of every kind from the old leader, and what salvage archives
# before the restart must be exactly what Kafka's truncation then removes, as Kafka's own
# DumpLogSegments shows the old leader's log before and after.
#
# Topic s (replicas 1,2): a-0..4 replicated. Broker 2 dies (ISR [1]); broker 1 alone takes
# idempotent records (i), a committed transaction (t + COMMIT), an aborted one (x + ABORT),
# plain acks=1 records with a header (p), a record of 1,010,000 bytes (l: Kafka's defaults take
# it, librdkafka's default message.max.bytes does not), and an open transaction (o, no marker: the
# producer halts). Broker 1 dies; broker 2 restarts, wins an unclean election and takes p-0
# again (a client re-sending it: same key, value and header) and new records (n). Then:
#   - salvage reads broker 1's log dir (the broker down, as on its host before the restart)
#     against a copy of broker 2's replica: each removed record with its class, whether it
#     was committed and whether the new leader holds it (p-0: by content, likely);
#   - broker 1 restarts and truncates: the records gone from its log (DumpLogSegments
#     before/after, offset by offset) are exactly the archive's;
#   - replay (when the binary has it) produces the data back, and a read_committed consumer
#     of the partition sees every salvaged committed record once and no aborted record.
# Brokers 2 and 3 keep the transaction state log's min ISR (2) while broker 1 is alone on s.
#
# Topic r (replicas 1,2, min.insync.replicas 2): an idempotent producer's retry lands on the
# new leader. ra-0..2 are replicated; then broker 2 stops and an idempotent acks=all producer
# sends d-0..2 as one batch: broker 1 appends it while the ISR is still [1,2], the ISR shrinks
# to [1] below the min ISR, and the producer gets no acknowledgement (REQUEST_TIMED_OUT where
# KIP-966 holds the high watermark back, NOT_ENOUGH_REPLICAS_AFTER_APPEND on 3.9) and retries
# (NOT_ENOUGH_REPLICAS, refused before any append) with the same producer id, epoch and
# sequences.
# e-0..1 (acks=1) are appended on broker 1 alone. After the unclean election f-0 (acks=1) is
# written to broker 2, and only then is the min ISR lowered to 1: until then broker 2 refuses
# the retry (NOT_ENOUGH_REPLICAS, Partition.appendRecordsToLeader checks the min ISR before
# the append), so the retry always lands after f-0, at other offsets than broker 1 had d at.
# Broker 2 is killed (not SIGSTOPped) before d is sent: a stopped follower keeps its fetch
# parked in broker 1's purgatory, broker 1 answers it with d into the stopped process's
# socket, and on SIGCONT broker 2 appends d at broker 1's very offsets before it learns of the
# election (the race CI saw on 4.4.0 and 3.9.1). A dead broker receives nothing; restarted
# after broker 1 died, it has no leader to fetch d from.
# Salvage must say d is on the new leader by producer sequence (certain), replay must not
# produce d again, and a read_committed consumer of r-0 reads each of ra, d and e once.
. "$(dirname "$0")/common.sh"
cluster_up
D="$SCRATCH/salvage"
mkdir -p "$D"

"$KC" create-topic s --assignment 1:2 >/dev/null
"$KC" produce s 5 --acks all --prefix a >/dev/null
"$KC" create-topic r --assignment 1:2 --config min.insync.replicas=2 >/dev/null
"$KC" produce r 3 --acks all --prefix ra >/dev/null
"$KC" wait-isr r 0 "1,2" 60 >/dev/null
"$KC" create-topic w --assignment 3 >/dev/null
"$KC" produce r 3 --acks all --prefix d --linger-ms 200 --timeout-ms 300000 --await-file "$D/go" --warm-up w \
  >"$D/d.out" 2>"$D/d.err" &
dpid=$!
for ((i = 0; i < 600; i++)); do [[ -e $D/go.ready ]] && break; sleep 0.1; done
[[ -e $D/go.ready ]] || fail "the idempotent producer of d did not start: $(cat "$D/d.err")"
"$KC" kill 2 >/dev/null
touch "$D/go"
"$KC" wait-isr s 0 "1" 60 >/dev/null
"$KC" wait-isr r 0 "1" 60 >/dev/null
# d is in broker 1's log (appended while the ISR was [1,2]; the high watermark stays below
# it where the ISR under the min ISR holds it back, KIP-966).
n=$("$KC" dump-log --print-data-log --files "$("$KC" logdir 1)/r-0/00000000000000000000.log" | grep -c ' key: d-' || true)
[[ $n == 3 ]] || fail "d was not appended on broker 1 before the ISR shrank ($n records)"
"$KC" produce r 2 --acks 1 --prefix e >/dev/null
"$KC" produce s 3 --acks all --prefix i >/dev/null
"$KC" produce s 3 --acks all --transactional --prefix t >/dev/null
"$KC" produce s 2 --acks all --abort --prefix x >/dev/null
"$KC" produce s 2 --acks 1 --prefix p --header h=v >/dev/null
# l-0: a record of 1,010,000 bytes, which Kafka's defaults take (max.message.bytes 1,048,588,
# the Java producer's max.request.size 1,048,576; the test cluster's segments are 1 MiB) and a
# producer with librdkafka's default message.max.bytes (1,000,000) refuses: replay must
# produce it back.
"$KC" produce s 1 --acks all --prefix l --value-bytes 1010000 >/dev/null
"$KC" produce s 20000 --acks 1 --prefix q --linger-ms 50 >/dev/null
"$KC" produce s 2 --acks all --open --prefix o >/dev/null
"$KC" kill 1 >/dev/null
"$KC" start 2 >/dev/null
"$KC" wait-brokers 2,3 60 >/dev/null
"$KC" elect-unclean s 0 >/dev/null
"$KC" wait-leader s 0 2 60 >/dev/null
"$KC" produce s 1 --acks 1 --prefix p --header h=v >/dev/null
"$KC" produce s 2 --acks all --prefix n >/dev/null
# (With eligible leader replicas, KIP-966, broker 2 is in r-0's ELR since the ISR shrank
# below the min ISR, and may be elected cleanly before this asks.)
"$KC" elect-unclean r 0 >/dev/null 2>&1 || true
"$KC" wait-leader r 0 2 60 >/dev/null
# The premise: broker 2 never received d (it holds ra-0..2 alone).
n=$("$KEPOCH" segment dump -o jsonl --records "$("$KC" logdir 2)/r-0/00000000000000000000.log" |
  python3 -c 'import json, sys; print(sum(len(json.loads(l).get("batch", {}).get("records", [])) for l in sys.stdin if l.strip()))')
[[ $n == 3 ]] || fail "broker 2's r-0 holds $n records before f-0, not ra-0..2: it received d by replication"
# f-0 (acks=1: not held by the min ISR) first, so that the retry lands at other offsets than
# broker 1 had d at (at the same offsets it would be the very same batch: a v2 batch's CRC
# covers neither its base offset nor its leader epoch).
"$KC" produce r 1 --acks 1 --prefix f >/dev/null
"$KC" set-topic-config r min.insync.replicas=1 >/dev/null
wait "$dpid" || fail "the idempotent producer's retry of d failed: $(cat "$D/d.out" "$D/d.err")"
echo "d retried to the new leader: $(cat "$D/d.out")"

B1="$("$KC" logdir 1)"
snapshot 2 s "$D/leader"
dump() { local f; for f in "$1"/*.log; do "$KC" dump-log --print-data-log --files "$f" || exit 1; done; }
dump "$B1/s-0" > "$D/before.txt"
snapshot 2 r "$D/leader-r"
dump "$B1/r-0" > "$D/r-before.txt"
dump "$D/leader-r/r-0" > "$D/r-leader.txt"

# Salvage from broker 1's own log dir, read-only, the archive outside it.
expect_exit 1 "$KEPOCH" salvage -o json --archive "$D/s.jsonl" --leader "$D/leader/s-0" "$B1/s-0"
cp "$SCRATCH/out" "$D/salvage.json"
echo "salvage: $(json "$D/salvage.json" "d['summary']")"
expect_exit 1 "$KEPOCH" salvage -o json --archive "$D/r.jsonl" --leader "$D/leader-r/r-0" "$B1/r-0"
cp "$SCRATCH/out" "$D/salvage-r.json"
echo "salvage r: $(json "$D/salvage-r.json" "d['summary']")"
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
"$KC" wait-isr r 0 "1,2" 90 >/dev/null
dump "$B1/s-0" > "$D/after.txt"
dump "$B1/r-0" > "$D/r-after.txt"

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
want = {"i": "data", "t": "committed_transaction", "x": "aborted", "p": "data", "q": "data", "o": "open",
        "l": "data"}
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
python3 - "$D" <<'PY' || fail "r: the archive is not what Kafka removed, or d is not found on the new leader"
import base64, json, re, sys
d = sys.argv[1]
PAIR = re.compile(r"(\w+): (\S+)")

def records(name):
    """offset -> (leader epoch, producer id, producer epoch, sequence, key, value) of every
    data record DumpLogSegments printed (r has no control batch)."""
    out, batch = {}, None
    for line in open(f"{d}/{name}"):
        if line.startswith("baseOffset:"):
            batch = dict(PAIR.findall(line))
        elif line.startswith("| offset:"):
            f = dict(PAIR.findall(line))
            assert batch["isControl"] == "false", line
            out[int(f["offset"])] = (int(batch["partitionLeaderEpoch"]), int(batch["producerId"]),
                                     int(batch["producerEpoch"]), int(f["sequence"]), f["key"], f["payload"])
    return out

before, after, leader = records("r-before.txt"), records("r-after.txt"), records("r-leader.txt")
removed = {o: r for o, r in before.items() if after.get(o) != r}
keys = sorted(r[4] for r in removed.values())
archived = [json.loads(l) for l in open(f"{d}/r.jsonl").read().splitlines()[1:-1]]
ours = {r["offset"]: (r["leader_epoch"], r["producer_id"], r["producer_epoch"], r["sequence"],
                      base64.b64decode(r["key"]).decode(), base64.b64decode(r["value"]).decode())
        for r in archived}
assert keys == ["d-0", "d-1", "d-2", "e-0", "e-1"], f"Kafka removed {keys} from r-0"
# The retry: the new leader holds d-0..2 with the old leader's producer id, epoch and
# sequences, at other offsets than broker 1 had them.
old_d = {r[4]: (o, r[1:4]) for o, r in removed.items() if r[4].startswith("d-")}
new_d = {r[4]: (o, r[1:4]) for o, r in leader.items() if r[4].startswith("d-")}
assert sorted(new_d) == ["d-0", "d-1", "d-2"], f"the new leader holds {sorted(new_d)}"
for k in old_d:
    assert old_d[k][1] == new_d[k][1] and old_d[k][1][0] >= 0, (k, old_d[k], new_d[k])
assert {o for o, _ in old_d.values()} != {o for o, _ in new_d.values()}, "d at the same offsets on both sides"
assert ours == removed, f"differ: only Kafka {set(removed.items()) - set(ours.items())}, only kepoch {set(ours.items()) - set(removed.items())}"
for r in archived:
    k = base64.b64decode(r["key"]).decode()
    assert r["class"] == "data", (k, r["class"])
    if k.startswith("d-"):
        assert r["on_new_leader"] == {"present": True, "by": "producer_sequence", "certainty": "certain"}, (k, r["on_new_leader"])
    else:
        assert r["on_new_leader"] == {"present": False, "by": None, "certainty": "certain"}, (k, r["on_new_leader"])
s = json.load(open(f"{d}/salvage-r.json"))
assert s["totals"]["records"] == 5 and s["totals"]["to_replay"] == 2, s["totals"]
print("r: Kafka removed", keys, "; d on the new leader by producer sequence, e to replay")
PY
echo "salvage-vs-kafka: the archive holds exactly the records Kafka removed"

# Replay: interrupted (SIGINT) mid-way, then resumed; then a read_committed consumer of s-0
# from the start sees every salvaged record to replay once, no aborted or open record, and
# p-0 once (the new leader's copy; the archive's is skipped as present).
BOOT="$("$KC" bootstrap)"
expect_exit 0 "$KEPOCH" replay -o json --dry-run "$D/s.jsonl"
to_replay=$(json "$SCRATCH/out" "d['selected']")
[[ $to_replay == $(json "$D/salvage.json" "d['totals']['to_replay']") ]] || fail "dry run: $to_replay to replay, salvage said otherwise"
# A copy cut short (its end line lost) and a copy damaged in its last record are refused before
# anything is produced: were any record of them sent to s, the read_committed check below would
# read it twice. No progress file is written for them.
head -n -1 "$D/s.jsonl" >"$D/cut.jsonl"
expect_exit 3 "$KEPOCH" replay -b "$BOOT" --progress "$D/cut.progress" "$D/cut.jsonl"
expect_in "$SCRATCH/err" "cut short"
{ head -n -2 "$D/s.jsonl"; echo '{"topic":"s","partition":0,"offset":"junk"}'; tail -n 1 "$D/s.jsonl"; } >"$D/bad.jsonl"
expect_exit 3 "$KEPOCH" replay -b "$BOOT" --progress "$D/bad.progress" "$D/bad.jsonl"
expect_in "$SCRATCH/err" "bad.jsonl"
[[ ! -e $D/cut.progress && ! -e $D/bad.progress ]] || fail "a refused archive left a progress file"
"$KEPOCH" replay -o json -b "$BOOT" --max-rate 5000 "$D/s.jsonl" >"$D/replay1.json" 2>"$D/replay1.err" &
pid=$!
# Interrupt mid-way: once the first delivery reports were written (the run has checked the
# archive and produces; at 5,000 a second 20,007 records take 4 s).
for _ in $(seq 200); do [[ -e $D/s.jsonl.progress ]] && break; sleep 0.05; done
sleep 0.5
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

# r: d is skipped (on the new leader by producer sequence), e-0..1 are produced back.
expect_exit 0 "$KEPOCH" replay -o json -b "$BOOT" "$D/r.jsonl"
[[ $(json "$SCRATCH/out" "d['delivered']") == 2 ]] || fail "r: replay delivered $(json "$SCRATCH/out" "d['delivered']"), not e-0..1"
"$KC" tool org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "$BOOT" --topic r \
  --partition 0 --offset earliest --isolation-level read_committed --timeout-ms 8000 \
  --property print.key=true >"$D/consumed-r.txt" 2>"$D/consumer-r.err" || true
python3 - "$D" <<'PY' || fail "r: a read_committed consumer does not see ra, d and e once each"
import collections, sys
keys = collections.Counter(l.split("\t")[0] for l in open(f"{sys.argv[1]}/consumed-r.txt") if "\t" in l)
want = {f"ra-{i}" for i in range(3)} | {f"d-{i}" for i in range(3)} | {"e-0", "e-1", "f-0"}
assert set(keys) == want and all(n == 1 for n in keys.values()), dict(keys)
print("r read_committed: ra, f, d (the retry, not replayed) and e (replayed) each once")
PY

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
assert len(base64.b64decode(next(r for r in replayed if r["key"] == base64.b64encode(b"l-0").decode())["value"])) == 1010000
for k in ["a-0", "a-4", "p-0", "n-0", "n-1", "l-0"]:
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
