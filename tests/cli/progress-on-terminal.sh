#!/usr/bin/env bash
# Progress lines: `logdir snapshot`, `logdir scan`, `partition verify`, `diff`, `predict` and
# `plan` draw one on stderr when it is a terminal (a pseudo-terminal here, python3's pty) and
# the output is the table, and clear it before the report; never when stderr is a pipe or a
# file, and never with -o json or -o yaml (not on stderr, not in the output). The line shows
# once the work has taken KEPOCH_PROGRESS_AFTER_MS (default a second; 0 here, so the fixtures' fast runs
# show it without a timed test).
. "$(dirname "$0")/common.sh"

D="$DATA/divergence/before"
cd "$SCRATCH"

# on_tty OUT ERR ARGS...: kepoch with stderr on a pseudo-terminal (what it drew in ERR) and
# stdout to the file OUT; prints the exit code.
on_tty() {
  python3 - "$@" <<'PY'
import os, pty, subprocess, sys
out, err, args = sys.argv[1], sys.argv[2], sys.argv[3:]
master, slave = pty.openpty()
with open(out, "wb") as o:
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=o, stderr=slave)
os.close(slave)
drawn = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    drawn += chunk
print(p.wait())
open(err, "wb").write(drawn)
PY
}

export KEPOCH_PROGRESS_AFTER_MS=0
commands=(
  "diff|diff $D/broker-1/d-0 $D/broker-2/d-0"
  "predict|predict --leader $D/broker-2/d-0 $D/broker-1/d-0"
  "plan|plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 $D/broker-1/d-0 $D/broker-2/d-0 $D/broker-3/d-0"
  "partition verify|partition verify $D/broker-1/d-0 $D/broker-2/d-0"
  "logdir snapshot|logdir snapshot --file $SCRATCH/b1.snap $D/broker-1"
  "logdir scan|logdir scan $D/broker-1 $D/broker-2"
)
for entry in "${commands[@]}"; do
  what=${entry%%|*}
  read -r -a args <<<"${entry#*|}"
  # On a terminal: the line, with what is being done, then cleared before the report.
  code=$(on_tty out err "$KEPOCH" "${args[@]}")
  grep -qaF $'\r'"kepoch: $what: " err || { cat -v err; fail "$what: no progress line on a terminal"; }
  python3 - err "$what" <<'PY' || fail "$what: the progress line is not cleared at the end"
import sys
drawn = open(sys.argv[1], "rb").read()
last = drawn.rfind(("kepoch: %s: " % sys.argv[2]).encode())
assert drawn.find(b"\r\x1b[K", last) > last, drawn[-200:]
PY
  expect_not_in out "kepoch: $what:"
  echo "$what: exit $code, progress drawn: $(tr '\r' '\n' <err | grep -a "kepoch: $what:" | head -1 | cat -v)"
  # Piped: none.
  "$KEPOCH" "${args[@]}" >out 2>err || true
  expect_not_in err "kepoch: $what:"
  expect_not_in out "kepoch: $what:"
  # JSON and YAML on a terminal: none, in stderr or the output.
  for format in json yaml; do
    on_tty out err "$KEPOCH" -o $format "${args[@]}" >/dev/null
    expect_not_in err "kepoch: $what:"
    expect_not_in out "kepoch: $what:"
  done
done
# A snapshot written to stdout on the same terminal: no line into it (stderr alone: one).
python3 - "$KEPOCH" "$D/broker-1" <<'PY' || fail "a progress line ran into the snapshot on the terminal"
import os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen([sys.argv[1], "logdir", "snapshot", "--file", "-", sys.argv[2]],
                     stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
os.close(slave)
drawn = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    drawn += chunk
assert p.wait() == 0
assert b"kepoch-logdir-snapshot" in drawn and b"kepoch: logdir snapshot:" not in drawn
PY
code=$(on_tty out err "$KEPOCH" logdir snapshot --file - "$D/broker-1")
grep -qaF "kepoch: logdir snapshot: " err || fail "snapshot to a pipe, stderr a terminal: no progress line"
expect_not_in out "kepoch: logdir snapshot:"

# An unreadable replica among others: the error line stands alone, not run into the progress.
code=$(on_tty out err "$KEPOCH" partition verify "$D/broker-1/d-0" "$SCRATCH/missing-0")
[[ $code == 3 ]] || fail "partition verify of a missing dir: exit $code"
tr '\r' '\n' <err | grep -a '^kepoch: .*missing-0' >/dev/null || { cat -v err; fail "the error line is not on its own"; }
