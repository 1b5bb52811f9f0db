# Sourced by every CLI scenario: strict mode, a scratch dir, helpers that say what failed.
# Env from CTest: KEPOCH (the binary), KEPOCH_SOURCE_DIR (the repo).
set -euo pipefail
: "${KEPOCH:?set by ctest}" "${KEPOCH_SOURCE_DIR:?set by ctest}"
DATA="$KEPOCH_SOURCE_DIR/tests/data"
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
