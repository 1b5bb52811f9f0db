#!/usr/bin/env bash
# `./dev demo` tells the outage story of the bundled fixtures in one screen (issue 38): its
# demo_run, on this build, prints each command's verdict under its question and ends with the
# recovery plan's verdict and the pictures' paths, pages that exist. (`./dev demo` itself
# also installs packages and builds the release preset: too slow to repeat here.)
. "$(dirname "$0")/common.sh"
cd "$KEPOCH_SOURCE_DIR"
say() { printf '==> %s\n' "$*"; }
eval "$(sed -n '/^demo_run() {/,/^}/p' dev)"
declare -F demo_run >/dev/null || fail "./dev has no demo_run function"
TMPDIR="$SCRATCH" demo_run "$KEPOCH" >"$SCRATCH/demo" 2>&1 || { cat "$SCRATCH/demo"; fail "demo_run failed"; }
cat "$SCRATCH/demo"
lines=$(grep -c . "$SCRATCH/demo")
((lines <= 24)) || fail "the demo takes $lines lines, more than one screen"
# Each question is followed by that command's verdict: its table's first line (the plan: its JSON summary).
[[ $(grep -c '^==> ' "$SCRATCH/demo") == 4 ]] || fail "not four steps"
d=tests/data/divergence/before
first_line() { "$KEPOCH" "$@" 2>/dev/null | head -1 || true; }
grep -qxF "$(first_line diff "$d"/broker-{1,2,3}/d-0)" "$SCRATCH/demo" || fail "no diff verdict"
grep -qxF "$(first_line predict --leader "$d/broker-2/d-0" "$d/broker-1/d-0")" "$SCRATCH/demo" ||
  fail "no predict verdict"
plan_json=$("$KEPOCH" plan -o json --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "$d"/broker-{1,2,3}/d-0 || true)
plan_verdict=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["summary"])' "$plan_json")
shown=$(sed -n '/^==> Broker 1/,/^==> The pictures/p' "$SCRATCH/demo" | sed '1d;$d' |
  sed -E 's/^verdict +//; s/^ +//' | tr '\n' ' ' | sed 's/ $//')
[[ $shown == "$plan_verdict" ]] || fail "the plan's verdict shown: '$shown', its JSON: '$plan_verdict'"
# The last line names the pictures, and they are there.
last=$(tail -1 "$SCRATCH/demo")
for page in "$SCRATCH/kepoch-demo/d-0.html" "$SCRATCH/kepoch-demo/plan.html"; do
  [[ $last == *"$page"* ]] || fail "the last line does not name $page: $last"
  grep -q '<svg' "$page" || fail "$page holds no picture"
done
echo "ok: the demo in $lines lines, ending with the plan's verdict and the pictures"
