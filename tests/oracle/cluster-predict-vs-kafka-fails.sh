#!/usr/bin/env bash
# Kafka as the oracle for what happens after a truncation (issue 22, items 2 and 3), on one
# cluster: broker 1 led three topics (replicas 1,2) alone, broker 2 was elected uncleanly
# with fewer records, and broker 1 returns as a follower.
#   nockpt  broker 1's leader-epoch-checkpoint is gone (deleted after its clean shutdown):
#           it truncates to its high watermark 10, which lies inside the new leader's batch
#           5-14; its first fetch at 10 gets that batch, UnifiedLog.appendAsFollower throws
#           UnexpectedAppendOffsetException and the fetcher marks the partition failed.
#   delrec  DeleteRecords moved the new leader's log start to 10, inside its batch 5-14 above
#           the fork (5): its epoch cache starts at 10, broker 1 (epoch 0) is told (0, 10),
#           truncates to 10 keeping its own 5-9, and fails the same way.
#   hwend   (issue 22, item 4) as nockpt, but the new leader writes nothing: broker 1's high
#           watermark 10 lies past the leader's log end 5, its fetch at 10 is out of range,
#           and AbstractFetcherThread.fetchOffsetAndTruncate truncates it to the leader's end
#           (5): it follows, losing its acknowledged 5-9.
#   txn     above the new leader's end (5) broker 1 held a committed transaction (3 records
#           and its COMMIT marker), an aborted one (2 records, ABORT marker) and 2 plain
#           records: all removed; 5 lost as a consumer reads them, 2 aborted, 2 markers.
#   cmp     (issue 22, item 5) a compacted topic (replicas 1,2): broker 1's cleaner rewrote
#           the batches broker 2 still holds (keys k-0..3 written again while broker 2 was
#           down); cmp stays leaderless until broker 1 returns and leads it, and broker 2
#           follows without truncating below its log end. kepoch diff of broker 2's copy
#           against broker 1's must find no fork there (the cleaner's rewrite is no
#           divergence); and diff of nockpt (broker 1 without epochs) against its new leader
#           must find the fork where Kafka's DumpLogSegments shows the first differing batch
#           (5), not at 0.
# Counts of Kafka's are from its DumpLogSegments of the copies before and after. Run on Kafka
# 4.1 and, as its own CTest test, on 3.9.1 (KEPOCH_KAFKA_VERSION; transaction markers,
# the fetcher's failure handling are the version-dependent rules here).
# kepoch (cluster predict while broker 1 is down, and offline predict on copies of both log
# dirs) must say: nockpt and delrec fail (outcome fails; Kafka's server.log has the
# UnexpectedAppendOffsetException and "marked as failed" lines and broker 1 stays out of the
# ISR), with Kafka's removed and lost counts and the divergent records broker 1 keeps (its
# batches after the failure that the leader does not hold); txn loses what Kafka removed,
# counted as consumers see it; both exit 1.
export KEPOCH_EXTRA_PROPS="log.flush.start.offset.checkpoint.interval.ms=1000
log.cleaner.backoff.ms=1000"
. "$(dirname "$0")/common.sh"
cluster_up
B="$KEPOCH_BOOTSTRAP"
SNAP="$SCRATCH/snap"
mkdir -p "$SNAP"
TOPICS=(nockpt hwend delrec txn)
. "$KEPOCH_CLUSTER_DIR/cluster.env"
echo "Kafka $KAFKA_VERSION"
[[ "$KAFKA_VERSION" == "${KEPOCH_KAFKA_VERSION:-$KAFKA_VERSION}" ]] ||
  fail "the cluster runs Kafka $KAFKA_VERSION, KEPOCH_KAFKA_VERSION says $KEPOCH_KAFKA_VERSION"

# copy_topics BROKER DEST: the topics' partition dirs and the root checkpoints, copied while
# the broker is SIGSTOPped (when it runs) so that the copy is of one moment.
copy_topics() {
  local src pid f t
  src="$("$KC" logdir "$1")"
  mkdir -p "$2"
  pid="$("$KC" pid "$1" 2>/dev/null || true)"
  [[ -n "$pid" ]] && kill -STOP "$pid"
  for t in "${TOPICS[@]}"; do cp -a "$src/$t-0" "$2/"; done
  # The clean-shutdown marker too: without it the copy would be recovered, rebuilding the
  # epochs broker 1 lost with its leader-epoch-checkpoint.
  for f in "${ROOT_FILES[@]}" .kafka_cleanshutdown; do [[ -f "$src/$f" ]] && cp -a "$src/$f" "$2/"; done
  [[ -n "$pid" ]] && kill -CONT "$pid"
  return 0
}

for t in "${TOPICS[@]}"; do
  "$KC" create-topic "$t" --assignment 1:2 >/dev/null
  "$KC" wait-leader "$t" 0 1 60 >/dev/null
  "$KC" produce "$t" 5 --acks all --prefix a --timeout-ms 60000 >/dev/null
done
"$KC" create-topic cmp --assignment 1:2 --config cleanup.policy=compact --config segment.ms=200 \
  --config min.cleanable.dirty.ratio=0.01 --config min.compaction.lag.ms=0 \
  --config file.delete.delay.ms=100 >/dev/null
"$KC" wait-leader cmp 0 1 60 >/dev/null
"$KC" produce cmp 4 --acks all --prefix k --sync --timeout-ms 60000 >/dev/null
for t in "${TOPICS[@]}" cmp; do "$KC" wait-isr "$t" 0 "1,2" 60 >/dev/null; done

# Broker 2 shuts down; broker 1 alone acknowledges more, in batches of five.
"$KC" term 2 >/dev/null
for t in "${TOPICS[@]}"; do "$KC" wait-isr "$t" 0 "1" 60 >/dev/null; done
"$KC" produce nockpt 5 --linger-ms 10000 --prefix b --start 5 >/dev/null
"$KC" produce hwend 5 --linger-ms 10000 --prefix b --start 5 >/dev/null
"$KC" produce delrec 5 --linger-ms 10000 --prefix b --start 5 >/dev/null
"$KC" produce delrec 5 --linger-ms 10000 --prefix c --start 10 >/dev/null
"$KC" produce txn 3 --transactional --prefix t --start 5 >/dev/null
"$KC" produce txn 2 --abort --prefix x --start 8 >/dev/null
"$KC" produce txn 2 --prefix p --start 10 >/dev/null
# cmp: the keys again (offsets 4-7), then a record that rolls their segment; broker 1's
# cleaner removes offsets 0-3 (a batch emptied of its records may stay for the producer).
"$KC" wait-isr cmp 0 "1" 60 >/dev/null
"$KC" produce cmp 4 --prefix k --sync >/dev/null
sleep 0.3
"$KC" produce cmp 1 --prefix roll --sync >/dev/null
# compacted: DumpLogSegments reads broker 1's first segment, and offset 0 is gone from it
# (a read that fails while the cleaner swaps the files proves nothing).
compacted() {
  local out
  out=$("$KC" dump-log --files "$("$KC" logdir 1)/cmp-0/00000000000000000000.log" 2>/dev/null) || return 1
  grep -q 'baseOffset: ' <<<"$out" && ! grep -q 'baseOffset: 0 ' <<<"$out"
}
for i in $(seq 1 60); do compacted && break; sleep 1; done
compacted || fail "cmp: broker 1's cleaner did not compact offsets 0-3 in 60 s"
"$KC" term 1 >/dev/null

# Broker 2 returns and is elected uncleanly; it writes one batch of ten from offset 5.
"$KC" start 2 >/dev/null
for t in "${TOPICS[@]}"; do
  for attempt in $(seq 1 20); do
    "$KC" elect-unclean "$t" 0 >/dev/null 2>&1 || true
    [[ "$("$KC" leader "$t" 0 2>/dev/null)" == 2 ]] && break
    sleep 1
  done
  [[ "$("$KC" leader "$t" 0)" == 2 ]] || fail "$t: broker 2 was never elected"
done
"$KC" produce nockpt 10 --acks 1 --linger-ms 10000 --prefix n --start 5 >/dev/null
"$KC" produce delrec 10 --acks 1 --linger-ms 10000 --prefix n --start 5 >/dev/null
echo '{"version": 1, "partitions": [{"topic": "delrec", "partition": 0, "offset": 10}]}' > "$SNAP/delete.json"
"$KC" tool org.apache.kafka.tools.DeleteRecordsCommand --bootstrap-server "$("$KC" live-bootstrap)" \
  --offset-json-file "$SNAP/delete.json" > "$SNAP/delete.out"
grep -q 'low_watermark: 10' "$SNAP/delete.out" || fail "DeleteRecords: $(cat "$SNAP/delete.out")"
# The producer must have put the ten records in one batch (--linger-ms: held until the flush).
for t in nockpt delrec; do
  "$KEPOCH" segment dump -o json "$("$KC" logdir 2)/$t-0"/0*.log > "$SNAP/leader-$t.json"
  python3 -c '
import json, sys
b = [(x["base_offset"], x["last_offset"]) for f in json.load(open(sys.argv[1])) for x in f["batches"]]
sys.exit(0 if (5, 14) in b else 1)' "$SNAP/leader-$t.json" ||
    fail "$t: the leader did not write 5-14 as one batch: $(cat "$SNAP/leader-$t.json" | head -c 600)"
done
# LogManager writes the log start first 30 s after startup, then every second.
for i in $(seq 1 60); do
  grep -qx 'delrec 0 10' "$("$KC" logdir 2)/log-start-offset-checkpoint" 2>/dev/null && break
  sleep 1
done
grep -qx 'delrec 0 10' "$("$KC" logdir 2)/log-start-offset-checkpoint" ||
  fail "broker 2 never checkpointed log start 10"
rm "$("$KC" logdir 1)/nockpt-0/leader-epoch-checkpoint" "$("$KC" logdir 1)/hwend-0/leader-epoch-checkpoint"

rc=0
"$KEPOCH" cluster predict -b "$B" --log-dir "$("$KC" logdir 1)" --topic 'nockpt|hwend|delrec|txn' \
  --details -o json > "$SNAP/cluster.json" 2> "$SNAP/cluster.err" || rc=$?
[[ $rc -le 1 ]] || fail "cluster predict exited $rc: $(cat "$SNAP/cluster.err")"
copy_topics 1 "$SNAP/before"
copy_topics 2 "$SNAP/leader"
orc=0
"$KEPOCH" predict -o json --leader "$SNAP/leader" "$SNAP/before" > "$SNAP/offline.json" \
  2> "$SNAP/offline.err" || orc=$?
[[ $orc -le 1 ]] || fail "predict exited $orc: $(cat "$SNAP/offline.err")"
# The same from `logdir snapshot` files of the two copies (they keep the tail's transactions).
for side in before leader; do
  "$KEPOCH" logdir snapshot "$SNAP/$side" --file "$SNAP/$side.snap" >/dev/null
done
src=0
"$KEPOCH" predict -o json --leader "$SNAP/leader.snap" "$SNAP/before.snap" > "$SNAP/snapshots.json" \
  2> "$SNAP/snapshots.err" || src=$?
[[ $src == "$orc" ]] || fail "predict from snapshots exited $src, from the dirs $orc: $(cat "$SNAP/snapshots.err")"

# cmp (out of the predictions above): broker 2's stale replica against broker 1's compacted one.
snapshot 2 cmp "$SNAP/cmp2"
snapshot 1 cmp "$SNAP/cmp1"
for pair in "cmp $SNAP/cmp2/cmp-0 $SNAP/cmp1/cmp-0" "nockpt $SNAP/before/nockpt-0 $SNAP/leader/nockpt-0"; do
  read -r t mine theirs <<<"$pair"
  drc=0
  "$KEPOCH" diff -o json "$mine" "$theirs" > "$SNAP/diff-$t.json" 2> "$SNAP/diff-$t.err" || drc=$?
  [[ $drc -le 1 ]] || fail "diff $t exited $drc: $(cat "$SNAP/diff-$t.err")"
done

"$KC" start 1 >/dev/null
LOG="$KEPOCH_CLUSTER_DIR/broker-1/server.log"
for i in $(seq 1 60); do
  [[ $(grep -cE 'Partition (nockpt|delrec)-0 marked as failed' "$LOG") -ge 2 ]] && break
  sleep 1
done
"$KC" wait-isr txn 0 "1,2" 60 >/dev/null
"$KC" wait-isr hwend 0 "1,2" 60 >/dev/null
"$KC" truncation-lines 1 hwend-0 > "$SNAP/kafka-hwend-lines" || true
sleep 4  # replica.lag.time.max.ms (3 s): a fetching follower would be back in the ISR by now
for t in nockpt delrec; do
  grep -E "UnexpectedAppendOffsetException|Unexpected offset in append to $t-0" "$LOG" |
    grep -- "$t-0" >/dev/null || fail "$t: Kafka logged no UnexpectedAppendOffsetException for broker 1"
  grep -q "Partition $t-0 marked as failed" "$LOG" || fail "$t: broker 1 did not mark $t-0 failed"
  isr="$("$KC" isr "$t" 0)"
  [[ "$isr" == 2 ]] || fail "$t: ISR $isr: broker 1 should stay out of it"
  echo "Kafka: $t-0 on broker 1: $(grep -o "Unexpected offset in append to $t-0[^.]*\. First offset [0-9]* is less than the next offset [0-9]*" "$LOG" | head -n1); ISR $isr"
done
# cmp: broker 1 leads it again (the ISR's last member), broker 2 follows: Kafka truncates
# broker 2 nowhere below its log end.
"$KC" wait-isr cmp 0 "1,2" 60 >/dev/null
"$KC" truncation-lines 2 cmp-0 > "$SNAP/kafka-cmp-lines" || true
copy_topics 1 "$SNAP/after"
# Kafka's own DumpLogSegments of every copy: batches (base, last, CRC, count) and records.
for t in "${TOPICS[@]}" cmp; do
  for side in before after leader cmp1 cmp2; do
    [[ -d "$SNAP/$side/$t-0" ]] || continue
    "$KC" dump-log --deep-iteration --print-data-log --files "$(ls "$SNAP/$side/$t-0"/*.log | paste -sd,)" \
      > "$SNAP/kafka-$side-$t.txt"
  done
done

python3 - "$SNAP" "$rc" "$orc" <<'PY' || fail "kepoch's account differs from Kafka's"
import json, re, sys
snap, rc, orc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
live = json.load(open(f"{snap}/cluster.json"))
rows = {r["topic"]: r for r in live["partitions"]}
details = {s["topic"]: s["replicas"][0] for s in live["forecasts"]}
offline = {s["topic"]: s["replicas"][0] for s in json.load(open(f"{snap}/offline.json"))["partitions"]}

# Kafka's DumpLogSegments lines: "baseOffset: B lastOffset: L count: N ... crc: C isvalid: ..."
def batches(side, t):
    out = []
    for line in open(f"{snap}/kafka-{side}-{t}.txt"):
        m = re.search(r"baseOffset: (\d+) lastOffset: (\d+) count: (\d+) .*? crc: (\d+)", line)
        if m:
            out.append((int(m.group(1)), int(m.group(2)), int(m.group(4)), int(m.group(3))))
    return out

errors = []
for t in ("nockpt", "delrec"):
    before, after, leader = batches("before", t), batches("after", t), batches("leader", t)
    held = {b[:3] for b in leader}
    kept = {b[:3] for b in after}
    removed = sum(b[3] for b in before if b[:3] not in kept)
    lost = sum(b[3] for b in before if b[:3] not in kept and b[:3] not in held)
    # What broker 1 keeps after the failure that the leader does not hold (compared from the
    # leader's first batch: below it the leader deleted its records).
    first = min(b[0] for b in leader)
    divergent = sum(b[3] for b in after if b[0] >= first and b[:3] not in held)
    row, d, off = rows[t], details[t], offline[t]
    print(f"{t}: Kafka removed {removed}, lost {lost}, broker 1 keeps {divergent} divergent; "
          f"kepoch: {row['outcome']}, truncate to {row['truncate_to']}, removed "
          f"{row['removed_records']}, lost {row['lost_records']}, divergent {row['divergent_records']}")
    if divergent == 0:
        errors.append(f"{t}: the scenario left broker 1 no divergent record to prove anything")
    want = {"outcome": "fails", "truncate_to": 10, "removed_records": removed,
            "lost_records": lost, "committed_lost_records": lost, "divergent_records": divergent}
    for k, v in want.items():
        if row[k] != v:
            errors.append(f"{t}: cluster predict {k} {row[k]}, Kafka {v}")
    if "UnexpectedAppendOffsetException" not in row["reason"] or "delete" not in row["reason"]:
        errors.append(f"{t}: the reason names neither the exception nor the action: {row['reason']}")
    for name, x in (("cluster predict --details", d), ("predict", off)):
        if x["outcome"] != "fails" or x["failure"] is None:
            errors.append(f"{t}: {name} outcome {x['outcome']}")
            continue
        for k in ("truncate_to", "removed_records", "lost_records", "committed_lost_records"):
            if x[k] != row[k]:
                errors.append(f"{t}: {name} {k} {x[k]}, cluster predict {row[k]}")
        if x["failure"]["divergent_records"] != divergent:
            errors.append(f"{t}: {name} divergent {x['failure']['divergent_records']}, Kafka {divergent}")
        if x["failure"]["leader_batch"] != {"first": 5, "last": 14}:
            errors.append(f"{t}: {name} leader batch {x['failure']['leader_batch']}")

# Transactions: Kafka's own dump names each removed record (key) and marker.
def records(side):
    out = {}
    for line in open(f"{snap}/kafka-{side}-txn.txt"):
        m = re.search(r"\| offset: (\d+) .*?(?:endTxnMarker: (\w+)|key: (\S+))", line)
        if m:
            out[int(m.group(1))] = m.group(2) or m.group(3)
    return out
before, after = records("before"), records("after")
gone = {o: k for o, k in before.items() if after.get(o) != k}
markers = [k for k in gone.values() if k in ("COMMIT", "ABORT")]
aborted = [k for k in gone.values() if k.startswith("x-")]
data = [k for k in gone.values() if k not in markers and not k.startswith("x-")]
row, off = rows["txn"], offline["txn"]
print(f"txn: Kafka removed {len(gone)} records: {len(data)} data, {len(aborted)} aborted, "
      f"{len(markers)} markers {markers}; kepoch: lost {row['lost_records']}, aborted "
      f"{row['lost_aborted_records']}, control {row['lost_control_records']}")
if sorted(markers) != ["ABORT", "COMMIT"] or len(aborted) != 2 or len(data) != 5:
    errors.append(f"txn: the scenario did not remove what it should: {gone}")
want = {"outcome": "follows", "truncate_to": 5, "removed_records": len(gone),
        "lost_records": len(data), "committed_lost_records": len(data),
        "lost_aborted_records": len(aborted), "lost_control_records": len(markers)}
from_snapshots = {s["topic"]: s["replicas"][0]
                  for s in json.load(open(f"{snap}/snapshots.json"))["partitions"]}["txn"]
for name, x in (("cluster predict", row), ("predict", off), ("predict from snapshots", from_snapshots)):
    for k, v in want.items():
        if x[k] != v:
            errors.append(f"txn: {name} {k} {x[k]}, Kafka {v}")
# hwend: Kafka's truncation (the out-of-range step) and what it removed, by its dumps.
before, after, leader = batches("before", "hwend"), batches("after", "hwend"), batches("leader", "hwend")
cuts = [int(x) for x in re.findall(r"Truncating to offset (\d+)", open(f"{snap}/kafka-hwend-lines").read())]
kept = {b[:3] for b in after}
removed = sum(b[3] for b in before if b[:3] not in kept)
lost = sum(b[3] for b in before if b[:3] not in kept and b[:3] not in {x[:3] for x in leader})
print(f"hwend: Kafka truncated broker 1 to {cuts}, removed {removed}, lost {lost}; kepoch: "
      f"{rows['hwend']['outcome']}, truncate to {rows['hwend']['truncate_to']}, removed "
      f"{rows['hwend']['removed_records']}, lost {rows['hwend']['lost_records']}")
if cuts != [5] or removed != 5:
    errors.append(f"hwend: Kafka truncated to {cuts} removing {removed}: not the scenario")
want = {"outcome": "follows", "truncate_to": 5, "removed_records": removed, "lost_records": lost,
        "committed_lost_records": lost, "lost_unknown_records": 0}
for name, x in (("cluster predict", rows["hwend"]), ("cluster predict --details", details["hwend"]),
                ("predict", offline["hwend"])):
    for k, v in want.items():
        if x.get(k) != v:
            errors.append(f"hwend: {name} {k} {x.get(k)}, Kafka {v}")

# Item 5: diff compares only where a comparison means something.
def comparison(t):
    return json.load(open(f"{snap}/diff-{t}.json"))["comparisons"][0]
b2, b1 = batches("cmp2", "cmp"), batches("cmp1", "cmp")
b2_end = b2[-1][1] + 1
cut_lines = [int(x) for x in re.findall(r"Truncating to offset (\d+)", open(f"{snap}/kafka-cmp-lines").read())]
if any(x < b2_end for x in cut_lines):
    errors.append(f"cmp: Kafka truncated broker 2 to {cut_lines} (its end {b2_end}): not the scenario")
if not b1 or b1[0][0] == 0 or len(b2) == 0 or b2[0][0] != 0:
    errors.append(f"cmp: broker 1's cleaner did not rewrite what broker 2 holds: {b1} / {b2}")
c = comparison("cmp")
print(f"cmp: broker 2 {[(b[0], b[1], b[3]) for b in b2]}, broker 1 (compacted) "
      f"{[(b[0], b[1], b[3]) for b in b1]}; Kafka truncated broker 2 to {cut_lines or 'nothing'}; "
      f"kepoch diff: fork by batches {c['fork_offset_by_batches']}, by epochs "
      f"{c['fork_offset_by_epochs']}, compared from {c['batches_compared_from']}, only_here {c['only_here']}")
if c["fork_offset_by_batches"] is not None or c["fork_offset_by_epochs"] is not None or c["only_here"] is not None:
    errors.append(f"cmp: diff claims a divergence Kafka does not see: {c}")
if not any("cleaner" in n for n in c["notes"]):
    errors.append(f"cmp: diff does not say why it left the cleaned batches out: {c['notes']}")
# nockpt: broker 1 without epochs against its new leader: the first batch that differs in
# Kafka's dumps (offsets and CRC) is where the logs fork.
mine, theirs = batches("before", "nockpt"), batches("leader", "nockpt")
fork = next((m[0] for m, o in zip(mine, theirs) if m[:3] != o[:3]), None)
c = comparison("nockpt")
print(f"nockpt: Kafka's dumps first differ at {fork}; kepoch diff: fork by batches "
      f"{c['fork_offset_by_batches']}, by epochs {c['fork_offset_by_epochs']}, only_here {c['only_here']}")
if fork != 5 or c["fork_offset_by_batches"] != fork or c["fork_offset_by_epochs"] is not None:
    errors.append(f"nockpt: diff's fork {c['fork_offset_by_batches']} / {c['fork_offset_by_epochs']}, Kafka's dumps {fork}")
if (c["only_here"] or {}).get("first") != fork:
    errors.append(f"nockpt: only_here {c['only_here']}: broker 1 holds the leader's batch below {fork}")
if not any("no leader epochs" in n for n in c["notes"]):
    errors.append(f"nockpt: diff does not say why it left the epochs out: {c['notes']}")

s = live["summary"]
if s["fails"] != 2 or sorted(s["at_risk"]) != ["delrec-0", "hwend-0", "nockpt-0", "txn-0"]:
    errors.append(f"summary fails {s['fails']}, at_risk {s['at_risk']}")
if (rc, orc) != (1, 1):
    errors.append(f"exit status: cluster predict {rc}, predict {orc}: expected 1 and 1")
for e in errors:
    print("MISMATCH", e)
sys.exit(1 if errors else 0)
PY
echo "cluster predict and predict agree with Kafka: two failed followers, transactions as consumers see them"
