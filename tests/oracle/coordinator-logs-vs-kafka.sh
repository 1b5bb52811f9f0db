#!/usr/bin/env bash
# Kafka's own DumpLogSegments --offsets-decoder and --transaction-log-decoder as the oracle for
# `kepoch segment dump --records` on the coordinators' logs, written now by the Kafka under
# test (KEPOCH_KAFKA_VERSION: the default 4.4.0; 3.9.1 as its own CTest test). One cluster
# serves both logs: CoordinatorWorkload.java (Kafka's own clients) makes a classic group
# commit offsets with leader epochs and metadata (GroupMetadata with the consumer protocol's
# subscription and assignment), a group without members commit, lose one offset
# (OffsetDelete) and be deleted (tombstones), transactional offset commits, and on 4.x a
# KIP-848 consumer group (group.protocol=consumer: ConsumerGroup* records and their
# tombstones when the member leaves) and one subscribed by a regular expression; then a
# committed, an aborted and an ongoing transaction. After a graceful stop, every segment of
# __consumer_offsets and __transaction_state on every broker: each data record Kafka decodes
# is in kepoch's dump with the same type, key, value version and every field
# (compare_coordinator.py), kepoch decodes no record Kafka does not, and reports no problem.
# The YAML and table outputs carry the same decode, and --decode reads standard input alike.
. "$(dirname "$0")/common.sh"
. "$KEPOCH_SOURCE_DIR/tests/kafka/kafka-version"
cluster_up
KHOME="$("$KEPOCH_SOURCE_DIR/tests/kafka/fetch-kafka" --home)"
mkdir -p "$SCRATCH/classes"
javac -nowarn -cp "$KHOME/libs/*" -d "$SCRATCH/classes" "$(dirname "$0")/CoordinatorWorkload.java" 2>/dev/null ||
  fail "javac of CoordinatorWorkload.java failed"
kip848=false
[[ ${KEPOCH_KAFKA_VERSION%%.*} -ge 4 ]] && kip848=true
java -Xshare:auto -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData \
  -Dlog4j2.configurationFile="file:$KHOME/log4j2-tools.properties" \
  -cp "$KHOME/libs/*:$SCRATCH/classes" CoordinatorWorkload "$KEPOCH_BOOTSTRAP" "$kip848" \
  > "$SCRATCH/workload.out" 2>&1 || { cat "$SCRATCH/workload.out"; fail "the workload failed"; }
"$KC" down --graceful >/dev/null

failed=0
check() {  # check LOG DECODER PREFIX REQUIRED_TYPES...
  local log=$1 decoder=$2 prefix=$3 n files=()
  shift 3
  for n in 1 2 3; do files+=("$("$KC" logdir "$n")"/"$prefix"-*/*.log); done
  expect_exit 0 "$KEPOCH" segment dump -o json --records "${files[@]}"
  cp "$SCRATCH/out" "$SCRATCH/$log.json"
  "$KC" dump-log "$decoder" --files "$(IFS=,; echo "${files[*]}")" > "$SCRATCH/$log.txt" ||
    fail "DumpLogSegments $decoder failed"
  python3 "$(dirname "$0")/compare_coordinator.py" "$SCRATCH/$log.json" "$SCRATCH/$log.txt" "$log" \
    --min-records 20 --require "$@" || failed=1
}
offsets_types=(offset_commit group_metadata)
if [[ $kip848 == true ]]; then
  offsets_types+=(consumer_group_metadata consumer_group_member_metadata
    consumer_group_target_assignment_metadata consumer_group_target_assignment_member
    consumer_group_current_member_assignment consumer_group_regular_expression)
fi
check offsets --offsets-decoder __consumer_offsets "${offsets_types[@]}"
check transactions --transaction-log-decoder __transaction_state transaction_log
[[ $failed -eq 0 ]] || fail "kepoch and DumpLogSegments disagree"

# KEPOCH_COORDINATOR_FIXTURES=DIR: keep broker 1's segments and Kafka's decode of them as the
# unit tests' fixtures (tests/data/coordinator/<version>: remade by running this with it set).
if [[ -n ${KEPOCH_COORDINATOR_FIXTURES:-} ]]; then
  out="$KEPOCH_COORDINATOR_FIXTURES/$KEPOCH_KAFKA_VERSION"
  rm -rf "$out" && mkdir -p "$out"
  b1="$("$KC" logdir 1)"
  for d in "$b1"/__consumer_offsets-* "$b1"/__transaction_state-*; do
    for f in "$d"/*.log; do [[ -s $f ]] && { mkdir -p "$out/${d##*/}"; cp "$f" "$out/${d##*/}/"; }; done
  done
  ( cd "$out" && "$KC" dump-log --offsets-decoder --files "$(ls -d __consumer_offsets-*/*.log | paste -sd,)" > offsets-dump-log.txt &&
    "$KC" dump-log --transaction-log-decoder --files "$(ls -d __transaction_state-*/*.log | paste -sd,)" > transactions-dump-log.txt ) ||
    fail "DumpLogSegments on the fixtures failed"
fi

# What the workload must have left, or the comparison proves little: offsets with leader
# epochs and metadata, tombstones, a classic member's decoded subscription, and the three
# transactions' last states (the ongoing one still Ongoing).
python3 - "$SCRATCH/offsets.json" "$SCRATCH/transactions.json" "$kip848" <<'PY' || fail "the logs lack what the workload wrote"
import json, sys
recs = lambda f: [r["coordinator"] for item in json.load(open(f)) for b in item["batches"]
                  for r in b.get("records", []) if "coordinator" in r]
offsets, txns = recs(sys.argv[1]), recs(sys.argv[2])
commits = [r for r in offsets if r["type"] == "offset_commit" and r["value"]]
assert any(r["value"]["metadata"] == "classic-meta" and r["value"]["leader_epoch"] >= 0 for r in commits), commits[:3]
assert any(r["type"] == "offset_commit" and r["value"] is None and r["key"]["group"] == "manual-group" for r in offsets)
members = [m for r in offsets if r["type"] == "group_metadata" and r["value"] for m in r["value"]["members"]]
assert any(m["subscription"]["topics"] == ["orders"] for m in members), members
if sys.argv[3] == "true":  # 4.x: DeleteGroups also tombstones a group without members
    assert any(r["type"] == "group_metadata" and r["value"] is None and r["key"]["group"] == "manual-group" for r in offsets)
    assert any(r["type"] == "consumer_group_member_metadata" and r["value"] is None for r in offsets)
    assert any(r["key"].get("group") == "kip848-group" and r["type"] == "offset_commit" for r in offsets)
last = {}
for r in txns:
    last[r["key"]["transactional_id"]] = r["value"]["transaction_state"]
assert last == {"tx-commit": "CompleteCommit", "tx-abort": "CompleteAbort", "tx-ongoing": "Ongoing"}, last
PY

# Every output format decodes: YAML holds the same records, the table shows each record's
# decode, and standard input is read with --decode.
f=""
for g in "$("$KC" logdir 1)"/__transaction_state-*/*.log; do [[ -s $g ]] && { f=$g; break; }; done
[[ -n $f ]] || fail "no __transaction_state segment with records on broker 1"
expect_exit 0 "$KEPOCH" segment dump -o yaml --records "$f"
python3 -c '
import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
j = [r for x in json.load(open(sys.argv[2])) if x["file"] == sys.argv[3] for b in x["batches"] for r in b["records"]]
ys = [r for x in y for b in x["batches"] for r in b["records"]]
strip = lambda v: {k: strip(x) for k, x in v.items() if not k.endswith("_iso")} if isinstance(v, dict) else [strip(x) for x in v] if isinstance(v, list) else v
assert [strip(r["coordinator"]) for r in ys] == [strip(r["coordinator"]) for r in j], "YAML and JSON differ"
assert ys, "no records in YAML"
' "$SCRATCH/out" "$SCRATCH/transactions.json" "$f" || fail "the YAML dump differs from the JSON"
expect_exit 0 "$KEPOCH" segment dump --records "$f"
expect_in "$SCRATCH/out" "transaction_log"
expect_exit 0 "$KEPOCH" segment dump -o json --records --decode transactions - < "$f"
python3 -c '
import json, sys
a = [r["coordinator"] for x in json.load(open(sys.argv[1])) for b in x["batches"] for r in b["records"]]
b = [r["coordinator"] for x in json.load(open(sys.argv[2])) if x["file"] == sys.argv[3] for b in x["batches"] for r in b["records"]]
assert a and a == b, "standard input decodes differently"
' "$SCRATCH/out" "$SCRATCH/transactions.json" "$f" || fail "--decode on standard input differs"
echo "ok: coordinator logs of Kafka $KEPOCH_KAFKA_VERSION decoded as DumpLogSegments decodes them"
