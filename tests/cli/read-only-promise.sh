#!/usr/bin/env bash
# The read-only promise, proven: copies of every real log dir fixture are made read-only, every
# offline command runs over them (checkpoint, segment, partition, logdir scan, diff, predict in
# every mode and --elect, logdir snapshot into the scratch dir outside them, plan, salvage
# (its archive outside them), and every
# --html page and --out-dir written beside them), and afterwards
# the manifest of the copies (every path, type, size, mode, mtime in ns, sha256) is
# byte-identical: nothing changed, created, deleted or touched. Tests may run as root, for whom
# `chmod a-w` does not bind, so the manifest is one proof; the other is strace, required (the
# test fails where it is missing or ptrace is denied): every file syscall of every command is
# checked: no open for writing or creating, and no rename, unlink, mkdir, link, truncate,
# chmod, chown or utime under the copies. `cluster predict --log-dir`, which needs a live
# cluster, gets the same proof in tests/oracle/cluster-predict-vs-kafka.sh.
. "$(dirname "$0")/common.sh"

RO="$SCRATCH/ro"
mkdir -p "$RO/leader-changes" "$RO/clean-3replica" "$RO/divergence" "$SCRATCH/snaps" "$SCRATCH/trace"
cp -a "$DATA/logdir" "$DATA/transactions" "$DATA/codecs" "$DATA/metadata" "$DATA/compacted" \
  "$DATA/kraft-standalone" "$DATA/metadata-snapshot" "$RO/"
cp -a "$DATA/divergence/before" "$RO/divergence/"
cp -a "$DATA/leader-changes"/broker-* "$RO/leader-changes/"
cp -a "$DATA/clean-3replica"/broker-* "$RO/clean-3replica/"
# A tiered broker's log dir with the remote-log-index-cache Kafka filled (logdir scan reads it).
mkdir -p "$RO/tiered-index-cache"
cp -a "$DATA/tiered/index-cache/broker-1" "$RO/tiered-index-cache/"

ro_require_strace
chmod -R a-w "$RO"
ro_manifest "$RO" >"$SCRATCH/manifest-before"

runs=0
# run CMD...: runs kepoch under strace; exit 0 or 1 only, no crash.
run() {
  runs=$((runs + 1))
  local got=0
  ro_traced "$SCRATCH/trace/$runs" "$KEPOCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
  if [[ $got -gt 1 ]]; then
    echo "--- stderr"; head -20 "$SCRATCH/err"
    fail "exit $got (expected 0 or 1): kepoch $*"
  fi
  echo "$got kepoch $*" >>"$SCRATCH/commands"
}

LOGDIRS=("$RO/logdir" "$RO/transactions" "$RO/codecs" "$RO/metadata" "$RO/compacted"
  "$RO/kraft-standalone" "$RO"/divergence/before/broker-* "$RO"/leader-changes/broker-*
  "$RO"/clean-3replica/broker-* "$RO/tiered-index-cache/broker-1")
mapfile -t PARTS < <(find "$RO" -mindepth 2 -type f -name partition.metadata -printf '%h\n' | sort)
mapfile -t SEGFILES < <(find "$RO" -type f \( -name '*.log' -o -name '*.index' -o -name '*.timeindex' \
  -o -name '*.txnindex' -o -name '*.snapshot' -o -name '*.checkpoint' \) \
  -not -path '*/remote-log-index-cache/*' | sort)
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
mapfile -t LOGFILES < <(printf '%s\n' "${SEGFILES[@]}" | grep '\.log$')
run segment dump --from-offset 3 --max-batches 2 "${LOGFILES[@]}"  # the bounded walk too
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
# The writing commands (issue 40): plan, every --html page and plan's --out-dir, written
# outside the copies (output_file.hpp), twice (the second run replaces what the first wrote).
O="$SCRATCH/outs"
mkdir -p "$O"
for pass in 1 2; do
  run plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "$D"/broker-{1,2,3} --html "$O/plan.html" --out-dir "$O/plan"
  run plan -o json --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 --gone 1 --unclean "$D"/broker-{1,2,3}/d-0 --out-dir "$O/plan-d"
  run plan --all --metadata "$RO/metadata" --ids 1 "$RO/logdir" --html "$O/plan-meta.html" --out-dir "$O/plan-meta"
  run plan "$SCRATCH"/snaps/{7,8,9}.snap --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 --html "$O/plan-snaps.html"
  run diff --html "$O/diff.html" "$D"/broker-{1,2,3}/d-0
  run diff --html "$O/diff-logdirs.html" "$D"/broker-{1,2,3}
  run predict --html "$O/predict.html" --leader "$D/broker-2/d-0" "$D/broker-1/d-0" "$D/broker-3/d-0"
  run predict --elect --ids 1,2,3 --isr 1 --alive 2,3 --html "$O/elect.html" "$D"/broker-{1,2,3}/d-0
  run metadata history --html "$O/history.html" "$RO/metadata"
  # salvage reads the removed tail's records (and the leader's) and writes its archive outside.
  run salvage --archive "$O/salvage.jsonl" --leader "$D/broker-2/d-0" "$D/broker-1/d-0" "$D/broker-3/d-0"
  run salvage --archive "$O/salvage-elect.jsonl" --elect --ids 1,2,3 --isr 1 --alive 2,3 --unclean "$D"/broker-{1,2,3}/d-0
  run salvage --archive "$O/salvage-logdirs.jsonl" --leader "$D/broker-2" "$D/broker-1"
done
[[ -s $O/plan/steps.sh && -s $O/plan.html && -s $O/history.html && -s $O/salvage.jsonl ]] || fail "the outputs were not written"
grep -q '"offset":5' "$O/salvage.jsonl" || fail "the salvage archive lacks broker 1's removed offset 5"
# A snapshot file inside a copied log dir is refused (exit 2) before anything is created.
expect_exit 2 "$KEPOCH" logdir snapshot "$D/broker-1" --file "$D/broker-1/d-0/x.snap"

ro_manifest "$RO" >"$SCRATCH/manifest-after"
chmod -R u+w "$RO"  # so that the scratch dir can be removed by a user other than root
if ! cmp -s "$SCRATCH/manifest-before" "$SCRATCH/manifest-after"; then
  diff "$SCRATCH/manifest-before" "$SCRATCH/manifest-after" | head -40
  fail "the copied log dirs changed after $runs commands"
fi
opens=$(ro_check_traces "$RO" "$SCRATCH"/trace/*)
# The proof covers the remote index cache: logdir scan opened its indexes (read-only, above).
cache_opens=$(cat "$SCRATCH"/trace/* | grep -c 'remote-log-index-cache/[^"]*\.\(index\|timeindex\|txnindex\)"' || true)
((cache_opens > 0)) || fail "no command opened a file of the remote-log-index-cache copy"
echo "strace: $opens opens under the copied log dirs, none for writing"
echo "read-only: $runs commands over ${#LOGDIRS[@]} log dirs, ${#PARTS[@]} partition dirs and ${#SEGFILES[@]} segment files; manifest of $(grep -c . "$SCRATCH/manifest-before") lines unchanged"
