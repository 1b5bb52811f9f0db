#!/usr/bin/env bash
# The read-only promise, proven: copies of every real log dir fixture are made read-only, every
# offline command runs over them (checkpoint, segment, partition, logdir scan, diff, predict in
# every mode and --elect, logdir snapshot into the scratch dir outside them), and afterwards
# the manifest of the copies (every path, type, size, mode, mtime in ns, sha256) is
# byte-identical: nothing changed, created, deleted or touched. Tests may run as root, for whom
# `chmod a-w` does not bind, so the manifest is the proof; when strace is installed, every
# file syscall of every command is also checked: no open for writing or creating, and no
# rename, unlink, mkdir, link, truncate, chmod, chown or utime under the copies.
. "$(dirname "$0")/common.sh"

RO="$SCRATCH/ro"
mkdir -p "$RO/leader-changes" "$RO/clean-3replica" "$RO/divergence" "$SCRATCH/snaps" "$SCRATCH/trace"
cp -a "$DATA/logdir" "$DATA/transactions" "$DATA/codecs" "$DATA/metadata" "$DATA/compacted" \
  "$DATA/kraft-standalone" "$DATA/metadata-snapshot" "$RO/"
cp -a "$DATA/divergence/before" "$RO/divergence/"
cp -a "$DATA/leader-changes"/broker-* "$RO/leader-changes/"
cp -a "$DATA/clean-3replica"/broker-* "$RO/clean-3replica/"

# manifest: every path with its type, size, mode and mtime (ns), then every file's sha256.
manifest() {
  (cd "$RO" && find . -printf '%p %y %s %m %T@\n' | LC_ALL=C sort &&
    find . -type f -exec sha256sum {} + | LC_ALL=C sort -k2)
}
chmod -R a-w "$RO"
manifest >"$SCRATCH/manifest-before"

STRACE=
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then STRACE=strace; fi

runs=0
# run CMD...: runs kepoch (under strace when there is one); exit 0 or 1 only, no crash.
run() {
  runs=$((runs + 1))
  local got=0 trace="$SCRATCH/trace/$runs"
  if [[ -n $STRACE ]]; then
    # LeakSanitizer cannot run under ptrace (ASan builds): leaks are checked by the other tests.
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -qq -y -e trace=%file,%desc -o "$trace" "$KEPOCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
  else
    "$KEPOCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
  fi
  if [[ $got -gt 1 ]]; then
    echo "--- stderr"; head -20 "$SCRATCH/err"
    fail "exit $got (expected 0 or 1): kepoch $*"
  fi
  echo "$got kepoch $*" >>"$SCRATCH/commands"
}

LOGDIRS=("$RO/logdir" "$RO/transactions" "$RO/codecs" "$RO/metadata" "$RO/compacted"
  "$RO/kraft-standalone" "$RO"/divergence/before/broker-* "$RO"/leader-changes/broker-*
  "$RO"/clean-3replica/broker-*)
mapfile -t PARTS < <(find "$RO" -mindepth 2 -type f -name partition.metadata -printf '%h\n' | sort)
mapfile -t SEGFILES < <(find "$RO" -type f \( -name '*.log' -o -name '*.index' -o -name '*.timeindex' \
  -o -name '*.txnindex' -o -name '*.snapshot' -o -name '*.checkpoint' \) | sort)
((${#PARTS[@]} >= 15)) || fail "found only ${#PARTS[@]} partition dirs"

for fmt in table json; do
  run -o "$fmt" checkpoint dump "${LOGDIRS[@]}"
  run -o "$fmt" checkpoint validate "${LOGDIRS[@]}"
  run -o "$fmt" checkpoint validate --strict "${LOGDIRS[@]}"
  run -o "$fmt" segment dump "${SEGFILES[@]}"
  run -o "$fmt" segment dump --records --data "${SEGFILES[@]}"
  run -o "$fmt" partition inspect "${PARTS[@]}"
  run -o "$fmt" partition verify "${PARTS[@]}"
  run -o "$fmt" logdir scan --all "${LOGDIRS[@]}"
done
run -o jsonl segment dump --records --data --data-format hex "${SEGFILES[@]}"
run -o yaml partition verify "${PARTS[@]}"
run -o jsonl logdir scan -j 2 "${LOGDIRS[@]}"
for f in "${SEGFILES[@]}"; do run segment dump --records --data "$f"; done
for p in "${PARTS[@]}"; do run partition verify "$p"; done

D="$RO/divergence/before"
L="$RO/leader-changes"
C="$RO/clean-3replica"
run diff "$D"/broker-{1,2,3}/d-0
run diff "$D"/broker-{1,2,3}
run diff "$L"/broker-{1,2,3}/lc-0
run diff -o json "$C"/broker-{1,2,3}/t-0
for mode in fetch ofle hw all; do
  run predict --mode "$mode" --leader "$D/broker-2/d-0" "$D/broker-1/d-0" "$D/broker-3/d-0"
  run predict --mode "$mode" --leader "$D/broker-2" "$D/broker-1" "$D/broker-3"
  run predict -o json --mode "$mode" --leader "$L/broker-1/lc-0" "$L/broker-2/lc-0" "$L/broker-3/lc-0"
  run predict --mode "$mode" --leader "$C/broker-1/t-0" "$C/broker-2/t-0" "$C/broker-3/t-0"
done
M="$RO/metadata-snapshot"
run metadata dump "$RO/metadata"
run -o json metadata history "$RO/metadata"
run metadata history "$M"
run -o json metadata history --no-snapshot "$M"
for f in "$M"/__cluster_metadata-0/*.checkpoint; do run metadata dump "$f"; done
run metadata history --snapshot "$(ls "$M"/__cluster_metadata-0/*.checkpoint | tail -n1)" "$M"
run partition inspect "$M"/broker-{1,3}/s-0 --metadata "$M"
run diff --metadata "$RO/metadata" "$L"/broker-{1,2,3}/lc-0
run predict --elect --ids 1,2,3 --isr 1 --alive 2,3 --unclean "$D"/broker-{1,2,3}/d-0
run predict --elect --ids 1,2,3 --isr 1 --alive 2,3 "$D"/broker-{1,2,3}/d-0
run predict --elect --mode all --ids 1,2,3 --isr 2,3 "$D"/broker-{1,2,3}/d-0
run predict --elect --ids 1,2,3 "$L"/broker-{1,2,3}/lc-0
run predict --elect --preferred --ids 1,2,3 --replicas 3,2,1 "$C"/broker-{1,2,3}/t-0
i=0
for l in "${LOGDIRS[@]}"; do
  i=$((i + 1))
  run logdir snapshot "$l" --file "$SCRATCH/snaps/$i.snap"
done
run logdir snapshot "$D/broker-1" "$D/broker-2" --file -
run diff "$SCRATCH"/snaps/{7,8,9}.snap
run predict --mode all --leader "$SCRATCH/snaps/8.snap" "$SCRATCH/snaps/7.snap" "$D/broker-3"
# A snapshot file inside a copied log dir is refused (exit 2) before anything is created.
expect_exit 2 "$KEPOCH" logdir snapshot "$D/broker-1" --file "$D/broker-1/d-0/x.snap"

manifest >"$SCRATCH/manifest-after"
chmod -R u+w "$RO"  # so that the scratch dir can be removed by a user other than root
if ! cmp -s "$SCRATCH/manifest-before" "$SCRATCH/manifest-after"; then
  diff "$SCRATCH/manifest-before" "$SCRATCH/manifest-after" | head -40
  fail "the copied log dirs changed after $runs commands"
fi

if [[ -n $STRACE ]]; then
  # Every syscall that names a path under the copies (as a path or a -y decoded fd); the
  # bytes a write carries are not a name, so writes count only by the fd they write to.
  cat "$SCRATCH"/trace/* | grep -F "$RO/" >"$SCRATCH/touched" || true
  [[ -s $SCRATCH/touched ]] || fail "strace saw no file under the copies: the check checks nothing"
  : >"$SCRATCH/writes"
  grep -E '^[0-9]+ +(open|openat|creat)\(' "$SCRATCH/touched" |
    grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND' >>"$SCRATCH/writes" || true
  grep -E '^[0-9]+ +(rename|renameat2?|unlink|unlinkat|rmdir|mkdir|mkdirat|link|linkat|symlink|symlinkat|truncate|chmod|fchmodat|chown|lchown|fchownat|utime|utimes|utimensat|futimesat|mknod|mknodat|setxattr|lsetxattr|removexattr)\(' \
    "$SCRATCH/touched" >>"$SCRATCH/writes" || true
  grep -E "^[0-9]+ +(write|pwrite64|writev|pwritev2?|ftruncate|fallocate|flock|fchmod|fchown|fsetxattr|futimens)\\([0-9]+<$RO/" \
    "$SCRATCH/touched" >>"$SCRATCH/writes" || true
  if [[ -s $SCRATCH/writes ]]; then head -20 "$SCRATCH/writes"; fail "a command opened or changed a file under the copies"; fi
  opens=$(grep -cE '^[0-9]+ +(openat|open)\(' "$SCRATCH/touched" || true)
  echo "strace: $opens opens under the copied log dirs, none for writing"
else
  echo "strace not installed: the manifest is the only proof"
fi
echo "read-only: $runs commands over ${#LOGDIRS[@]} log dirs, ${#PARTS[@]} partition dirs and ${#SEGFILES[@]} segment files; manifest of $(grep -c . "$SCRATCH/manifest-before") lines unchanged"
