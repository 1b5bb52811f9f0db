#!/usr/bin/env bash
# `metadata dump` and `metadata history` on the controller's metadata log of run A
# (tests/data/metadata), held to Kafka's own decoder: every record DumpLogSegments
# --cluster-metadata-decoder printed (tests/data/metadata/dump-log-records.txt, all but the
# NO_OP records) has the same type, version and fields in kepoch's dump; lc-0's timeline
# is the PartitionRecord and PartitionChangeRecords of that output merged as
# PartitionRegistration.merge does; each partition's final leader epoch is the latest
# epoch of its replicas' leader-epoch-checkpoint (same run). A damaged record is an error
# naming its offset (exit 1); a missing target exits 3. (All 87 records are decoded: the
# types without a replay rule, PRODUCER_IDS, BEGIN_TRANSACTION and REGISTER_CONTROLLER, by
# the schema table.)
. "$(dirname "$0")/common.sh"
META="$DATA/metadata"
KAFKA="$META/dump-log-records.txt"

expect_exit 0 "$KEPOCH" metadata dump -o json "$META"
python3 "$(dirname "$0")/metadata_compare.py" "$SCRATCH/out" "$KAFKA" 87 87 ||
  fail "metadata dump disagrees with DumpLogSegments"

expect_exit 0 "$KEPOCH" metadata history -o json "$META" --topic lc --partition 0
python3 - "$SCRATCH/out" "$KAFKA" <<'PY' || fail "lc-0 timeline differs from Kafka's records merged"
import json, re, sys
h = json.load(open(sys.argv[1]))
assert [(p["topic"], p["partition"]) for p in h["partitions"]] == [("lc", 0)], h["partitions"]
steps = h["partitions"][0]["steps"]
want, state = [], None
for line in open(sys.argv[2]):
    m = re.match(r"\| offset: (\d+) CreateTime: (\d+) .* payload: (.*)$", line)
    rec = json.loads(m.group(3)); d = rec["data"]
    if rec["type"] == "PARTITION_RECORD" and d["topicId"] == "jHCv2dyMRo6LTdOknqosGQ":
        state = dict(leader=d["leader"], leader_epoch=d["leaderEpoch"], partition_epoch=d["partitionEpoch"], isr=d["isr"], replicas=d["replicas"])
    elif rec["type"] == "PARTITION_CHANGE_RECORD" and d["topicId"] == "jHCv2dyMRo6LTdOknqosGQ":
        state = dict(state, partition_epoch=state["partition_epoch"] + 1)
        if "isr" in d: state["isr"] = d["isr"]
        if "leader" in d: state.update(leader=d["leader"], leader_epoch=state["leader_epoch"] + 1)
    else:
        continue
    want.append(dict(state, offset=int(m.group(1)), timestamp=int(m.group(2))))
got = [{k: s[k] for k in want[0]} for s in steps]
assert got == want, (got, want)
# The final shutdown: broker 1, last in the ISR, shut down in a controlled way: leader -1, epoch 5.
assert len(want) == 11 and (want[-1]["leader"], want[-1]["leader_epoch"]) == (-1, 5), want[-1]
PY
[[ $(json "$SCRATCH/out" "[s['causes'] for s in d['partitions'][0]['steps']][:4]") == \
   "[['created'], ['leader_change', 'isr_shrink'], ['isr_expand'], ['leader_change']]" ]] || fail "causes"
[[ $(json "$SCRATCH/out" "[(b['offset'], b['broker_id'], b['event']) for b in d['brokers'] if b['broker_id'] == 1][:4]") == \
   "[(11, 1, 'registered'), (17, 1, 'unfenced'), (67, 1, 'fenced'), (93, 1, 'registered')]" ]] || fail "broker events"

# The last epoch in which each partition had a leader is the latest epoch its replicas cached
# (the epochs of leader -1, from the final shutdown, reach no replica's cache).
expect_exit 0 "$KEPOCH" metadata history -o json "$DATA/metadata/__cluster_metadata-0"
for pair in lc-0:leader-changes/broker-2/lc-0 t-0:clean-3replica/broker-3/t-0 \
            codec-lz4-0:codecs/codec-lz4-0 tx-0:transactions/tx-0; do
  name=${pair%%:*} dir=${pair#*:}
  final=$(json "$SCRATCH/out" "[p['last_led_epoch'] for p in d['partitions'] if f\"{p['topic']}-{p['partition']}\" == '$name'][0]")
  cached=$(tail -1 "$DATA/$dir/leader-epoch-checkpoint" | cut -d' ' -f1)
  [[ $final == "$cached" ]] || fail "$name: controller's last led epoch $final, replica's cache $cached"
done

# Table and JSON lines. The default table fits 120 columns and shows each step's time in
# ISO 8601 (the causes column is shortened beside it: -o wide has them whole).
expect_exit 0 "$KEPOCH" metadata history "$META" --topic lc
expect_in "$SCRATCH/out" "2026-11-29T08:24:22.088Z"
expect_exit 0 "$KEPOCH" metadata history -o wide "$META" --topic lc
expect_in "$SCRATCH/out" "leader_change,isr_shrink"
expect_exit 0 "$KEPOCH" metadata dump -o jsonl "$META/__cluster_metadata-0/00000000000000000000.log"
expect_in "$SCRATCH/out" '"type":"PARTITION_CHANGE_RECORD"'

# A damaged copy: a byte of lc's PartitionRecord (offset 38) changed. The batch's CRC no
# longer matches (a problem) and the record's replicas length now lies.
cp "$META/__cluster_metadata-0/00000000000000000000.log" "$SCRATCH/bad.log"
python3 - "$SCRATCH/bad.log" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.index(b"\x01\x03\x02\x00\x00\x00\x00")  # frame of PartitionRecord v2, partition 0
b[i + 7 + 16] = 0x7f
open(sys.argv[1], "wb").write(bytes(b))
PY
expect_exit 1 "$KEPOCH" metadata dump -o json "$SCRATCH/bad.log"
[[ $(json "$SCRATCH/out" "[r['offset'] for r in d[0]['records'] if 'error' in r]") == "[38]" ]] || fail "damaged record"
expect_in "$SCRATCH/out" "Tried to allocate a collection of size 126"
expect_exit 1 "$KEPOCH" metadata history -o json "$SCRATCH/bad.log" --topic lc
expect_in "$SCRATCH/out" "which no PARTITION_RECORD created"

expect_exit 3 "$KEPOCH" metadata history "$SCRATCH/none"
expect_in "$SCRATCH/err" "none"

# The history is written as it is replayed: a first pass, which holds every step and broker
# event in compact form (compact_history.hpp) while they fit in kHistoryHeldBytes and then
# writes the report from them; past that, passes that write one partition's steps as they
# come and hold the next ones' (up to kHistoryHeldBytes). The fixtures fit in the first pass;
# KEPOCH_HISTORY_HELD_BYTES=0 makes every partition and the broker list a pass of its own, as
# on a very large log, and 300 makes the first pass let go of what it held midway and the
# later passes hold a few partitions each. All give the same bytes in every format, over
# every start rule (log start, snapshots, given snapshot, filters, problems); the whole
# document's render (render()) is held to the piecewise text by test_document_stream.
SNAP="$DATA/metadata-snapshot"
for args in "$META" "$META --topic lc" "$META --partition 1" "$META --topic nosuch" \
            "$SNAP" "$SNAP --no-snapshot" \
            "$SNAP --snapshot 00000000000000000262-0000000001.checkpoint" \
            "$SNAP/__cluster_metadata-0/00000000000000000262-0000000001.checkpoint" \
            "$SCRATCH/bad.log" "$DATA/kraft-standalone"; do
  for format in table wide json yaml jsonl; do
    # shellcheck disable=SC2086
    rc_one=0
    "$KEPOCH" metadata history -o "$format" $args > "$SCRATCH/one" 2> "$SCRATCH/one.err" || rc_one=$?
    [[ -s "$SCRATCH/one" ]] || fail "history $args -o $format: no output"
    for held in 0 300; do
      rc_many=0
      # shellcheck disable=SC2086
      KEPOCH_HISTORY_HELD_BYTES=$held "$KEPOCH" metadata history -o "$format" $args \
        > "$SCRATCH/many" 2> "$SCRATCH/many.err" || rc_many=$?
      [[ $rc_one == "$rc_many" ]] ||
        fail "history $args -o $format: exit $rc_one in one pass, $rc_many with $held bytes held"
      cmp -s "$SCRATCH/one" "$SCRATCH/many" && cmp -s "$SCRATCH/one.err" "$SCRATCH/many.err" ||
        fail "history $args -o $format: one pass and passes holding $held bytes differ"
    done
  done
done
