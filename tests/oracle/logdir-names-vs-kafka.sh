#!/usr/bin/env bash
# Kafka as the judge of which directory names a log dir may hold (storage/log_dir.hpp): for
# each name UnifiedLog.parseTopicPartitionName refuses (lost+found, t-abc, -0, a partition
# past Integer.MAX_VALUE), `kepoch logdir scan` reports an error (exit 1) quoting Kafka's
# KafkaException, and a real broker started on that log dir refuses to start with that very
# message in its log; with the directory gone, the broker starts and the scan is clean.
. "$(dirname "$0")/common.sh"
cluster_up
"$KC" create-topic names --assignment 1:2:3 >/dev/null
"$KC" produce names 20 --acks all >/dev/null
LOGDIR="$("$KC" logdir 3)"
LOG="$KEPOCH_CLUSTER_DIR/broker-3/server.log"
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
