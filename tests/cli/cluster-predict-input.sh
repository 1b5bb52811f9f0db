#!/usr/bin/env bash
# `cluster predict` judges its inputs before it reaches for a cluster: a missing --log-dir is
# a usage error (2), an unreadable log dir an input error naming it (3), a log dir without
# meta.properties asks for --broker (2); with both, an unreachable cluster is one line and
# exit 4 within --timeout. The log dir is left as it was (read-only).
. "$(dirname "$0")/common.sh"

expect_exit 2 "$KEPOCH" cluster predict -b 127.0.0.1:1
expect_in "$SCRATCH/err" "--log-dir"

expect_exit 3 "$KEPOCH" cluster predict -b 127.0.0.1:1 --log-dir "$SCRATCH/no-such-dir"
expect_in "$SCRATCH/err" "$SCRATCH/no-such-dir"

# A copy of a real Kafka log dir whose meta.properties was not kept.
cp -a "$DATA/divergence/before/broker-1" "$SCRATCH/logdir"
before=$(cd "$SCRATCH/logdir" && find . -printf '%p %s %T@\n' | sort | md5sum)
expect_exit 2 "$KEPOCH" cluster predict -b 127.0.0.1:1 --log-dir "$SCRATCH/logdir"
expect_in "$SCRATCH/err" "give it with --broker"

# Port 1 on loopback refuses at once; the error is one line and names the address.
expect_exit 4 "$KEPOCH" cluster predict -b 127.0.0.1:1 --timeout 3 --log-dir "$SCRATCH/logdir" --broker 1
expect_in "$SCRATCH/err" "127.0.0.1:1"
[[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || fail "expected one error line: $(cat "$SCRATCH/err")"
after=$(cd "$SCRATCH/logdir" && find . -printf '%p %s %T@\n' | sort | md5sum)
[[ "$before" == "$after" ]] || fail "cluster predict changed the log dir"
