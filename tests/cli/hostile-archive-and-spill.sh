#!/usr/bin/env bash
# Holes a red-team pass found in the promises "never harm the data" and "bad input is a clear
# error, never a crash or a report cut short", each made here from the real fixtures:
# - a salvage archive line within the 64 MiB line cap whose unknown member holds millions of
#   empty objects: nlohmann built ~27 bytes of values per byte of line and its destructor,
#   which allocates, ended `replay` in std::terminate (SIGABRT) under `ulimit -v`; the reader
#   now builds only the members it reads (a 12 MiB line under 256 MiB: read; the same
#   millions as a member's value where a scalar belongs: refused by its type, exit 3);
# - `plan -o json` spills its lists to anonymous temporary files: a file-size limit (as a
#   full /tmp) cut the report short, an invalid document with exit 1; now exit 3, one line,
#   nothing on standard output;
# - an output path that is a loop of symbolic links: the rename replaced the operator's link;
#   now refused (exit 2) and the link is left as it was;
# - `plan --metadata` of a log that starts past offset 0 with no snapshot below it: a verdict
#   of "nothing to decide", exit 0, for partitions it never saw; now exit 3;
# - `plan --metadata` with another cluster's state: planned (exit 1); now refused (exit 2);
# - a log dir snapshot's replica line within the line cap with millions of empty objects
#   under a member the reader does not know: diff, predict and plan ended in SIGABRT under
#   256 MiB of `ulimit -v`; now read (where a scalar belongs: refused by its type, exit 3),
#   and millions of valid notes, out of memory, exit 3 "out of memory reading" (SIGABRT);
# - a snapshot holding a replica and its batch lines twice (the end line's counts raised):
#   read as two replicas of one partition in one log dir; now refused naming the line
#   (exit 3), and `logdir snapshot` of one log dir given twice, which wrote such a file, is
#   refused (exit 2).
. "$(dirname "$0")/common.sh"

B="$DATA/divergence/before"
cd "$SCRATCH"
expect_exit 1 "$KEPOCH" salvage --archive a.jsonl --leader "$B/broker-2/d-0" "$B/broker-1/d-0"

# line2 NAME EXPR: a.jsonl with line 2 (the first record, `l` in EXPR) replaced, as NAME.
line2() {
  python3 - "$1" "$2" <<'EOF'
import sys
name, expr = sys.argv[1:]
lines = open('a.jsonl').read().split('\n')
l = lines[1]
many = ','.join(['{}'] * ((12 << 20) // 3))  # 12 MiB of empty objects: ~4 M values
lines[1] = eval(expr)
open(name, 'w').write('\n'.join(lines))
EOF
}

ASAN=0
if [[ -n ${ASAN_OPTIONS:-} ]] || ldd "$KEPOCH" 2>/dev/null | grep libasan >/dev/null; then ASAN=1; fi
# run LIMIT_KIB WANT CMD...: under `ulimit -v` (not under ASan: its shadow memory needs
# terabytes of address space), stdout and stderr kept.
run() {
  local limit=$1 want=$2 got=0
  shift 2
  (
    [[ $ASAN == 1 ]] || ulimit -v "$limit"
    exec timeout 120 "$@"
  ) >out 2>err || got=$?
  [[ $got -eq $want ]] || { head -c 1000 err; fail "$*: exit $got, expected $want"; }
  if grep -q "internal error" err; then fail "$*: internal error"; fi
}

line2 unknown.jsonl "l[:-1] + ',\"x\":[' + many + ']}'"
run $((256 * 1024)) 0 "$KEPOCH" replay --dry-run unknown.jsonl
expect_in out "Dry run: 3 records would be replayed"
line2 mistyped.jsonl "l.replace('\"topic\":\"d\"', '\"topic\":[' + many + ']')"
run $((256 * 1024)) 3 "$KEPOCH" replay --dry-run mistyped.jsonl
expect_in err 'kepoch: mistyped.jsonl:2: "topic": expected a topic name, found an array'
[[ $(wc -l <err) == 1 ]] || fail "the refusal is not one line: $(head -c 500 err)"
line2 header.jsonl "l.replace('\"headers\":[]', '\"headers\":[{\"key\":\"aA==\",\"value\":null,\"x\":[' + many + ']}]')"
run $((256 * 1024)) 0 "$KEPOCH" replay -o json --dry-run header.jsonl
[[ $(json out "d['selected']") == 3 ]] || fail "header.jsonl: $(cat out)"

# plan -o json under a file-size limit (SIGXFSZ ignored: a write past it fails with EFBIG,
# as one on a full disk does). Standard output is a pipe, which the limit does not bound.
M="$DATA/metadata"
plan=("$KEPOCH" plan -o json --all --metadata "$M" --ids 1 "$DATA/logdir")
got=0
"${plan[@]}" >whole.json 2>err || got=$?
[[ $got == 1 ]] || fail "plan without a limit: exit $got: $(cat err)"
python3 -c "import json, sys; json.load(open(sys.argv[1]))" whole.json
(($(wc -c <whole.json) > 12 * 1024)) || fail "the plan's report is too small to spill past 8 KiB"
got=0
(
  trap '' XFSZ
  ulimit -f 8
  exec "${plan[@]}" 2>err
) | cat >cut.json || got=${PIPESTATUS[0]}
[[ $got == 3 ]] || fail "plan with its temporary files limited to 8 KiB: exit $got, $(wc -c <cut.json) bytes out: $(cat err)"
[[ ! -s cut.json ]] || fail "plan wrote $(wc -c <cut.json) bytes of a report it could not finish"
expect_in err "kepoch: temporary file: cannot write the report: File too large"
[[ $(wc -l <err) == 1 ]] || fail "the error is not one line: $(cat err)"

# An output that is a loop of symbolic links: refused, the links left as they are.
ln -s loop-b loop-a
ln -s loop-a loop-b
expect_exit 2 "$KEPOCH" salvage --archive loop-a --leader "$B/broker-2/d-0" "$B/broker-1/d-0"
expect_in "$SCRATCH/err" "--archive loop-a is a symbolic link that leads to no file (a loop of links, or more than 40)"
expect_exit 2 "$KEPOCH" logdir snapshot --overwrite --file loop-b "$B/broker-1"
expect_in "$SCRATCH/err" "--file loop-b is a symbolic link that leads to no file"
[[ -L loop-a && -L loop-b && $(readlink loop-a) == loop-b && $(readlink loop-b) == loop-a ]] ||
  fail "the loop of links was changed: $(ls -l loop-a loop-b)"
# plan --metadata with a metadata log whose start is past offset 0 and no snapshot below it
# (its .checkpoint files gone, or one segment given alone): the partitions created before are
# unknown; the plan of the rest said "All 0 partition(s) have a live leader: nothing to
# decide." with exit 0. Now exit 3, naming the log and the offset.
S="$DATA/metadata-snapshot"
"$KEPOCH" logdir snapshot --file b1.snap "$S/broker-1" >/dev/null
mkdir -p nosnap/__cluster_metadata-0
cp "$S"/__cluster_metadata-0/*.log nosnap/__cluster_metadata-0/
expect_exit 0 "$KEPOCH" plan --metadata "$S" --ids 1 b1.snap
expect_exit 3 "$KEPOCH" plan --metadata nosnap --ids 1 b1.snap
expect_in "$SCRATCH/err" "kepoch: nosnap/__cluster_metadata-0: the log starts at offset 261 and no snapshot reaches it (Kafka refuses to load it"
expect_in "$SCRATCH/err" "the partitions created below offset 261 are unknown"
first=$(ls nosnap/__cluster_metadata-0/*.log | head -1)
expect_exit 3 "$KEPOCH" plan -o json --metadata "$first" --ids 1 b1.snap
expect_in "$SCRATCH/err" "kepoch: $first: the log starts at offset 261 and no snapshot reaches it:"
[[ ! -s $SCRATCH/out ]] || fail "a plan was written from a log missing its start: $(head -c 300 "$SCRATCH/out")"
# plan --metadata with a state of another cluster (its snapshot's cluster id edited): the
# metadata log's cluster is its meta.properties' (as `diff --metadata` reads it); the plan of
# another cluster's replicas with this log's partitions was made (exit 1). Now exit 2.
"$KEPOCH" logdir snapshot --file own.snap "$DATA/logdir" >/dev/null
sed '1s/"cluster_id":"[^"]*"/"cluster_id":"AAAAAAAAAAAAAAAAAAAAAQ"/' own.snap >other.snap
expect_exit 1 "$KEPOCH" plan --metadata "$DATA/metadata" own.snap
expect_exit 2 "$KEPOCH" plan --metadata "$DATA/metadata" other.snap
expect_in "$SCRATCH/err" "kepoch: other.snap is of cluster AAAAAAAAAAAAAAAAAAAAAQ but the metadata is of cluster szVdbl2iRXOg29JrTu_QMg"
# Snapshot lines: the first replica line (line 2) made hostile, or the replica repeated.
"$KEPOCH" logdir snapshot --file s.snap "$DATA/logdir" >/dev/null
snap2() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
name, how = sys.argv[1:]
lines = open('s.snap').read().split('\n')
l = lines[1]
many = ','.join(['{}'] * ((12 << 20) // 3))  # 12 MiB of empty objects: ~4 M values
if how == 'twice':  # the replica and its batch lines again, the end line's counts raised
    j = 2
    while lines[j].startswith('{"batch"'):
        j += 1
    lines[j:j] = lines[1:j]
    end = [k for k, x in enumerate(lines) if x.startswith('{"end"')][0]
    e = json.loads(lines[end])['end']
    e['replicas'] += 1
    e['batches'] += j - 2
    lines[end] = json.dumps({'end': e}, separators=(',', ':'))
else:
    lines[1] = eval(how)
open(name, 'w').write('\n'.join(lines))
EOF
}
snap2 unknown.snap "l[:-2] + ',\"zz\":[' + many + ']}}'"
run $((256 * 1024)) 1 "$KEPOCH" plan --metadata "$DATA/metadata" unknown.snap
snap2 mistyped.snap "l.replace('\"topic\":\"codec-zstd\"', '\"topic\":[' + many + ']', 1)"
run $((256 * 1024)) 3 "$KEPOCH" diff mistyped.snap s.snap
expect_in err "kepoch: mistyped.snap:2: replica.topic: expected a string, found [{},{},"
[[ $(wc -l <err) == 1 ]] || fail "the refusal is not one line: $(head -c 500 err)"
# Millions of notes (valid, read): more than 256 MiB holds, so out of memory, said as such
# (nlohmann's destructor, which allocates, ended the run in SIGABRT when memory ran out).
# Under ASan no limit applies (its shadow memory needs more than any), so the line is read.
if [[ $ASAN == 0 ]]; then
  snap2 notes.snap "l.replace('\"notes\":[]', '\"notes\":[' + many.replace('{}', '\"\"') + ']', 1).replace('{\"replica\":{', '{\"replica\": {')"
  run $((256 * 1024)) 3 "$KEPOCH" diff notes.snap s.snap
  expect_in err "kepoch: out of memory reading notes.snap, s.snap"
fi
snap2 twice.snap twice
again=$(awk 'NR > 2 && !/^\{"batch"/ { print NR; exit }' s.snap)  # where the repeat starts
for cmd in "diff twice.snap s.snap" "predict --leader s.snap twice.snap" \
  "plan --metadata $DATA/metadata twice.snap"; do
  # shellcheck disable=SC2086
  expect_exit 3 "$KEPOCH" $cmd
  expect_in "$SCRATCH/err" "kepoch: twice.snap:$again: replica: expected each replica once"
  expect_in "$SCRATCH/err" "again (first on line 2)"
done
expect_exit 2 "$KEPOCH" logdir snapshot --file again.snap "$DATA/logdir" "$DATA/logdir/"
expect_in "$SCRATCH/err" "are the same dir: a snapshot holds each replica once"
[[ ! -e again.snap ]] || fail "logdir snapshot wrote a file of a log dir given twice"
echo "hostile archive lines, a full temporary dir, a loop of links, a metadata log missing its start, another cluster's state, hostile snapshot lines and a replica twice: handled"
