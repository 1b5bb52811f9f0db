#!/bin/sh
# kepoch plan: the steps to carry the plan out with Kafka's own tools. kepoch changed
# nothing; read each step, then run this script or the commands one by one.
# Needs KAFKA_HOME (a Kafka install) and BOOTSTRAP (host:port of a live broker).
set -eu
: "${KAFKA_HOME:?set KAFKA_HOME}" "${BOOTSTRAP:?set BOOTSTRAP}"
cd "$(dirname "$0")"

# 1. Put the chosen replica first in 1 partition(s) (reassignment.json; through the Admin API,
#    since kafka-reassign-partitions refuses brokers that are down).
BOOTSTRAP="$BOOTSTRAP" jshell --class-path "$(printf '%s:' "$KAFKA_HOME"/libs/*.jar)" reorder.jsh

# 2. Unclean election of the chosen live replica in 1 partition(s).
"$KAFKA_HOME/bin/kafka-leader-election.sh" --bootstrap-server "$BOOTSTRAP" ${COMMAND_CONFIG:+--admin.config "$COMMAND_CONFIG"} \
  --election-type UNCLEAN --path-to-json-file elect-now.json

# 3. Start the other stopped broker(s): 4.
echo 'start broker(s) 4 now'
