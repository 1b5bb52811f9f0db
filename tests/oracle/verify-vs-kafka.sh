#!/usr/bin/env bash
# Kafka as the oracle for `partition verify`'s recovery prediction: replicas (RF 1, so no
# fetching from a leader changes files after the restart: what we see is recovery alone) on
# broker 3 are damaged the ways an outage does while the broker is down; kepoch predicts
# from the stopped broker's dir (read-only); then the broker starts and Kafka's log lines
# ("Recovering unflushed segment", "Found invalid messages ... at byte offset N",
# "Corruption found in segment B, truncating to offset N", "Deleting segments as part of
# log recovery", "Completed load of Log(...) ... log-end-offset N") and the .log files left
# must be what kepoch said.
# After kill -9 (no clean-shutdown marker; recovery point from the last clean shutdown):
#   torn  the active segment cut in the middle of its last batch
#   flip  a flipped byte in a middle batch of the active segment
#   old   a flipped byte in a segment below the recovery point (Kafka does not look)
#   mid   a flipped byte in a segment above the recovery point (later segments deleted)
#   zero  4096 zero bytes after the active segment's batches (preallocated space)
# After SIGTERM (clean-shutdown marker: no recovery): torn and flip again, Kafka keeps the
# bytes; then zero: Kafka cannot find the log end and the broker exits, and the start after
# that (marker gone) recovers.
. "$(dirname "$0")/common.sh"
cluster_up

B=3
LOGDIR="$("$KC" logdir $B)"
BLOG="$KEPOCH_CLUSTER_DIR/broker-$B/server.log"
# The recovery point checkpoint must be the one the last clean shutdown wrote: keep the
# restarted broker from rewriting it (LogManager's checkpoint task) before we kill it.
echo "log.initial.task.delay.ms=600000" >>"$KEPOCH_CLUSTER_DIR/broker-$B/server.properties"

# One topic, one partition per case, all on broker 3, each with several small segments
# (about 24 one-record batches in a segment; the keys spread the records over the partitions).
declare -A P=([torn]=v-0 [flip]=v-1 [old]=v-2 [mid]=v-3 [zero]=v-4)
"$KC" create-topic v --assignment $B,$B,$B,$B,$B --config internal.segment.bytes=2048 >/dev/null
"$KC" produce v 300 --sync >/dev/null
"$KC" term $B >/dev/null  # the recovery points: every partition's log end
"$KC" start $B >/dev/null
"$KC" produce v 400 --sync --start 300 >/dev/null
"$KC" kill $B >/dev/null
[[ ! -e "$LOGDIR/.kafka_cleanshutdown" ]] || fail "kill -9 left a clean-shutdown marker"

# Lines of broker 3's log since its last start (kafka-cluster records the offset), into a
# file: grep -q on a pipe would fail the pipeline (pipefail) when it stops reading early.
since_start() { tail -c +"$(($(cat "$KEPOCH_CLUSTER_DIR/broker-$B/log.offset") + 1))" "$BLOG" >"$SCRATCH/run.log"; }

# Batches of one segment as `segment dump -o json` lists them.
batches() { "$KEPOCH" segment dump -o json "$1" >"$SCRATCH/dump.json" && json "$SCRATCH/dump.json" "$2"; }
segment_files() { (cd "$LOGDIR/$1" && ls -- *.log); }

flip_byte() {  # flip_byte FILE POSITION
  python3 - "$1" "$2" <<'PY'
import sys
path, at = sys.argv[1], int(sys.argv[2])
b = bytearray(open(path, 'rb').read()); b[at] ^= 0x01; open(path, 'wb').write(b)
PY
}

# predict CASE PARTITION-DIR: kepoch on the stopped broker's dir; remembers the .log sizes.
predict() {
  local c=$1 t=$2
  "$KEPOCH" partition verify -o json "$LOGDIR/$t" >"$SCRATCH/$c.json" || [[ $? -eq 1 ]] ||
    fail "$c: partition verify failed"
  (cd "$LOGDIR/$t" && stat -c '%n %s' -- *.log) >"$SCRATCH/$c.before"
  echo "$c: kepoch: recovery point $(json "$SCRATCH/$c.json" "d[0]['recovery_point']")," \
    "clean shutdown $(json "$SCRATCH/$c.json" "d[0]['clean_shutdown']")," \
    "next start: $(json "$SCRATCH/$c.json" "d[0]['recovery_next_start'] and {k: d[0]['recovery_next_start'][k] for k in ('truncated_segment', 'valid_bytes', 'truncate_to_offset', 'stop_reason', 'deleted_segments')}")" \
    "$(json "$SCRATCH/$c.json" "'fails: %s' % d[0]['next_start_failure'] if d[0]['next_start_failure'] else ''")"
}

# wait_loaded PARTITION-DIR...: until this start logged "Completed load of Log(dir=..." for each.
wait_loaded() {
  local t i
  for t in "$@"; do
    for ((i = 0; i < 150; i++)); do
      since_start
      grep -qF "Completed load of Log(dir=$LOGDIR/$t," "$SCRATCH/run.log" && continue 2
      sleep 0.2
    done
    fail "broker $B did not load $t within 30 s"
  done
}

# compare CASE PARTITION-DIR: what Kafka did at this start against kepoch's recovery_next_start.
compare() {
  local c=$1 t=$2
  since_start
  cp "$SCRATCH/run.log" "$SCRATCH/$c.log"
  (cd "$LOGDIR/$t" && stat -c '%n %s' -- *.log) >"$SCRATCH/$c.after"
  python3 - "$SCRATCH" "$c" "$LOGDIR/$t" <<'PY' || fail "$c: Kafka's recovery differs from kepoch's prediction"
import json, re, sys
scratch, case, pdir = sys.argv[1:]
p = json.load(open(f"{scratch}/{case}.json"))[0]
r = p["recovery_next_start"]
sizes = lambda f: {n: int(s) for n, s in (l.split() for l in open(f"{scratch}/{case}.{f}"))}
before, after = sizes("before"), sizes("after")
part = f"partition={p['topic']}-{p['partition']}, dir="
lines = [l for l in open(f"{scratch}/{case}.log") if part in l or f"{pdir}/" in l or f"dir={pdir}," in l]
grab = lambda pat: [m.groups() for l in lines for m in [re.search(pat, l)] if m]
recovered = [int(b) for (b,) in grab(r"Recovering unflushed segment (\d+)\.")]
invalid = [int(n) for (n,) in grab(r"Found invalid messages in log segment \S+ at byte offset (\d+)")]
corruption = [(int(b), int(n)) for b, n in grab(r"Corruption found in segment (\d+), truncating to offset (\d+)")]
deleted = sorted(int(b) for (s,) in grab(r"Deleting segments as part of log recovery: (.*)")
                 for b in re.findall(r"baseOffset=(\d+)", s))
loaded = grab(r"Completed load of Log\(dir=.* with (\d+) segments, local-log-start-offset (\d+) and log-end-offset (\d+)")
assert len(loaded) == 1, f"expected one 'Completed load' line, got {loaded}"
nseg, leo = int(loaded[0][0]), int(loaded[0][2])
gone = sorted(n for n in before if n not in after)
print(f"{case}: Kafka: recovered segments {recovered}, invalid messages at {invalid}, "
      f"truncated {corruption}, deleted {deleted}, log end offset {leo}, {nseg} segments; "
      f"sizes changed {[(n, before[n], after.get(n)) for n in before if before[n] != after.get(n)]}")
base = lambda name: int(name.split(".")[0])
problems = []
def expect(what, kafka, kepoch):
    if kafka != kepoch:
        problems.append(f"{what}: Kafka {kafka}, kepoch {kepoch}")
if r is None:
    expect("truncation", corruption, [])
    expect("deleted segments", deleted + gone, [])
    expect(".log sizes", after, before)
    expect("log end offset", leo, p["log_end_offset"])
else:
    seg = r["truncated_segment"]
    expect("truncation", corruption, [(base(seg), r["truncate_to_offset"])])
    expect("truncated segment size", after.get(seg), r["valid_bytes"])
    expect("bytes cut", before[seg] - after.get(seg, 0), r["truncated_bytes"])
    expect("deleted segments (log line)", deleted, sorted(base(s) for s in r["deleted_segments"]))
    expect("deleted segments (files)", gone, sorted(r["deleted_segments"]))
    expect("other .log sizes", {n: s for n, s in after.items() if n != seg},
           {n: s for n, s in before.items() if n != seg and n not in r["deleted_segments"]})
    expect("log end offset", leo, r["truncate_to_offset"])
    # LogSegment.recover logs only what ensureValid or the size check threw, not a torn tail.
    thrown = r["stop_reason"] in ("invalid-batch", "corrupt-size")
    expect("'Found invalid messages' byte offset", invalid, [r["valid_bytes"]] if thrown else [])
# recoverLog: from the segment holding the recovery point up to the one it cuts.
bases = sorted(base(n) for n in before)
first = max([i for i, b in enumerate(bases) if b <= (p["recovery_point"] or 0)] or [0])
upto = base(r["truncated_segment"]) if r else bases[-1]
expect("segments recovered", recovered, [] if p["clean_shutdown"] else [b for b in bases[first:] if b <= upto])
expect("segment count", nseg, len(after))
if problems:
    print("\n".join(f"{case}: DIFFERS: {x}" for x in problems))
    sys.exit(1)
print(f"{case}: kepoch agrees")
PY
}

# --- kill -9: damage while down, predict, restart, compare.
d="$LOGDIR/${P[torn]}"
active=$(segment_files "${P[torn]}" | tail -n1)
last=$(batches "$d/$active" "d[0]['batches'][-1]['position']")
truncate -s $((last + 30)) "$d/$active"

d="$LOGDIR/${P[flip]}"
active=$(segment_files "${P[flip]}" | tail -n1)
pos=$(batches "$d/$active" "(lambda b: b[len(b) // 2]['position'])(d[0]['batches'])")
flip_byte "$d/$active" $((pos + 70))

# segments_where PARTITION-DIR EXPR: the .log files whose base offset b, the next one's n
# (None for the last) and the recovery point rp satisfy EXPR, in offset order.
segments_where() {
  "$KEPOCH" partition inspect -o json "$LOGDIR/$1" >"$SCRATCH/inspect.json"
  json "$SCRATCH/inspect.json" "(lambda p: '\n'.join(s['file'] for s, n in zip(p['segments'], [t['base_offset'] for t in p['segments'][1:]] + [None]) for b, rp in [(s['base_offset'], p['recovery_point'])] if $2))(d[0])"
}
# old: the last segment wholly below the segment holding the recovery point.
old=$(segments_where "${P[old]}" "n is not None and n <= rp" | tail -n1)
[[ -n $old && $old != 00000000000000000000.log ]] || fail "old: no second segment below the recovery point"
pos=$(batches "$LOGDIR/${P[old]}/$old" "d[0]['batches'][2]['position']")
flip_byte "$LOGDIR/${P[old]}/$old" $((pos + 70))

# mid: the first segment above the recovery point with segments after it.
mid=$(segments_where "${P[mid]}" "b > rp and n is not None" | sed -n 1p)
[[ -n $mid ]] || fail "mid: no segment above the recovery point with segments after it"
pos=$(batches "$LOGDIR/${P[mid]}/$mid" "d[0]['batches'][3]['position']")
flip_byte "$LOGDIR/${P[mid]}/$mid" $((pos + 70))

active=$(segment_files "${P[zero]}" | tail -n1)
head -c 4096 /dev/zero >>"$LOGDIR/${P[zero]}/$active"

cases=(torn flip old mid zero)
for c in "${cases[@]}"; do predict "$c" "${P[$c]}"; done
[[ $(json "$SCRATCH/old.json" "(d[0]['recovery_next_start'], d[0]['recovery_full']['truncated_segment'])") == "(None, '$old')" ]] ||
  fail "old: kepoch should see the damage but not predict that Kafka cuts it"
[[ $(json "$SCRATCH/mid.json" "len(d[0]['recovery_next_start']['deleted_segments']) > 0") == True ]] ||
  fail "mid: kepoch should predict deleted segments"
"$KC" start $B >/dev/null
wait_loaded "${P[@]}"
for c in "${cases[@]}"; do compare "$c" "${P[$c]}"; done

# --- SIGTERM: the clean-shutdown marker makes Kafka skip recovery.
"$KC" term $B >/dev/null
[[ -e "$LOGDIR/.kafka_cleanshutdown" ]] || fail "SIGTERM left no clean-shutdown marker"
d="$LOGDIR/${P[torn]}"
active=$(segment_files "${P[torn]}" | tail -n1)
last=$(batches "$d/$active" "d[0]['batches'][-1]['position']")
truncate -s $((last + 30)) "$d/$active"
d="$LOGDIR/${P[flip]}"
active=$(segment_files "${P[flip]}" | tail -n1)
pos=$(batches "$d/$active" "d[0]['batches'][-1]['position']")
flip_byte "$d/$active" $((pos + 70))
predict clean-torn "${P[torn]}"
predict clean-flip "${P[flip]}"
for c in clean-torn clean-flip; do
  [[ $(json "$SCRATCH/$c.json" "(d[0]['recovery_next_start'], d[0]['recovery_full'] is not None, d[0]['next_start_failure'])") == "(None, True, None)" ]] ||
    fail "$c: after a clean shutdown kepoch should predict no cut and no failure"
done
"$KC" start $B >/dev/null
wait_loaded "${P[torn]}" "${P[flip]}"
compare clean-torn "${P[torn]}"
compare clean-flip "${P[flip]}"

# --- SIGTERM, then a zero-filled tail: Kafka cannot load the log at all.
"$KC" term $B >/dev/null
active=$(segment_files "${P[zero]}" | tail -n1)
head -c 4096 /dev/zero >>"$LOGDIR/${P[zero]}/$active"
predict clean-zero "${P[zero]}"
failure=$(json "$SCRATCH/clean-zero.json" "(lambda f: f and (f['segment'], f['exception'], f['message']))(d[0]['next_start_failure'])")
[[ $failure != None ]] || fail "clean-zero: kepoch predicts no failure"
if KEPOCH_UP_TIMEOUT=60 "$KC" start $B >/dev/null 2>&1; then
  fail "clean-zero: broker $B started, kepoch said it would not ($failure)"
fi
since_start
# LogManager's error: "...logs loading: <exception>: <message> (kafka.log.LogManager)" up
# to 4.3; from 4.4 (LogManager in Java) the exception on the line after "...logs loading
# (org.apache.kafka.storage.internals.log.LogManager)".
thrown=$(awk '/There was an error in one of the threads during logs loading/ {
    if (match($0, /logs loading: .*/)) { s = substr($0, RSTART + 14); sub(/ \(kafka\.log\.LogManager\)$/, "", s); print s; exit }
    getline; print; exit }' "$SCRATCH/run.log")
echo "clean-zero: Kafka: ${thrown:-no load error}"
[[ "$thrown" == "org.apache.kafka.common.errors.$(json "$SCRATCH/clean-zero.json" "(lambda f: f['exception'] + ': ' + f['message'])(d[0]['next_start_failure'])")" ]] ||
  fail "clean-zero: kepoch predicted $failure"
grep -qF "Error starting LogManager" "$SCRATCH/run.log" || fail "clean-zero: the broker did not stop on it"
[[ ! -e "$LOGDIR/.kafka_cleanshutdown" ]] || fail "clean-zero: Kafka kept the clean-shutdown marker"
echo "clean-zero: kepoch agrees: the broker exits"
"$KC" kill $B >/dev/null 2>&1 || true
# The failed start deleted the marker: the next one recovers the segment.
predict after-failure "${P[zero]}"
[[ $(json "$SCRATCH/after-failure.json" "d[0]['next_start_failure'] is None and d[0]['recovery_next_start'] is not None") == True ]] ||
  fail "after-failure: kepoch should predict recovery now"
"$KC" start $B >/dev/null
wait_loaded "${P[zero]}"
compare after-failure "${P[zero]}"
echo "verify-vs-kafka: kepoch's recovery predictions match Kafka in ${#cases[@]} unclean and 3 clean cases"
