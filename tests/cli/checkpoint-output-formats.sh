#!/usr/bin/env bash
# JSON and YAML are always an array of file objects; table output sends problems to
# stderr as "file:line: severity: message".
. "$(dirname "$0")/common.sh"

f="$SCRATCH/leader-epoch-checkpoint"
printf '0\n3\n0 0\n2 5\n1 9\n' > "$f"

expect_exit 0 "$KEPOCH" checkpoint validate -o json "$f"
[[ $(json "$SCRATCH/out" "type(d).__name__") == list ]] || fail "JSON is not an array"
[[ $(json "$SCRATCH/out" "d[0]['kind']") == leader-epoch ]] || fail "kind"
[[ $(json "$SCRATCH/out" "d[0]['valid']") == True ]] || fail "valid"
[[ $(json "$SCRATCH/out" "d[0]['kafka_outcome']") == ok ]] || fail "kafka_outcome"
[[ $(json "$SCRATCH/out" "[(e['epoch'],e['start_offset']) for e in d[0]['loaded_entries']]") == "[(0, 0), (1, 9)]" ]] ||
  fail "loaded_entries: $(json "$SCRATCH/out" "d[0]['loaded_entries']")"
[[ $(json "$SCRATCH/out" "[p['line'] for p in d[0]['problems']]") == "[5]" ]] || fail "problem lines"

expect_exit 0 "$KEPOCH" checkpoint dump -o json "$f"
[[ $(json "$SCRATCH/out" "len(d[0]['entries'])") == 3 ]] || fail "dump entries"

expect_exit 0 "$KEPOCH" checkpoint validate -o yaml "$f"
expect_in "$SCRATCH/out" "- summary: \"$f is readable (3 epoch entries) with 1 warning"
expect_in "$SCRATCH/out" "  file: $f"
expect_in "$SCRATCH/out" "kafka_outcome: ok"

expect_exit 0 "$KEPOCH" checkpoint validate "$f"
expect_in "$SCRATCH/out" "EPOCH  START_OFFSET"
expect_in "$SCRATCH/err" "$f:5: warning: epoch 1 is not greater than the previous epoch 2"
expect_not_in "$SCRATCH/out" "warning:"
expect_not_in "$SCRATCH/out" $'\033['   # no colour when not a terminal

# -o may come before the subcommand too.
expect_exit 0 "$KEPOCH" -o json checkpoint dump "$f"
[[ $(json "$SCRATCH/out" "d[0]['file']") == "$f" ]] || fail "global -o"
