#!/usr/bin/env bash
# `kepoch cluster hanging` and `kepoch cluster groups`: their help, and the command lines they
# refuse before (exit 2) or while (exit 3, 4) reaching a cluster. What they find is judged by
# Kafka in tests/oracle/hanging-vs-kafka.sh (find-hanging) and
# tests/oracle/consumer-fate-vs-kafka.sh (kafka-consumer-groups --describe).
. "$(dirname "$0")/common.sh"

expect_exit 0 "$KEPOCH" cluster hanging --help
expect_in "$SCRATCH/out" "kepoch cluster hanging -b kafka-1:9092 --topic orders --max-transaction-timeout 0"
expect_in "$SCRATCH/out" "Exit status: 0 no transaction hangs"
expect_exit 0 "$KEPOCH" cluster groups --help
expect_in "$SCRATCH/out" "kepoch cluster groups -b kafka-1:9092"
expect_in "$SCRATCH/out" "Exit status: 0 read in full"
expect_exit 0 "$KEPOCH" cluster --help
expect_in "$SCRATCH/out" "hanging"
expect_in "$SCRATCH/out" "groups"

# Refused before any connection (a closed port would be exit 4).
expect_exit 2 "$KEPOCH" cluster hanging -b 127.0.0.1:1 --partition 0
expect_in "$SCRATCH/err" "--partition needs --topic"
expect_exit 2 "$KEPOCH" cluster hanging -b 127.0.0.1:1 --max-transaction-timeout -1
expect_exit 2 "$KEPOCH" cluster hanging -b 127.0.0.1:1 --max-transaction-timeout soon
expect_exit 2 "$KEPOCH" cluster hanging -b 127.0.0.1:1 --topic '('
expect_in "$SCRATCH/err" "--topic: not a regular expression"
expect_exit 2 "$KEPOCH" cluster groups -b 127.0.0.1:1 --group '('
expect_in "$SCRATCH/err" "--group: not a regular expression"

# An unreadable settings file is exit 3; a cluster that does not answer, exit 4.
expect_exit 3 "$KEPOCH" cluster hanging --command-config "$SCRATCH/missing.properties"
expect_exit 4 "$KEPOCH" cluster hanging -b 127.0.0.1:1 --timeout 2
expect_in "$SCRATCH/err" "127.0.0.1:1"
expect_exit 4 "$KEPOCH" cluster groups -b 127.0.0.1:1 --timeout 2
expect_in "$SCRATCH/err" "127.0.0.1:1"
echo "PASS"
