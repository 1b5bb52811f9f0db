#!/usr/bin/env bash
# `kepoch salvage` and `kepoch replay` offline, on the divergence fixture (Kafka 4.1.1): after
# the unclean election broker 1 truncates to 5 and loses b-0..2 (Kafka's own truncation line,
# tests/data/divergence/truncation.log); salvage archives exactly those three records, byte
# for byte, and says so first; the archive's refusals (inside a log dir, over an input), a
# snapshot follower (no record bytes), nothing removed, and replay's checks of an archive
# (dry run, cut short, no cluster given). The real-Kafka side: tests/oracle/salvage-vs-kafka.sh.
. "$(dirname "$0")/common.sh"

B="$DATA/divergence/before"
A="$SCRATCH/d-0.salvage.jsonl"

expect_exit 1 "$KEPOCH" salvage --archive "$A" --leader "$B/broker-2/d-0" "$B/broker-1/d-0" "$B/broker-3/d-0"
head -n1 "$SCRATCH/out" | grep -q "^All 3 records removed would be lost and are not on the new leader: kept in" ||
  fail "the verdict does not open the table: $(head -n2 "$SCRATCH/out")"
python3 - "$A" <<'PY' || fail "the archive is not broker 1's b-0..2"
import base64, json, sys
lines = open(sys.argv[1]).read().splitlines()
assert json.loads(lines[0])["format"] == "kepoch-salvage-archive"
rows = [json.loads(l) for l in lines[1:-1]]
assert json.loads(lines[-1]) == {"end": {"records": 3}}
assert [(r["offset"], base64.b64decode(r["key"]), base64.b64decode(r["value"])) for r in rows] == \
    [(5 + i, f"b-{i}".encode(), f"b-value-{i}".encode()) for i in range(3)], rows
for r in rows:
    assert r["class"] == "data" and r["producer_id"] == -1 and r["leader_epoch"] == 0, r
    assert r["on_new_leader"] == {"present": False, "by": None, "certainty": "certain"}, r
    assert r["committed"] is None, r  # an unclean leader, a crashed follower: not ruled out
    assert r["replica"].endswith("broker-1/d-0")
PY
# The same with --elect (Kafka's unclean election chose broker 2), and as JSON.
expect_exit 1 "$KEPOCH" salvage -o json --archive "$SCRATCH/e.jsonl" --elect --unclean --ids 1,2,3 \
  --isr 1 --alive 2,3 "$B"/broker-{1,2,3}/d-0
[[ $(json "$SCRATCH/out" "(d['totals']['records'], d['totals']['to_replay'], d['partitions'][0]['replicas'][0]['truncate_to'])") == "(3, 3, 5)" ]] ||
  fail "elect: $(cat "$SCRATCH/out")"
cmp <(sed 1d "$A") <(sed 1d "$SCRATCH/e.jsonl") || fail "--elect archived other records than --leader"

# Nothing removed: exit 0, an archive with no records.
C="$DATA/clean-3replica"
expect_exit 0 "$KEPOCH" salvage --archive "$SCRATCH/none.jsonl" --leader "$C/broker-1/t-0" "$C/broker-2/t-0"
expect_in "$SCRATCH/out" "No record is removed"
[[ $(sed -n 2p "$SCRATCH/none.jsonl") == '{"end":{"records":0}}' ]] || fail "empty archive: $(cat "$SCRATCH/none.jsonl")"

# Where the archive may not go: inside a log dir, over an input, over a file kepoch did not write.
expect_exit 2 "$KEPOCH" salvage --archive "$B/broker-1/x.jsonl" --leader "$B/broker-2/d-0" "$B/broker-1/d-0"
expect_in "$SCRATCH/err" "inside the log dir"
expect_exit 2 "$KEPOCH" salvage --archive "$B/broker-1/d-0/00000000000000000000.log" --leader "$B/broker-2/d-0" "$B/broker-1/d-0"
echo "not an archive" >"$SCRATCH/mine.txt"
expect_exit 2 "$KEPOCH" salvage --archive "$SCRATCH/mine.txt" --leader "$B/broker-2/d-0" "$B/broker-1/d-0"
[[ $(cat "$SCRATCH/mine.txt") == "not an archive" ]] || fail "a file kepoch did not write was replaced"
# Its own archive is replaced without asking.
expect_exit 1 "$KEPOCH" salvage --archive "$A" --leader "$B/broker-2/d-0" "$B/broker-1/d-0"

# A snapshot keeps no record bytes: the follower must be its replica dir.
"$KEPOCH" logdir snapshot "$B/broker-1" --file "$SCRATCH/b1.snap" >/dev/null
expect_exit 3 "$KEPOCH" salvage --archive "$SCRATCH/s.jsonl" --leader "$B/broker-2/d-0" "$SCRATCH/b1.snap:d-0"
expect_in "$SCRATCH/err" "a snapshot keeps no record bytes"
[[ ! -e $SCRATCH/s.jsonl ]] || fail "a failed salvage left an archive"
# A snapshot leader: whether it holds the records is unknown, never "not present".
"$KEPOCH" logdir snapshot "$B/broker-2" --file "$SCRATCH/b2.snap" >/dev/null
expect_exit 1 "$KEPOCH" salvage -o json --archive "$SCRATCH/s.jsonl" --leader "$SCRATCH/b2.snap:d-0" "$B/broker-1/d-0"
[[ $(json "$SCRATCH/out" "(d['totals']['on_new_leader_unknown'], d['partitions'][0]['leader_read'])") == "(3, False)" ]] ||
  fail "snapshot leader: $(cat "$SCRATCH/out")"

# replay: a dry run counts without a cluster; without one it refuses; a cut archive is refused.
expect_exit 0 "$KEPOCH" replay -o json --dry-run "$A"
[[ $(json "$SCRATCH/out" "(d['selected'], d['delivered'], d['dry_run'])") == "(3, 0, True)" ]] || fail "dry run: $(cat "$SCRATCH/out")"
expect_exit 0 "$KEPOCH" replay --dry-run "$A"
head -n1 "$SCRATCH/out" | grep -q "^Dry run: 3 records would be replayed" || fail "dry-run verdict: $(head -n1 "$SCRATCH/out")"
expect_exit 2 "$KEPOCH" replay "$A"
expect_in "$SCRATCH/err" "no bootstrap servers"
head -n3 "$A" >"$SCRATCH/cut.jsonl"
expect_exit 3 "$KEPOCH" replay --dry-run "$SCRATCH/cut.jsonl"
expect_in "$SCRATCH/err" "cut.jsonl:4:"
expect_in "$SCRATCH/err" "without its end line"
expect_exit 3 "$KEPOCH" replay --dry-run "$B/broker-1/replication-offset-checkpoint"
expect_in "$SCRATCH/err" "not a salvage archive"
echo "salvage and replay: offline checks pass"
