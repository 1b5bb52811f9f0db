#!/usr/bin/env bash
# Every `kepoch` command in the README's ```sh blocks runs, from the repo root, on the bundled
# data: exit 0 or 1 (1: findings, e.g. replicas that differ), never a usage error (2) or an
# unreadable input (3), and never a crash. Pipes into jq are followed when jq is installed.
. "$(dirname "$0")/common.sh"

cd "$KEPOCH_SOURCE_DIR"
python3 - README.md >"$SCRATCH/commands" <<'PY'
import sys
lines, block, out = open(sys.argv[1]).read().splitlines(), False, []
for line in lines:
    if line.startswith("```"):
        block = line == "```sh"
        continue
    if block:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1] + " " + line.strip()
        else:
            out.append(line)
for cmd in out:
    cmd = cmd.split("  #")[0].strip()
    if cmd.startswith("kepoch "):
        print(cmd)
PY
n=$(wc -l <"$SCRATCH/commands")
(( n >= 15 )) || fail "only $n kepoch commands found in README.md"
kepoch() { "$KEPOCH" "$@"; }
ran=0
while IFS= read -r cmd; do
  # The README writes its example snapshots and pages to /tmp; here they go to the scratch
  # dir, and no command may write a file (--file, --html) anywhere else.
  cmd=${cmd//\/tmp\//$SCRATCH/}
  if [[ $cmd =~ --(file|html)\ +([^ \)]+) && ${BASH_REMATCH[2]} != "$SCRATCH"/* && ${BASH_REMATCH[2]} != - ]]; then
    fail "README command writes outside the scratch dir: $cmd"
  fi
  if [[ $cmd == *"| jq"* ]] && ! command -v jq >/dev/null; then cmd=${cmd%%|*}; fi
  rc=0
  (set -o pipefail; eval "$cmd") >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
  if (( rc > 1 )); then
    echo "--- stderr"; cat "$SCRATCH/err"
    fail "README command exited $rc: $cmd"
  fi
  [[ -s $SCRATCH/out ]] || fail "README command printed nothing: $cmd"
  echo "ok ($rc): $cmd"
  ran=$((ran + 1))
done <"$SCRATCH/commands"
for n in 1 2 3; do [[ -s $SCRATCH/broker-$n.snap ]] || fail "the README's snapshot of broker $n was not written"; done
echo "$ran README commands ran"
