#!/usr/bin/env bash
# `kepoch cluster what-if`: its help, and the command lines it refuses before (exit 2) or
# while (exit 3, 4) reaching a cluster. The forecasts themselves are judged by Kafka in
# tests/oracle/cluster-what-if-vs-kafka.sh.
. "$(dirname "$0")/common.sh"

expect_exit 0 "$KEPOCH" cluster what-if --help
expect_in "$SCRATCH/out" "kepoch cluster what-if -b kafka-1:9092 --stop 2"
expect_in "$SCRATCH/out" "Exit status: 0 no partition"
expect_in "$SCRATCH/out" "--kill"
expect_exit 0 "$KEPOCH" cluster --help
expect_in "$SCRATCH/out" "what-if"

# Refused before any connection (a closed port would be exit 4).
expect_exit 2 "$KEPOCH" cluster what-if -b 127.0.0.1:1
expect_in "$SCRATCH/err" "--stop"
expect_exit 2 "$KEPOCH" cluster what-if -b 127.0.0.1:1 --stop two
expect_exit 2 "$KEPOCH" cluster what-if -b 127.0.0.1:1 --stop -1
expect_exit 2 "$KEPOCH" cluster what-if -b 127.0.0.1:1 --stop 2,3,2
expect_in "$SCRATCH/err" "broker 2 is named twice"
expect_exit 2 "$KEPOCH" cluster what-if -b 127.0.0.1:1 --stop 2 --topic '('
expect_in "$SCRATCH/err" "--topic: not a regular expression"
expect_exit 2 "$KEPOCH" cluster what-if -b 127.0.0.1:1 --stop 2 --kil
expect_in "$SCRATCH/err" "did you mean '--kill'?"

# An unreadable settings file is exit 3; a cluster that does not answer, exit 4.
expect_exit 3 "$KEPOCH" cluster what-if --command-config "$SCRATCH/missing.properties" --stop 2
expect_exit 4 "$KEPOCH" cluster what-if -b 127.0.0.1:1 --timeout 2 --stop 2
expect_in "$SCRATCH/err" "127.0.0.1:1"
echo "PASS"
