#!/usr/bin/env bash
# A metadata log that a live KRaft cluster cleans itself (snapshots every 3 s, segments every
# 2 s, retention 5 s; tests/data/gen-metadata-snapshot runs the scenario): once Kafka has
# deleted the segments that created the topics, `kepoch metadata history` on a read-only copy
# of the controller's __cluster_metadata-0 starts from the oldest snapshot kept and must
# agree with what the live cluster reports (leader, ISR, replicas per partition, and the
# leader epoch the brokers logged), with Kafka's DumpLogSegments decoding of that snapshot
# and of the log after it, and `partition inspect --metadata` with the leader's epoch cache:
# the checks of tests/cli/metadata-snapshot.sh, run on this fresh copy instead of the
# committed fixture.
. "$(dirname "$0")/common.sh"
"$KEPOCH_SOURCE_DIR/tests/data/gen-metadata-snapshot" "$SCRATCH/gen" ||
  fail "gen-metadata-snapshot failed"
KEPOCH_METADATA_SNAPSHOT="$SCRATCH/gen/metadata-snapshot" \
  bash "$KEPOCH_SOURCE_DIR/tests/cli/metadata-snapshot.sh" ||
  fail "kepoch disagrees with the live cluster's metadata log (kept: $SCRATCH/gen)"
