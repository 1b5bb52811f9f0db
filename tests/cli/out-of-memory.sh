#!/usr/bin/env bash
# Memory in proportion to the largest thing a command must hold (docs/output.md, "Memory"): under a
# 1 GiB `ulimit -v`, inputs within kepoch's own caps are read, not refused for memory:
# - a leader-epoch-checkpoint of 3 M entries (about 50 MB of the 64 MiB cap): checkpoint
#   validate as a table and as JSON (its entries and loaded entries written one by one);
# - one gzip batch of 2 M records: segment dump --records as a table and as JSON (records
#   written as they are decoded, output in 1 MiB pieces);
# - a gzip batch of 1.3 MB inflating past the 256 MiB decompression cap: the cap's finding.
# Each run's peak RSS is measured (GNU time) and held to the bound docs/output.md states:
# - a leader-epoch checkpoint: its file's bytes and about 40 bytes an entry (+ a 32 MiB base);
# - a compressed batch dumped record by record: its bytes and 1.5x its inflated records
#   section, never its records (+ the base);
# - "memory under 64 MiB and flat with data size" (docs/performance.md): `partition verify`,
#   `segment dump` and `logdir scan` of a 16 MiB and a 256 MiB segment of 1 MiB batches, each
#   under 64 MiB, the larger within 8 MiB of the smaller.
# And running out of memory is
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
# Two log dirs of one partition each: 16 and 256 copies of a 1 MiB batch (131,072 records).
for copies in 16 256; do
  mkdir -p "flat-$copies/f-0"
  cp "$KEPOCH_SOURCE_DIR/tests/data/logdir/meta.properties" "flat-$copies/"
  python3 "$KEPOCH_SOURCE_DIR/tests/cli/big_batch.py" copies 131072 "$copies" "flat-$copies/f-0/00000000000000000000.log"
done
[[ $(stat -c %s flat-256/f-0/00000000000000000000.log) -gt $((256 * 1024 * 1024)) ]] || fail "the large segment is not over 256 MiB"
mkdir bomb
python3 "$KEPOCH_SOURCE_DIR/tests/cli/big_batch.py" bomb 300000000 bomb/00000000000000000000.log

# run LIMIT_KIB WANT_EXIT ARGS...: kepoch under `ulimit -v`, stdout counted (not kept), peak
# RSS printed.
run() {
  local limit=$1 want=$2 got
  shift 2
  # GNU time (Debian's `time`, installed by ./dev): the bounds below need the peak RSS.
  [[ -x /usr/bin/time ]] || fail "GNU time (/usr/bin/time) is not installed: the memory bounds need it"
  local timer=(/usr/bin/time -f %M -o rss)
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
  RSS_KIB=$(tail -1 rss)
  echo "kepoch $*: exit $got, $(cat bytes) bytes out, peak RSS $RSS_KIB KiB"
}
# at_most KIB WHAT: the last run's peak RSS is at most KIB.
at_most() {
  ((RSS_KIB <= $1)) || fail "$2: peak RSS $RSS_KIB KiB, above the bound of $1 KiB"
  echo "  within $1 KiB: $2"
}
BASE_KIB=$((32 * 1024))

GIB=$((1024 * 1024))
# docs/output.md: a checkpoint's bytes and about 40 bytes per leader-epoch entry.
bound=$((($(stat -c %s leader-epoch-checkpoint) + 40 * 3000000) / 1024 + BASE_KIB))
run $GIB 0 checkpoint validate leader-epoch-checkpoint
at_most $bound "checkpoint validate of 3 M entries (the file and 40 bytes an entry)"
run $GIB 0 checkpoint validate -o json leader-epoch-checkpoint
at_most $bound "checkpoint validate -o json of 3 M entries"

# docs/output.md: a compressed batch's bytes and its inflated records section (1.5x while it grows).
inflated=$(python3 -c "
import struct, gzip
d = open('00000000000000000000.log', 'rb').read()
print(len(gzip.decompress(d[61:])))")
bound=$((($(stat -c %s 00000000000000000000.log) + inflated * 3 / 2) / 1024 + BASE_KIB))
run $GIB 0 segment dump --records 00000000000000000000.log
at_most $bound "segment dump --records of 2 M gzip records (the batch and 1.5x its inflated section)"
run $GIB 0 segment dump --records -o json 00000000000000000000.log
at_most $bound "segment dump --records -o json of 2 M gzip records"

# docs/output.md: under 64 MiB and flat with data size, for the commands that stream a segment.
for what in "partition verify" "segment dump" "logdir scan"; do
  for copies in 16 256; do
    case $what in
      "partition verify") args=(partition verify "flat-$copies/f-0") ;;
      "segment dump") args=(segment dump "flat-$copies/f-0/00000000000000000000.log") ;;
      "logdir scan") args=(logdir scan -j 1 "flat-$copies") ;;
    esac
    run $GIB 0 "${args[@]}"
    at_most $((64 * 1024)) "$what of $copies MiB"
    [[ $copies == 16 ]] && small=$RSS_KIB
  done
  ((RSS_KIB <= small + 8 * 1024)) ||
    fail "$what: peak RSS $RSS_KIB KiB on 256 MiB against $small KiB on 16 MiB: not flat with data size"
done

run $GIB 1 segment dump --records bomb/00000000000000000000.log
expect_in err "gzip: decompressed size exceeds max_output (268435456 bytes)"
at_most $((($(stat -c %s bomb/00000000000000000000.log) + 268435456 * 3 / 2) / 1024 + BASE_KIB)) \
  "a batch inflating past the cap (the batch and 1.5x the 256 MiB cap)"

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
