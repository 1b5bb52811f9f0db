#!/usr/bin/env bash
# Every `kepoch` command in the ```sh blocks of README.md and docs/*.md runs, from the repo
# root, on the bundled data: exit 0 or 1 (1: findings, e.g. replicas that differ), never a
# usage error (2) or an unreadable input (3), and never a crash. Pipes into jq are followed when
# jq is installed. The README's own tour (issue 38) is held closer: each command opens with a
# sentence, its JSON `summary` says the same words, and every line the README quotes in a
# ```text block is a line one of the tour's commands prints.
. "$(dirname "$0")/common.sh"

cd "$KEPOCH_SOURCE_DIR"
python3 - README.md docs/*.md >"$SCRATCH/commands" <<'PY'
import sys
for path in sys.argv[1:]:
    lines, block, out = open(path).read().splitlines(), False, []
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
            print(path + "\t" + cmd)
PY
n=$(wc -l <"$SCRATCH/commands")
(( n >= 40 )) || fail "only $n kepoch commands found in README.md and docs/"
tour=$(grep -c '^README.md' "$SCRATCH/commands")
(( tour >= 6 )) || fail "only $tour kepoch commands in the README's tour"
: >"$SCRATCH/tour-out"
kepoch() { "$KEPOCH" "$@"; }

ran=0
while IFS=$'\t' read -r src cmd; do
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
  echo "ok ($rc): $src: $cmd"
  if [[ $src == README.md ]]; then
    cat "$SCRATCH/out" >>"$SCRATCH/tour-out"
    verdict_agrees "README tour" "$cmd"
  fi
  ran=$((ran + 1))
done <"$SCRATCH/commands"
for n in 1 2 3; do [[ -s $SCRATCH/broker-$n.snap ]] || fail "the README's snapshot of broker $n was not written"; done
echo "$ran README and docs commands ran"

# Each line the README quotes as output is printed by one of the tour's commands, as it is now.
python3 - README.md "$SCRATCH/tour-out" "$SCRATCH" <<'PY'
import sys
readme, printed, scratch = open(sys.argv[1]).read().splitlines(), open(sys.argv[2]).read(), sys.argv[3]
# Compared with whitespace collapsed: a sentence wraps at another word when a path is longer.
printed_text = " ".join(printed.replace(scratch + "/", "/tmp/").split())
block, quoted = False, 0
for line in readme:
    if line.startswith("```"):
        block = line == "```text"
        continue
    if block and line.strip():
        quoted += 1
        if " ".join(line.split()) not in printed_text:
            sys.exit(f"FAIL: the README quotes a line no tour command prints now: {line}")
if quoted < 5:
    sys.exit(f"FAIL: only {quoted} quoted output lines found in the README")
print(f"the README's {quoted} quoted output lines are what the tour prints")
PY
