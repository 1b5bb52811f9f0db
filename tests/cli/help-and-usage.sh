#!/usr/bin/env bash
# Every command's --help shows an example; bad command lines exit 2.
. "$(dirname "$0")/common.sh"

expect_exit 0 "$KEPOCH" --help
expect_in "$SCRATCH/out" "Examples:"
for sub in "checkpoint dump" "checkpoint validate"; do
  # shellcheck disable=SC2086
  expect_exit 0 "$KEPOCH" $sub --help
  expect_in "$SCRATCH/out" "Examples:"
  expect_in "$SCRATCH/out" "kepoch $sub"
done
expect_exit 0 "$KEPOCH" --version
expect_in "$SCRATCH/out" "kepoch "

expect_exit 2 "$KEPOCH"
expect_exit 2 "$KEPOCH" nosuchcommand
expect_exit 2 "$KEPOCH" checkpoint validate
expect_exit 2 "$KEPOCH" checkpoint validate -o xml /dev/null
expect_exit 2 "$KEPOCH" checkpoint validate --kind nosuchkind /dev/null

# A typo gets the closest subcommand or flag, at the level where it was typed; exit 2.
expect_exit 2 "$KEPOCH" chekpoint validate x
expect_in "$SCRATCH/err" "'chekpoint' is unknown; did you mean 'checkpoint'?"
expect_exit 2 "$KEPOCH" checkpoint dumpp x
expect_in "$SCRATCH/err" "did you mean 'dump'?"
expect_exit 2 "$KEPOCH" predict --modee fetch --leader a b
expect_in "$SCRATCH/err" "'--modee' is unknown; did you mean '--mode'?"
expect_exit 2 "$KEPOCH" checkpoint validate --stirct x
expect_in "$SCRATCH/err" "did you mean '--strict'?"
expect_exit 2 "$KEPOCH" zzzzzzzz
expect_not_in "$SCRATCH/err" "did you mean"
# ... and only that: CLI11's own line for it named what was missing, not what was mistyped.
expect_exit 2 "$KEPOCH" chekpoint validate x
expect_not_in "$SCRATCH/err" "A subcommand is required"
expect_exit 2 "$KEPOCH" checkpoint dumpp x
expect_not_in "$SCRATCH/err" "A subcommand is required"
[[ $(wc -l <"$SCRATCH/err") -eq 2 ]] || fail "a typo takes more than the suggestion and the --help hint"
# Range errors are short (PositiveNumber printed DBL_MAX's 310 digits).
expect_exit 2 "$KEPOCH" cluster describe -b localhost:1 --timeout 0
[[ $(wc -c <"$SCRATCH/err") -lt 200 ]] || fail "--timeout 0: $(cat "$SCRATCH/err")"
