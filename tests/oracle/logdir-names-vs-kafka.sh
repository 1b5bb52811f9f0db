#!/usr/bin/env bash
# Kafka as the judge of which directory names a log dir may hold (storage/log_dir.hpp): for
# each name UnifiedLog.parseTopicPartitionName refuses (lost+found, t-abc, -0, a partition
# past Integer.MAX_VALUE), `kepoch logdir scan` reports an error (exit 1) quoting Kafka's
# KafkaException, and a real broker started on that log dir refuses to start with that very
# message in its log; with the directory gone, the broker starts and the scan is clean.
# Then the same partition in two log dirs of the broker (log.dirs=data,data2, both holding
# names-0 with its topic id): `kepoch logdir scan data data2` reports LogManager.loadLog's
# IllegalStateException "Duplicate log directories for names-0 are found in both ..." as an
# error (exit 1), and the broker refuses to start with that message.
# First, `logdir snapshot` of a broker's log dir while the broker runs and takes writes.
. "$(dirname "$0")/common.sh"
cluster_up
"$KC" create-topic names --assignment 1:2:3 >/dev/null
"$KC" produce names 20 --acks all >/dev/null
LOGDIR="$("$KC" logdir 3)"
LOG="$KEPOCH_CLUSTER_DIR/broker-3/server.log"

# docs/broker-hosts.md's gathering loop snapshots the log dirs of running brokers. Broker 3's, again
# and again while a producer writes to names-0 beside it: every snapshot is taken read-only
# (strace: nothing under the log dir opened for writing, locked, renamed, unlinked or made)
# and holds names-0 with a log end between the end offsets before and after the writes.
ro_require_strace
before=$("$KC" end-offset names 0)
# Four producers one after the other: the log grows in steps while snapshots are taken.
(for i in 0 1 2 3; do
  "$KC" produce names 500 --acks all --prefix "live$i" --linger-ms 1 >/dev/null || exit 1
done) &
producer=$!
snaps=0
while kill -0 "$producer" 2>/dev/null || ((snaps == 0)); do
  snaps=$((snaps + 1))
  rc=0
  ro_traced "$SCRATCH/live-$snaps.trace" "$KEPOCH" logdir snapshot "$LOGDIR" \
    --file "$SCRATCH/live-$snaps.snap" 2>"$SCRATCH/live-$snaps.err" || rc=$?
  ((rc <= 1)) || fail "snapshot $snaps of a running broker exited $rc: $(cat "$SCRATCH/live-$snaps.err")"
done
wait "$producer" || fail "the producer beside the snapshots failed"
after=$("$KC" end-offset names 0)
ro_check_traces "$LOGDIR" "$SCRATCH"/live-*.trace >/dev/null
inside=$(python3 - "$before" "$after" "$SCRATCH"/live-*.snap <<'PY'
import json, sys
before, after, inside = int(sys.argv[1]), int(sys.argv[2]), 0
for path in sys.argv[3:]:
    lines = [json.loads(l) for l in open(path)]
    assert lines[0]["format"] == "kepoch-logdir-snapshot", f"{path}: first line {lines[0]}"
    ends = [l["replica"]["log_end_offset"] for l in lines
            if "replica" in l and l["replica"]["name"] == "names-0"]
    assert len(ends) == 1, f"{path}: names-0 {len(ends)} times"
    assert before <= ends[0] <= after, f"{path}: names-0 ends at {ends[0]}, outside {before}..{after}"
    inside += before < ends[0] < after
print(inside)
PY
) || fail "a snapshot of the running broker is not what its log held"
((inside > 0)) || fail "none of the $snaps snapshots was taken while the log grew (names-0 $before..$after)"
echo "ok: $snaps snapshots of broker 3 while it took writes ($inside of them mid-way), read-only, names-0 within $before..$after"
"$KC" term 3 >/dev/null

expect_exit 0 "$KEPOCH" logdir scan "$LOGDIR"
echo "ok: broker 3's log dir scans clean"

for name in "lost+found" "t-abc" "-0" "t-2147483648"; do
  mkdir -- "$LOGDIR/$name"
  expect_exit 1 "$KEPOCH" logdir scan "$LOGDIR"
  expect_in "$SCRATCH/err" "$LOGDIR/$name: error: Kafka does not start on this log dir"
  expect_in "$SCRATCH/err" "'$name' is not in the form of topic-partition or topic-partition.uniqueId-delete"
  if "$KC" start 3 >"$SCRATCH/start.log" 2>&1; then
    fail "$name: broker 3 started on a log dir kepoch says it does not start on"
  fi
  grep -qF "'$name' is not in the form of topic-partition" "$LOG" ||
    { tail -n 40 "$LOG"; fail "$name: broker 3 did not start, but not for the directory's name"; }
  grep -qF "Error starting LogManager" "$LOG" ||
    { tail -n 40 "$LOG"; fail "$name: no \"Error starting LogManager\" in broker 3's log"; }
  echo "ok: $name: kepoch reports an error, Kafka refuses to start"
  rmdir -- "$LOGDIR/$name"
done

"$KC" start 3 >/dev/null
"$KC" term 3 >/dev/null
expect_exit 0 "$KEPOCH" logdir scan "$LOGDIR"
echo "ok: without them broker 3 starts, and the scan is clean"

# A second log dir for broker 3: its meta.properties as Kafka formats one (same cluster and
# node, its own directory.id), and a copy of names-0.
LOGDIR2="$LOGDIR-2"
mkdir "$LOGDIR2"
python3 - "$LOGDIR/meta.properties" "$LOGDIR2/meta.properties" <<'PY'
import base64, os, sys
lines = open(sys.argv[1]).read().splitlines()
new = base64.urlsafe_b64encode(os.urandom(16)).rstrip(b'=').decode()
out = [('directory.id=' + new) if l.startswith('directory.id=') else l for l in lines]
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
PY
cp -r "$LOGDIR/names-0" "$LOGDIR2/"
PROPS="$KEPOCH_CLUSTER_DIR/broker-3/server.properties"
cp "$PROPS" "$SCRATCH/server.properties.orig"
sed -i "s|^log.dirs=.*|log.dirs=$LOGDIR,$LOGDIR2|" "$PROPS"
expect_exit 1 "$KEPOCH" logdir scan "$LOGDIR" "$LOGDIR2"
expect_in "$SCRATCH/err" "$LOGDIR2/names-0: error: Kafka does not start while names-0 is assigned to broker 3"
expect_in "$SCRATCH/err" "Duplicate log directories for names-0 are found in both"
if "$KC" start 3 >"$SCRATCH/start.log" 2>&1; then
  fail "broker 3 started with names-0 in two of its log dirs"
fi
grep -qF "Duplicate log directories for names-0 are found in both" "$LOG" ||
  { tail -n 40 "$LOG"; fail "broker 3 did not start, but not for the duplicate partition"; }
echo "ok: names-0 in two log dirs: kepoch reports an error, Kafka refuses to start"
cp "$SCRATCH/server.properties.orig" "$PROPS"
rm -rf "$LOGDIR2"
