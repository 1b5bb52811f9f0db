#!/usr/bin/env bash
# Output is byte-identical across rework: every offline command over every fixture in every
# output format (stdout, stderr, exit status, and the files a command writes: `--html` pages,
# `logdir snapshot --file`, `plan --out-dir`) equals what tests/cli/golden/ holds. The goldens
# are the outputs themselves, one text file per command group, so a deliberate change shows
# in `git diff` as the lines it changed. An output longer than 2,000 lines or 64 KiB (200 lines
# or 16 KiB for segment dump, partition and checkpoint, whose large fixtures repeat what the
# small ones show whole) is held as its first lines and the sha256 of the whole.
#
# A deliberate output change regenerates them with one command, and the commit says why:
#   ./dev golden
# (the dev build, then this script with KEPOCH_GOLDEN_UPDATE=1; refused when CI is set, so a
# CI run can only compare).
source "$(dirname "$0")/common.sh"

if [[ -n "${KEPOCH_GOLDEN_UPDATE:-}" && -n "${CI:-}" ]]; then
  fail "KEPOCH_GOLDEN_UPDATE is refused when CI is set: CI compares the goldens, it never rewrites them"
fi
# Byte identity is the dev build's to show; under ASan the same ~1,400 runs would cost the
# sanitizer lane some ten minutes, and every command is run under ASan by the other scenarios.
if [[ -n ${ASAN_OPTIONS:-} ]] || ldd "$KEPOCH" 2>/dev/null | grep libasan >/dev/null; then
  [[ -z "${KEPOCH_GOLDEN_UPDATE:-}" ]] || fail "regenerate the goldens with the dev build, not under ASan"
  echo "skipped under ASan (byte identity is checked on the dev build)"
  exit 0
fi
cd "$KEPOCH_SOURCE_DIR" # relative paths: the outputs name files as given
golden=tests/cli/golden
got="$SCRATCH/golden"
out="$SCRATCH/run" # what a case writes (--html, --file, --out-dir): named SCRATCH in the goldens
snaps="$SCRATCH/snaps" # log dir snapshots and log dir copies cases read: named SNAPS in the goldens
mkdir -p "$got" "$snaps"
formats=(table wide json yaml jsonl)
group=none
cases=0

# keep FILE: FILE's text as the goldens hold it, the scratch path written as SCRATCH; the first
# lines / bytes of the group's cap and the sha256 of the whole when it is longer.
keep() {
  sed "s|$out|SCRATCH|g; s|$snaps|SNAPS|g" "$1" >"$SCRATCH/kept"
  local rc=0
  local lines=2000 bytes=65536
  case $group in segment-dump | partition | checkpoint) lines=200 bytes=16384 ;; esac
  LC_ALL=C awk -v lines=$lines -v max=$bytes '
    { bytes += length($0) + 1 }
    NR > lines || bytes > max { exit 3 }
    { print }' "$SCRATCH/kept" || rc=$?
  if [[ $rc == 3 ]]; then
    echo "--- cut; whole: $(wc -l <"$SCRATCH/kept") lines, $(wc -c <"$SCRATCH/kept") bytes, sha256 $(sha256sum <"$SCRATCH/kept" | cut -c1-64)"
  elif [[ $rc != 0 ]]; then
    fail "awk failed on $1"
  elif [[ -s $SCRATCH/kept && -n $(tail -c 1 "$SCRATCH/kept") ]]; then
    echo "--- no newline at the end"
  fi
}

# run_case NAME FORMAT ARGS...: kepoch -o FORMAT ARGS, recorded in the current group's file
# with every file it wrote under $out.
run_case() {
  local name=$1 f=$2 rc=0 file
  shift 2
  rm -rf "$out" && mkdir "$out"
  "$KEPOCH" --no-color -o "$f" "$@" >"$SCRATCH/o" 2>"$SCRATCH/e" || rc=$?
  {
    echo "### $name -o $f"
    keep "$SCRATCH/o"
    if [[ -s $SCRATCH/e ]]; then
      echo "--- stderr"
      keep "$SCRATCH/e"
    fi
    echo "--- exit $rc"
    while IFS= read -r file; do
      echo "--- file ${file#"$out"/}"
      keep "$file"
    done < <(find "$out" -type f | LC_ALL=C sort)
  } >>"$got/$group.txt"
  cases=$((cases + 1))
}
# case_ NAME ARGS...: in every format
case_() { case_in "${formats[*]}" "$@"; }
# case_in "FORMATS" NAME ARGS...: in the formats named
case_in() {
  local fs=$1 name=$2 f
  shift 2
  for f in $fs; do run_case "$name" "$f" "$@"; done
}

# --- Segments, partitions, log dirs, checkpoints, the metadata log: every fixture ----------
mapfile -t parts < <(find tests/data/ -name '[0-9]*.log' -printf '%h\n' | LC_ALL=C sort -u)
for p in "${parts[@]}"; do
  mapfile -t logs < <(find "$p" -maxdepth 1 -name '[0-9]*.log' | LC_ALL=C sort)
  mapfile -t idx < <(find "$p" -maxdepth 1 \( -name '*.index' -o -name '*.timeindex' -o -name '*.txnindex' -o -name '*.snapshot' \) | LC_ALL=C sort)
  group=segment-dump
  case_ "segment dump $p" segment dump "${logs[@]}"
  case_ "segment dump --data $p" segment dump --data "${logs[@]}"
  for df in hex base64; do
    case_in "json jsonl yaml" "segment dump --data-format $df $p" segment dump --data --data-format "$df" "${logs[@]}"
  done
  ((${#idx[@]} == 0)) || case_ "segment dump indexes $p" segment dump "${idx[@]}"
  group=partition
  case_ "partition inspect $p" partition inspect "$p"
  case_ "partition verify $p" partition verify "$p"
  group=checkpoint
  case_ "checkpoint dump $p" checkpoint dump "$p"
done
# The remote index cache's <offset>_<segment id> files: base offset from the name's number.
mapfile -t rcache < <(find tests/data/ -path '*/remote-log-index-cache/*' -type f | LC_ALL=C sort)
group=segment-dump
case_ "segment dump remote-log-index-cache" segment dump "${rcache[@]}"
mapfile -t logdirs < <(find tests/data/ -name '*offset-checkpoint' -printf '%h\n' | LC_ALL=C sort -u)
for d in "${logdirs[@]}"; do
  group=logdir
  case_ "logdir scan $d" logdir scan "$d"
  group=checkpoint
  case_ "checkpoint dump $d" checkpoint dump "$d"
  case_ "checkpoint validate $d" checkpoint validate "$d"
  # The snapshot file is JSON Lines whatever -o says; -o shapes only the summary.
  group=logdir-snapshot
  case_in "table json" "logdir snapshot $d" logdir snapshot --file "$out/broker.snap" "$d"
  case_in "table" "logdir snapshot --window 1 $d" logdir snapshot --window 1 --file "$out/broker.snap" "$d"
done
group=metadata
for m in tests/data/metadata/__cluster_metadata-0 tests/data/kraft-standalone/__cluster_metadata-0 \
  tests/data/metadata-snapshot/__cluster_metadata-0; do
  case_ "metadata dump $m" metadata dump "$m"
  case_ "metadata history $m" metadata history "$m"
done

# --- Replicas compared: diff and predict ---------------------------------------------------
for s in before after; do
  r=(tests/data/divergence/$s/broker-{1,2,3}/d-0)
  group=diff
  case_ "diff divergence/$s" diff "${r[@]}"
  group=predict
  case_ "predict divergence/$s" predict --leader "${r[0]}" "${r[1]}" "${r[2]}"
done
r=(tests/data/leader-changes/broker-{1,2,3}/lc-0)
group=diff
case_ "diff leader-changes" diff "${r[@]}"
group=predict
case_ "predict leader-changes" predict --leader "${r[0]}" "${r[1]}" "${r[2]}"
r=(tests/data/divergence/before/broker-{1,2,3}/d-0)
case_ "predict --elect divergence/before" predict --elect --unclean --ids 1,2,3 --isr 1 --alive 2,3 "${r[@]}"
r=(tests/data/clean-3replica/broker-{1,2,3}/t-0)
group=diff
case_ "diff clean-3replica" diff "${r[@]}"

# --- plan: flags for one partition, the commands it writes, the metadata log ---------------
group=plan
r=(tests/data/divergence/before/broker-{1,2,3}/d-0)
case_ "plan divergence/before" plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "${r[@]}"
case_ "plan divergence/before, broker 1 missing" plan --ids 2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "${r[1]}" "${r[2]}"
case_in "table" "plan --out-dir divergence/before" \
  plan --ids 1,2,3 --replicas 1,2,3,4 --isr 4 --alive 1,2,3 --out-dir "$out/cmds" "${r[@]}"
case_ "plan --metadata metadata logdir" plan --all --metadata tests/data/metadata --ids 1 tests/data/logdir
case_in "json" "plan --metadata metadata logdir --unclean --min-isr 3" \
  plan --all --metadata tests/data/metadata --ids 1 --unclean --min-isr 3 tests/data/logdir
case_ "plan --metadata metadata-snapshot broker-1" \
  plan --metadata tests/data/metadata-snapshot --topic s --ids 1 --gone 3 tests/data/metadata-snapshot/broker-1
# What a state argument means: a log dir (its meta.properties names the broker and cluster), a
# replica dir (its log dir's), a snapshot file (what it records), SNAPSHOT:TOPIC-PARTITION,
# standard input; and what plan refuses: two states of one broker, states of two clusters, a
# state without a broker id, --ids of another count. Broker 1 is tests/data/logdir, copies
# play broker 2 (same cluster) and broker 3 (another cluster).
cp -r tests/data/logdir "$snaps/b2"
sed -i 's/^node.id=1$/node.id=2/' "$snaps/b2/meta.properties"
cp -r tests/data/logdir "$snaps/other"
sed -i 's/^node.id=1$/node.id=3/; s/^cluster.id=.*/cluster.id=AnotherClusterAAAAAAAAA/' "$snaps/other/meta.properties"
for b in b2 other; do "$KEPOCH" logdir snapshot --file "$snaps/$b.snap" "$snaps/$b" >/dev/null; done
"$KEPOCH" logdir snapshot --file "$snaps/b1.snap" tests/data/logdir >/dev/null
cp "$snaps/b1.snap" "$snaps/b1-again.snap"
"$KEPOCH" logdir snapshot --file "$snaps/s1.snap" tests/data/metadata-snapshot/broker-1 >/dev/null
case_ "plan --metadata metadata logdir, its id from meta.properties" plan --all --metadata tests/data/metadata tests/data/logdir
case_ "plan --metadata metadata snapshots" plan --all --metadata tests/data/metadata "$snaps/b1.snap" "$snaps/b2.snap"
case_ "plan --metadata metadata-snapshot snapshot" \
  plan --metadata tests/data/metadata-snapshot --topic s --gone 3 "$snaps/s1.snap"
case_ "plan SNAPSHOT:TOPIC-PARTITION" plan --replicas 1,2 --isr 1 --alive 1,2 --all "$snaps/b1.snap:t-0" "$snaps/b2.snap:t-0"
case_ "plan replica dirs, ids from their log dirs" plan --replicas 1,2 --isr 2 --alive 1 tests/data/logdir/t-0 "$snaps/b2/t-0"
for f in table json; do
  run_case "plan -:TOPIC-PARTITION" $f plan --replicas 1,2 --isr 1 --alive 1,2 --all -- -:t-0 "$snaps/b2.snap:t-0" <"$snaps/b1.snap"
  run_case "plan --metadata metadata -" $f plan --metadata tests/data/metadata --gone 3 - <"$snaps/b2.snap"
done
case_in "table" "plan refuses: one snapshot twice" plan --replicas 1,2 --isr 1 --alive 2 "$snaps/b1.snap:t-0" "$snaps/b1-again.snap:t-0"
case_in "table" "plan refuses: a snapshot and its log dir" plan --replicas 1,2 --isr 1 "$snaps/b1.snap" tests/data/logdir
case_in "table" "plan refuses: another cluster" plan --replicas 1,3 --isr 1 "$snaps/b1.snap:t-0" "$snaps/other.snap:t-0"
case_in "table" "plan refuses: another cluster, log dirs" plan --all --metadata tests/data/metadata "$snaps/b2" "$snaps/other"
case_in "table" "plan refuses: no broker id" plan --replicas 1,2,3 --isr 1 "${r[@]}"
case_in "table" "plan refuses: --ids of another count" plan --ids 1,2 --replicas 1,2,3 --isr 1 "${r[@]}"
case_in "table" "plan refuses: --replicas over several partitions" plan --replicas 1,2 --isr 1 "$snaps/b1.snap" "$snaps/b2.snap"
case_in "table" "plan refuses: no state" plan --replicas 1,2,3
case_in "table" "plan refuses: no such state" plan --replicas 1,2 "$snaps/none.snap:t-0" "$snaps/b2.snap:t-0"
for f in table; do
  run_case "plan refuses: standard input twice" $f plan --replicas 1,2 - - <"$snaps/b1.snap"
done
# SNAPSHOT:TOPIC-PARTITION read as every replica argument is (storage/replica_sources): a
# partition the snapshot lacks, a SNAPSHOT that is a directory or a device.
case_in "table" "plan refuses: a partition the snapshot lacks" plan --replicas 1,2 "$snaps/b1.snap:nope-0" "$snaps/b2.snap:t-0"
case_in "table" "plan refuses: SNAPSHOT a directory" plan --replicas 1,2 tests/data/logdir:t-0 "$snaps/b2.snap:t-0"
case_in "table" "plan refuses: a device" plan --replicas 1,2 /dev/null "$snaps/b2.snap:t-0"
case_in "table" "plan refuses: SNAPSHOT a device" plan --replicas 1,2 /dev/null:t-0 "$snaps/b2.snap:t-0"

# --- simulate: the seed scenarios, both rules and one ---------------------------------------
group=simulate
for s in examples/scenarios/*.yaml; do
  case_ "simulate $s" simulate "$s"
done
case_in "table json" "simulate --rule hw examples/scenarios/divergent-offset.yaml" \
  simulate --rule hw examples/scenarios/divergent-offset.yaml

# --- The pictures: every kind of --html page, the page itself kept -------------------------
group=html
for s in before after; do
  r=(tests/data/divergence/$s/broker-{1,2,3}/d-0)
  case_in "table" "diff --html divergence/$s" diff --html "$out/page.html" "${r[@]}"
  case_in "table" "predict --html divergence/$s" predict --html "$out/page.html" --leader "${r[0]}" "${r[1]}" "${r[2]}"
done
r=(tests/data/leader-changes/broker-{1,2,3}/lc-0)
case_in "table" "diff --html leader-changes" diff --html "$out/page.html" "${r[@]}"
r=(tests/data/divergence/before/broker-{1,2,3}/d-0)
case_in "table" "predict --elect --html divergence/before" \
  predict --elect --unclean --ids 1,2,3 --isr 1 --alive 2,3 --html "$out/page.html" "${r[@]}"
case_in "table" "plan --html divergence/before" \
  plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 --html "$out/page.html" "${r[@]}"
case_in "table" "plan --html --metadata metadata logdir" \
  plan --all --metadata tests/data/metadata --ids 1 --html "$out/page.html" tests/data/logdir
for m in tests/data/metadata/__cluster_metadata-0 tests/data/metadata-snapshot/__cluster_metadata-0; do
  case_in "table json" "metadata history --html $m" metadata history --html "$out/page.html" "$m"
done

if [[ -n "${KEPOCH_GOLDEN_UPDATE:-}" ]]; then
  rm -rf "$golden"
  cp -r "$got" "$golden"
  echo "output-golden: wrote $cases cases to $golden/ (git diff $golden shows what changed)"
  exit 0
fi
if ! diff -ru "$golden" "$got" >"$SCRATCH/diff"; then
  head -c 60000 "$SCRATCH/diff"
  fail "output differs from $golden/ (- the golden, + this build; ./dev golden regenerates after a deliberate change)"
fi
echo "output-golden: $cases cases identical"
