#!/usr/bin/env bash
# Several real-Kafka scenarios in turn on one KRaft cluster (tests/CMakeLists.txt registers
# it, not the glob of scenarios): a cluster's start is the dearest step of a scenario on this
# 2-core machine, and the Kafka 3.9.1 variants of the outage scenarios need no cluster each.
#
#   run-on-one-cluster.sh SCENARIO...   (tests/oracle/SCENARIO.sh, e.g. hanging-vs-kafka)
#
# Each scenario runs as its own process (its own scratch, its own topics) with
# KEPOCH_SHARED_CLUSTER naming the cluster: its cluster_up (common.sh) restarts the brokers
# the scenario before it killed, resumes those it stopped and waits until every broker is
# back in the ISR of the coordinators' logs. The first scenario that fails ends the run (the
# cluster's data kept); each scenario's time is printed.
. "$(dirname "$0")/common.sh"
(($#)) || fail "usage: run-on-one-cluster.sh SCENARIO..."
here="$(cd "$(dirname "$0")" && pwd)"
for s in "$@"; do [[ -f $here/$s.sh ]] || fail "no scenario tests/oracle/$s.sh"; done
t0=$(date +%s)
cluster_up
echo "== cluster up in $(( $(date +%s) - t0 )) s (Kafka ${KEPOCH_KAFKA_VERSION:-default})"
for s in "$@"; do
  t1=$(date +%s)
  echo "== $s"
  KEPOCH_SHARED_CLUSTER="$KEPOCH_CLUSTER_DIR" bash "$here/$s.sh" || fail "$s failed on the shared cluster"
  echo "== $s passed in $(( $(date +%s) - t1 )) s"
done
echo "== all $# scenarios passed in $(( $(date +%s) - t0 )) s"
