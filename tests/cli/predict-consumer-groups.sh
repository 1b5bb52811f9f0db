#!/usr/bin/env bash
# `predict --offsets` on tests/data/consumer-fate, written by Kafka 4.4.0 (the oracle
# consumer-fate-vs-kafka with KEPOCH_FATE_FIXTURES): 24 groups committed offsets 5, 15 or 20
# (with leader epoch 0 or none) before broker 2 won an unclean election over broker 1's
# offsets 10-19 and took 8 records of its own. java-consumer.out and librdkafka-consumer.out
# hold what Kafka's Java consumer and librdkafka 2.0.2 then did, group by group: kepoch's
# forecast from the disks alone must say the same (compare_consumer_fate.py), with the counts
# the scene implies, in every output format; bad --offsets input is one line, exit 3.
. "$(dirname "$0")/common.sh"

F="$DATA/consumer-fate"
args=(--offsets "$F/broker-1" --leader "$F/broker-2/f-0" "$F/broker-1/f-0")
expect_exit 1 "$KEPOCH" predict -o json "${args[@]}"
cp "$SCRATCH/out" "$SCRATCH/java.json"
python3 "$KEPOCH_SOURCE_DIR/tests/oracle/compare_consumer_fate.py" "$SCRATCH/java.json" \
  "$F/java-consumer.out" j- 18 no_change truncation_detected log_truncation_exception \
  silent_skip out_of_range_reset out_of_range_exception || fail "the Java consumers differ"
expect_exit 1 "$KEPOCH" predict -o json --client librdkafka-2.0 "${args[@]}"
cp "$SCRATCH/out" "$SCRATCH/rdkafka.json"
python3 "$KEPOCH_SOURCE_DIR/tests/oracle/compare_consumer_fate.py" "$SCRATCH/rdkafka.json" \
  "$F/librdkafka-consumer.out" r- 6 no_change silent_skip out_of_range_reset \
  out_of_range_exception || fail "the librdkafka consumers differ"

# The scene's numbers: broker 1 consumed-from log 0-19, divergence 10, new log 0-17.
python3 - "$SCRATCH/java.json" <<'PY' || fail "the consumer_groups counts"
import json, sys
g = json.load(open(sys.argv[1]))["consumer_groups"]
assert (g["divergence_offset"], g["consumed_log_end_offset"]) == (10, 20), g
assert (g["leader_log_start_offset"], g["leader_log_end_offset"], g["latest_offset"]) == (0, 18, 18)
assert g["consumed_from"].endswith("broker-1/f-0") and g["client"] == "java"
assert [p.rsplit("/", 1)[1] for p in g["offsets_partitions"]] == [f"__consumer_offsets-{i}" for i in range(3)]
rows = {(r["group"], r["auto_offset_reset"]): r for r in g["groups"]}
r = rows[("j-past-e1-latest", "latest")]
assert (r["consumed_lost"], r["consumed_lost_from"], r["skipped_unseen"], r["skipped_from"]) == (10, 10, 8, 10), r
r = rows[("j-past-e1-earliest", "earliest")]
assert (r["reread"], r["reread_from"]) == (10, 0), r
r = rows[("j-inside-e0-earliest", "earliest")]
assert (r["validated"], r["epoch_end_epoch"], r["epoch_end_offset"]) == (True, 0, 10), r
# Every group but the 7 committed at 5, below the divergence.
assert g["affected_groups"] == 17 and g["unknown_groups"] == 0, (g["affected_groups"], g["unknown_groups"])
PY

# One policy; the table opens with the verdict and names the groups' outcomes.
expect_exit 1 "$KEPOCH" predict -o json --auto-offset-reset none "${args[@]}"
[[ $(json "$SCRATCH/out" "sorted({r['auto_offset_reset'] for r in d['consumer_groups']['groups']})") == "['none']" ]] ||
  fail "--auto-offset-reset none gave other rows"
expect_exit 1 "$KEPOCH" predict "${args[@]}"
opening=$(head -n 3 "$SCRATCH/out" | tr '\n' ' ')
[[ $opening == *"Consumer groups with offsets here: 24 (17 lose"* ]] || fail "verdict: $opening"
expect_exit 1 "$KEPOCH" predict -o wide "${args[@]}"
grep -Eq "j-inside-e0-none +none +log_truncation_exception +- +5 " "$SCRATCH/out" || fail "-o wide: no full row"
expect_exit 1 "$KEPOCH" predict -o yaml "${args[@]}"
expect_in "$SCRATCH/out" "consumed_lost_from:"

# Without a commit there, nothing to say about groups; a group with the truncation's partition
# only in another __consumer_offsets partition is not listed (offsets_partitions says which).
expect_exit 1 "$KEPOCH" predict -o json --offsets "$F/broker-1/__consumer_offsets-0" --leader "$F/broker-2/f-0" "$F/broker-1/f-0"
n=$(json "$SCRATCH/out" "len({r['group'] for r in d['consumer_groups']['groups']})")
(( n > 0 && n < 24 )) || fail "one __consumer_offsets partition gave $n groups"

# Bad input: a dir with no __consumer_offsets, a missing one: one line, exit 3.
expect_exit 3 "$KEPOCH" predict --offsets "$F/broker-2" --leader "$F/broker-2/f-0" "$F/broker-1/f-0"
expect_in "$SCRATCH/err" "holds no __consumer_offsets partition"
[[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || fail "not one line"
expect_exit 3 "$KEPOCH" predict --offsets "$F/none" --leader "$F/broker-2/f-0" "$F/broker-1/f-0"
[[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || fail "not one line"
# A corrupt __consumer_offsets batch: the file and byte named.
mkdir -p "$SCRATCH/co/__consumer_offsets-0"
cp "$F/broker-1/__consumer_offsets-0/"* "$SCRATCH/co/__consumer_offsets-0/"
printf '\xff' | dd of="$SCRATCH/co/__consumer_offsets-0/00000000000000000000.log" bs=1 seek=70 conv=notrunc 2>/dev/null
expect_exit 3 "$KEPOCH" predict --offsets "$SCRATCH/co/__consumer_offsets-0" --leader "$F/broker-2/f-0" "$F/broker-1/f-0"
expect_in "$SCRATCH/err" "00000000000000000000.log"
[[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || fail "not one line"
cat "$SCRATCH/err"

# plan --offsets: the same groups under the plan's first-ranked leader. From flags (broker 1
# the ISR, broker 2 alive, unclean allowed) the plan waits for broker 1, whose log keeps the
# epoch-0 lineage every epoch-0 commit was read from: those groups are unchanged; commits
# without an epoch are taken as read from broker 2's records that broker 1 removes.
plan=(plan -o json --ids 1,2 --replicas 1,2 --isr 1 --alive 2 --unclean --offsets "$F/broker-1"
  "$F/broker-1/f-0" "$F/broker-2/f-0")
expect_exit 1 "$KEPOCH" "${plan[@]}"
python3 - "$SCRATCH/out" <<'PY' || fail "plan --offsets"
import json, sys
d = json.load(open(sys.argv[1]))
[g] = d["consumer_groups"]
assert (g["topic"], g["partition"], g["leader"]) == ("f", 0, 1), g["leader"]
rows = {(r["group"], r["auto_offset_reset"]): r for r in g["groups"]}
for name in ("j-inside-e0-none", "j-past-e0-none"):
    assert rows[(name, "none")]["action"] == "no_change", rows[(name, "none")]
r = rows[("j-inside-e1-none", "none")]
assert (r["action"], r["next_position"], r["skipped_unseen"]) == ("silent_skip", 15, 5), r
assert d["summary"].startswith("Consumer groups are affected in 1 partition(s)"), d["summary"]
PY
# Without --offsets, the plan is what it was: no consumer_groups.
expect_exit 0 "$KEPOCH" "${plan[@]:0:12}" "$F/broker-1/f-0" "$F/broker-2/f-0"
[[ $(json "$SCRATCH/out" "'consumer_groups' in d") == False ]] || fail "consumer_groups without --offsets"
