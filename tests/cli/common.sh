# Sourced by every CLI scenario: strict mode, a scratch dir, helpers that say what failed.
# Env from CTest: KEPOCH (the binary), KEPOCH_SOURCE_DIR (the repo).
set -euo pipefail
: "${KEPOCH:?set by ctest}" "${KEPOCH_SOURCE_DIR:?set by ctest}"
DATA="$KEPOCH_SOURCE_DIR/tests/data"
# Tables fit COLUMNS when stdout is not a terminal: the tests' outputs are laid out for the
# default 120 columns, whatever shell ran ctest (terminal-width.sh sets its own).
unset COLUMNS
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/kepoch-cli.XXXXXX")"
trap 'rc=$?; [[ $rc -ne 0 ]] && echo "FAILED: $0 (scratch kept: $SCRATCH)" >&2 || rm -rf "$SCRATCH"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_exit CODE CMD...: runs CMD, stdout to $SCRATCH/out, stderr to $SCRATCH/err.
expect_exit() {
  local want=$1; shift
  local got=0
  "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
  if [[ $got -ne $want ]]; then
    echo "--- stdout"; cat "$SCRATCH/out"; echo "--- stderr"; cat "$SCRATCH/err"
    fail "expected exit $want, got $got: $*"
  fi
}

expect_in() {  # expect_in FILE TEXT
  grep -qF -- "$2" "$1" || { echo "--- $1"; cat "$1"; fail "expected \"$2\" in $(basename "$1")"; }
}

expect_not_in() {
  if grep -qF -- "$2" "$1"; then echo "--- $1"; cat "$1"; fail "did not expect \"$2\""; fi
}

json() {  # json FILE PYTHON-EXPR (d is the parsed document); prints the value
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# --- The read-only proof (tests/cli/read-only-promise.sh; cluster predict's oracle) ----------
# ro_manifest DIR: every path under DIR with its type, size, mode and mtime (ns), then every
# file's sha256. Equal manifests before and after: nothing changed, created, deleted or touched.
ro_manifest() {
  (cd "$1" && find . -printf '%p %y %s %m %T@\n' | LC_ALL=C sort &&
    find . -type f -exec sha256sum {} + | LC_ALL=C sort -k2)
}

# ro_require_strace: the syscall half of the proof. Without strace, or where ptrace is denied
# (a container without CAP_SYS_PTRACE, yama ptrace_scope 3), the proof would shrink to the
# manifest, so it fails instead (./dev installs strace).
ro_require_strace() {
  command -v strace >/dev/null || fail "strace is not installed: the read-only proof needs it (./dev installs it)"
  strace -f -qq -o /dev/null true 2>"$SCRATCH/strace-probe.err" ||
    fail "strace cannot trace here (ptrace denied?): $(head -c 300 "$SCRATCH/strace-probe.err")"
}

# ro_traced TRACE CMD...: runs CMD under strace, every file and descriptor syscall of it and
# its threads in TRACE, with paths decoded (-y); returns CMD's exit status.
ro_traced() {
  local trace=$1
  shift
  # LeakSanitizer cannot run under ptrace (ASan builds): leaks are checked by the other tests.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -qq -y -e trace=%file,%desc -o "$trace" "$@"
}

# ro_check_traces DIR TRACE...: no traced syscall opened a file under DIR for writing or
# creating, or renamed, unlinked, made, linked, truncated, chmod-ed, chown-ed or utime-d
# anything under it; at least one opened something under it (else the traces prove nothing).
# Prints how many opens there were under DIR.
ro_check_traces() {
  local dir=$1
  shift
  # Every syscall that names a path under DIR (as a path or a -y decoded fd); the bytes a
  # write carries are not a name, so writes count only by the fd they write to.
  cat "$@" | grep -F "$dir/" >"$SCRATCH/ro-touched" || true
  [[ -s $SCRATCH/ro-touched ]] || fail "strace saw no file under $dir: the check checks nothing"
  : >"$SCRATCH/ro-writes"
  grep -E '^[0-9]+ +(open|openat|creat)\(' "$SCRATCH/ro-touched" |
    grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND' >>"$SCRATCH/ro-writes" || true
  grep -E '^[0-9]+ +(rename|renameat2?|unlink|unlinkat|rmdir|mkdir|mkdirat|link|linkat|symlink|symlinkat|truncate|chmod|fchmodat|chown|lchown|fchownat|utime|utimes|utimensat|futimesat|mknod|mknodat|setxattr|lsetxattr|removexattr)\(' \
    "$SCRATCH/ro-touched" >>"$SCRATCH/ro-writes" || true
  grep -E "^[0-9]+ +(write|pwrite64|writev|pwritev2?|ftruncate|fallocate|flock|fchmod|fchown|fsetxattr|futimens)\\([0-9]+<$dir/" \
    "$SCRATCH/ro-touched" >>"$SCRATCH/ro-writes" || true
  if [[ -s $SCRATCH/ro-writes ]]; then head -20 "$SCRATCH/ro-writes" >&2; fail "a command opened or changed a file under $dir"; fi
  grep -cE '^[0-9]+ +(openat|open)\(' "$SCRATCH/ro-touched" || true
}

# --- Verdict first (readme-commands.sh, help-examples.sh) --------------------------------------
# verdict_agrees LABEL CMD: $SCRATCH/out (CMD's table) opens with a sentence (its first
# paragraph), and CMD with -o json (evaluated as shell text, from the current directory) has a
# summary (or summary.text) of the same words.
verdict_agrees() {
  local label=$1 cmd=$2 first
  first=$(awk '/^$/ { exit } { printf "%s ", $0 }' "$SCRATCH/out" | sed 's/ *$//')
  [[ $first =~ ^[A-Z0-9a-z/].*[.!?]$ && $first != *"  "* ]] ||
    fail "$label: '$cmd' does not open with a sentence: $first"
  (set -o pipefail; eval "$cmd -o json") >"$SCRATCH/json" 2>/dev/null || (( $? <= 1 )) ||
    fail "$label: '$cmd -o json' failed"
  python3 - "$SCRATCH/json" "$first" "$cmd" "$label" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
docs = d if isinstance(d, list) else [d]
def summary(x):
    s = x.get("summary") if isinstance(x, dict) else None
    return s.get("text") if isinstance(s, dict) else s
found = [summary(x) for x in docs if summary(x)]
if not found:
    sys.exit(f"FAIL: {sys.argv[4]}: '{sys.argv[3]} -o json' has no summary")
if " ".join(found[0].split()) != " ".join(sys.argv[2].split()):
    sys.exit(f"FAIL: {sys.argv[4]}: the table opens '{sys.argv[2]}' but the JSON summary says '{found[0]}'")
PY
}
