#!/usr/bin/env bash
# Memory in proportion to the largest thing a command must hold (README, "Memory"): under a
# 1 GiB `ulimit -v`, inputs within kepoch's own caps are read, not refused for memory:
# - a leader-epoch-checkpoint of 3 M entries (about 50 MB of the 64 MiB cap): checkpoint
#   validate as a table and as JSON (its entries and loaded entries written one by one);
# - one gzip batch of 2 M records: segment dump --records as a table and as JSON (records
#   written as they are decoded, output in 1 MiB pieces);
# - a gzip batch of 1.3 MB inflating past the 256 MiB decompression cap: the cap's finding.
# Each run's peak RSS is printed (GNU time), for the record. And running out of memory is
# still a message, not a crash: under a tight `ulimit -v` the big checkpoint ends with "out of
# memory reading FILE" and exit 3 (before, a bad_alloc while copying a report value crashed:
# libstdc++'s variant copy constructor destroyed a valueless variant, SIGSEGV).
. "$(dirname "$0")/common.sh"

if [[ -n ${ASAN_OPTIONS:-} ]] || ldd "$KEPOCH" 2>/dev/null | grep libasan >/dev/null; then
  echo "skipped under ASan (its shadow memory needs terabytes of address space)"
  exit 0
fi

cd "$SCRATCH"
python3 -c "
n = 3000000
with open('leader-epoch-checkpoint', 'w') as f:
    f.write('0\n%d\n' % n)
    f.write(''.join('%d %d\n' % (i, i * 10) for i in range(n)))
"
python3 "$KEPOCH_SOURCE_DIR/tests/cli/big_batch.py" records 2000000 gzip 00000000000000000000.log
mkdir bomb
python3 "$KEPOCH_SOURCE_DIR/tests/cli/big_batch.py" bomb 300000000 bomb/00000000000000000000.log

# run LIMIT_KIB WANT_EXIT ARGS...: kepoch under `ulimit -v`, stdout counted (not kept), peak
# RSS printed.
run() {
  local limit=$1 want=$2 got
  shift 2
  local timer=()
  [[ -x /usr/bin/time ]] && timer=(/usr/bin/time -f %M -o rss)
  rm -f rss
  set +e
  (
    ulimit -v "$limit"
    exec "${timer[@]}" timeout 120 "$KEPOCH" "$@"
  ) 2>err | wc -c >bytes
  got=${PIPESTATUS[0]}
  set -e
  [[ $got -eq $want ]] || { head -c 2000 err; fail "kepoch $*: exit $got, expected $want"; }
  if grep -q "internal error" err; then fail "kepoch $*: internal error"; fi
  echo "kepoch $*: exit $got, $(cat bytes) bytes out, peak RSS $(cat rss 2>/dev/null || echo '?') KiB"
}

GIB=$((1024 * 1024))
run $GIB 0 checkpoint validate leader-epoch-checkpoint
run $GIB 0 checkpoint validate -o json leader-epoch-checkpoint

run $GIB 0 segment dump --records 00000000000000000000.log
run $GIB 0 segment dump --records -o json 00000000000000000000.log

run $GIB 1 segment dump --records bomb/00000000000000000000.log
expect_in err "gzip: decompressed size exceeds max_output (268435456 bytes)"

# Out of memory is a message: 150 MiB of address space cannot hold the checkpoint's entries.
run $((150 * 1024)) 3 checkpoint validate leader-epoch-checkpoint
expect_in err "kepoch: out of memory reading leader-epoch-checkpoint"

# A snapshot line holding one ~55 MB list of 3 M entries (issue 33: such a line aborted
# with an uncaught bad_alloc under the 1 GiB cap): every command that reads snapshots ends
# with exit 0/1 (about 130 MB peak here) or a clean "out of memory reading s.snap" (exit 3),
# never a signal.
"$KEPOCH" logdir snapshot "$DATA/divergence/before/broker-1" --file - >s.snap  # this dir holds a checkpoint: no --file here
python3 - <<'PY'
import json
lines = open('s.snap').read().split('\n')
r = json.loads(lines[1])
r['replica']['checkpoint_entries'] = [[i, i * 10] for i in range(3000000)]
lines[1] = json.dumps(r, separators=(',', ':'))
open('s.snap', 'w').write('\n'.join(lines))
PY
B2="$DATA/divergence/before/broker-2"
for argv in "predict --leader $B2 s.snap" "diff s.snap $B2" "plan --ids 1,2 --replicas 1,2 --isr 1 --alive 2 s.snap $B2"; do
  set +e
  (ulimit -v "$GIB"; exec timeout 120 "$KEPOCH" $argv) >/dev/null 2>err
  got=$?
  set -e
  ((got <= 1 || got == 3)) || { head -c 600 err; fail "kepoch $argv: exit $got under the 1 GiB cap"; }
  ((got != 3)) || expect_in err "out of memory reading s.snap"
  echo "kepoch $argv: exit $got under the 1 GiB cap"
done
