#!/usr/bin/env bash
# Output is byte-identical across performance work: every offline command over every fixture
# in every output format, hashed (stdout, stderr and exit status), equals the committed list
# tests/cli/output-golden.sha256, made by the binary before the output writers were rewritten
# (issue 21: JSON/YAML writers, libdeflate). A deliberate output change regenerates the list:
#   KEPOCH_GOLDEN_UPDATE=1 KEPOCH=build/dev/apps/kepoch/kepoch KEPOCH_SOURCE_DIR=. \
#     bash tests/cli/output-golden.sh
# and the diff of the list shows which cases changed.
source "$(dirname "$0")/common.sh"

# Byte identity is the dev build's to show; under ASan the same 1,152 runs would cost the
# sanitizer lane some ten minutes, and every command is run under ASan by the other scenarios.
if [[ -n ${ASAN_OPTIONS:-} ]] || ldd "$KEPOCH" 2>/dev/null | grep libasan >/dev/null; then
  echo "skipped under ASan (byte identity is checked on the dev build)"
  exit 0
fi
cd "$KEPOCH_SOURCE_DIR"  # relative paths: the outputs name files as given
golden=tests/cli/output-golden.sha256
formats=(table wide json yaml jsonl)
got="$SCRATCH/got.sha256"
: >"$got"

# case_ NAME ARGS...: runs kepoch ARGS in every format, one line per format in $got
case_() { case_in "${formats[*]}" "$@"; }
# case_in "FORMATS" NAME ARGS...: the same in the formats named
case_in() {
  local fs=$1 name=$2 f rc
  shift 2
  for f in $fs; do
    rc=0
    "$KEPOCH" --no-color -o "$f" "$@" >"$SCRATCH/o" 2>"$SCRATCH/e" || rc=$?
    printf '%s  %s -o %s\n' \
      "$( (cat "$SCRATCH/o"; echo "--- stderr"; cat "$SCRATCH/e"; echo "--- exit $rc") | sha256sum | cut -c1-16)" \
      "$name" "$f" >>"$got"
  done
}

mapfile -t parts < <(find tests/data/ -name '[0-9]*.log' -printf '%h\n' | LC_ALL=C sort -u)
for p in "${parts[@]}"; do
  mapfile -t logs < <(find "$p" -maxdepth 1 -name '[0-9]*.log' | LC_ALL=C sort)
  mapfile -t idx < <(find "$p" -maxdepth 1 \( -name '*.index' -o -name '*.timeindex' -o -name '*.txnindex' -o -name '*.snapshot' \) | LC_ALL=C sort)
  case_ "segment dump $p" segment dump "${logs[@]}"
  case_ "segment dump --data $p" segment dump --data "${logs[@]}"
  for df in hex base64; do
    case_in "json jsonl yaml" "segment dump --data-format $df $p" segment dump --data --data-format "$df" "${logs[@]}"
  done
  ((${#idx[@]} == 0)) || case_ "segment dump indexes $p" segment dump "${idx[@]}"
  case_ "partition inspect $p" partition inspect "$p"
  case_ "partition verify $p" partition verify "$p"
  case_ "checkpoint dump $p" checkpoint dump "$p"
done
mapfile -t logdirs < <(find tests/data/ -name '*offset-checkpoint' -printf '%h\n' | LC_ALL=C sort -u)
for d in "${logdirs[@]}"; do
  case_ "logdir scan $d" logdir scan "$d"
  case_ "checkpoint dump $d" checkpoint dump "$d"
  case_ "checkpoint validate $d" checkpoint validate "$d"
done
for m in tests/data/metadata/__cluster_metadata-0 tests/data/kraft-standalone/__cluster_metadata-0 \
  tests/data/metadata-snapshot/__cluster_metadata-0; do
  case_ "metadata dump $m" metadata dump "$m"
  case_ "metadata history $m" metadata history "$m"
done
for s in before after; do
  r=(tests/data/divergence/$s/broker-{1,2,3}/d-0)
  case_ "diff divergence/$s" diff "${r[@]}"
  case_ "predict divergence/$s" predict --leader "${r[0]}" "${r[1]}" "${r[2]}"
done
r=(tests/data/leader-changes/broker-{1,2,3}/lc-0)
case_ "diff leader-changes" diff "${r[@]}"
case_ "predict leader-changes" predict --leader "${r[0]}" "${r[1]}" "${r[2]}"
r=(tests/data/clean-3replica/broker-{1,2,3}/t-0)
case_ "diff clean-3replica" diff "${r[@]}"

if [[ -n "${KEPOCH_GOLDEN_UPDATE:-}" ]]; then
  cp "$got" "$golden"
  echo "output-golden: wrote $(wc -l <"$golden") cases to $golden"
  exit 0
fi
if ! diff -u "$golden" "$got" >"$SCRATCH/diff"; then
  cat "$SCRATCH/diff"
  fail "output differs from $golden (lines with + changed; rerun a case by hand to see how)"
fi
echo "output-golden: $(wc -l <"$got") cases identical"
