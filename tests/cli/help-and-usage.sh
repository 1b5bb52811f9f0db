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
