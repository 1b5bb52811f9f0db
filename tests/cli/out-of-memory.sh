#!/usr/bin/env bash
# Running out of memory is an input too big for this machine, not a crash and not an
# "internal error": under a tight `ulimit -v`, a leader-epoch-checkpoint of 1 M entries (its
# report holds every entry) ends with "out of memory reading FILE" and exit 3. Before, a
# bad_alloc while copying a report value crashed (libstdc++'s variant copy constructor
# destroyed a valueless variant: SIGSEGV).
. "$(dirname "$0")/common.sh"

if [[ -n ${ASAN_OPTIONS:-} ]] || ldd "$KEPOCH" 2>/dev/null | grep -q libasan; then
  echo "skipped under ASan (its shadow memory needs terabytes of address space)"
  exit 0
fi

cd "$SCRATCH"
python3 -c "
n = 1000000
with open('leader-epoch-checkpoint', 'w') as f:
    f.write('0\n%d\n' % n)
    for i in range(n): f.write('%d %d\n' % (i, i * 10))
"
for format in table json; do
  got=0
  (
    ulimit -v $((400 * 1024))
    timeout 100 "$KEPOCH" checkpoint validate -o $format leader-epoch-checkpoint
  ) >out 2>err || got=$?
  [[ $got -eq 3 ]] || { cat err; fail "-o $format: exit $got, expected 3"; }
  expect_in err "kepoch: out of memory reading leader-epoch-checkpoint"
  expect_not_in err "internal error"
done
