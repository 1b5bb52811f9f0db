#!/usr/bin/env bash
# Rules of ARCHITECTURE.md that a grep can hold (the source, not the binary):
#   - listing a directory is base/dir_listing's alone: no getdents64, readdir or
#     directory_iterator elsewhere in lib/ or apps/ (the Kafka-rule modules judge entries);
#   - the output format is a type (Globals::output, OutputFormat): never compared as text;
#   - truncation branches are TruncationBranch values, not char letters.
. "$(dirname "$0")/common.sh"
cd "$KEPOCH_SOURCE_DIR"

hits=$(grep -rnE 'getdents|readdir|opendir|directory_iterator' lib apps --include='*.cpp' --include='*.hpp' |
  grep -v '^lib/kepoch/base/dir_listing\.' | grep -vE '^[^:]+:[0-9]+: *//' || true)
[[ -z $hits ]] || fail "a directory listed outside base/dir_listing:
$hits"
hits=$(grep -rnE 'output *== *"|format_from_name\((globals|g)\.' apps lib --include='*.cpp' --include='*.hpp' || true)
[[ -z $hits ]] || fail "the output format compared as text (use OutputFormat / Globals::table_output):
$hits"
hits=$(grep -rnE "branch *(==|!=|>=|<=|=) *'[A-Z]'" lib apps --include='*.cpp' --include='*.hpp' || true)
[[ -z $hits ]] || fail "a truncation branch as a char (use TruncationBranch):
$hits"
echo "ok"
