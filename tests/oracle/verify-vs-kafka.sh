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

# Several small segments: about 24 one-record batches in each.
for t in torn flip old mid zero; do
  "$KC" create-topic "$t" --assignment $B --config internal.segment.bytes=2048 >/dev/null
  "$KC" produce "$t" 60 --sync >/dev/null
done
"$KC" term $B >/dev/null  # recovery point: 60 for every topic
"$KC" start $B >/dev/null
for t in old mid; do
  "$KC" produce "$t" 80 --sync --start 60 >/dev/null
done
"$KC" kill $B >/dev/null
[[ ! -e "$LOGDIR/.kafka_cleanshutdown" ]] || fail "kill -9 left a clean-shutdown marker"

# Lines of broker 3's log since its last start (kafka-cluster records the offset), into a
# file: grep -q on a pipe would fail the pipeline (pipefail) when it stops reading early.
since_start() { tail -c +"$(($(cat "$KEPOCH_CLUSTER_DIR/broker-$B/log.offset") + 1))" "$BLOG" >"$SCRATCH/run.log"; }

# Batches of one segment as `segment dump -o json` lists them.
batches() { "$KEPOCH" segment dump -o json "$1" >"$SCRATCH/dump.json" && json "$SCRATCH/dump.json" "$2"; }
segment_files() { (cd "$LOGDIR/$1-0" && ls -- *.log); }

flip_byte() {  # flip_byte FILE POSITION
  python3 - "$1" "$2" <<'PY'
import sys
path, at = sys.argv[1], int(sys.argv[2])
b = bytearray(open(path, 'rb').read()); b[at] ^= 0x01; open(path, 'wb').write(b)
PY
}

# predict CASE TOPIC: kepoch on the stopped broker's dir; remembers the .log sizes.
predict() {
  local c=$1 t=$2
  "$KEPOCH" partition verify -o json "$LOGDIR/$t-0" >"$SCRATCH/$c.json" || [[ $? -eq 1 ]] ||
    fail "$c: partition verify failed"
  (cd "$LOGDIR/$t-0" && stat -c '%n %s' -- *.log) >"$SCRATCH/$c.before"
  echo "$c: kepoch: recovery point $(json "$SCRATCH/$c.json" "d[0]['recovery_point']")," \
    "clean shutdown $(json "$SCRATCH/$c.json" "d[0]['clean_shutdown']")," \
    "next start: $(json "$SCRATCH/$c.json" "d[0]['recovery_next_start'] and {k: d[0]['recovery_next_start'][k] for k in ('truncated_segment', 'valid_bytes', 'truncate_to_offset', 'stop_reason', 'deleted_segments')}")" \
    "$(json "$SCRATCH/$c.json" "'fails: %s' % d[0]['next_start_failure'] if d[0]['next_start_failure'] else ''")"
}

# wait_loaded TOPIC...: until this start logged "Completed load of Log(dir=.../T-0," for each.
wait_loaded() {
  local t i
  for t in "$@"; do
    for ((i = 0; i < 150; i++)); do
      since_start
      grep -qF "Completed load of Log(dir=$LOGDIR/$t-0," "$SCRATCH/run.log" && continue 2
      sleep 0.2
    done
    fail "broker $B did not load $t-0 within 30 s"
  done
}

# compare CASE TOPIC: what Kafka did at this start against kepoch's recovery_next_start.
compare() {
  local c=$1 t=$2
  since_start
  cp "$SCRATCH/run.log" "$SCRATCH/$c.log"
  (cd "$LOGDIR/$t-0" && stat -c '%n %s' -- *.log) >"$SCRATCH/$c.after"
  python3 - "$SCRATCH" "$c" "$LOGDIR/$t-0" <<'PY' || fail "$c: Kafka's recovery differs from kepoch's prediction"
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
if p["clean_shutdown"]:
    expect("segments recovered", recovered, [])
expect("segment count", nseg, len(after))
if problems:
    print("\n".join(f"{case}: DIFFERS: {x}" for x in problems))
    sys.exit(1)
print(f"{case}: kepoch agrees")
PY
}

# --- kill -9: damage while down, predict, restart, compare.
seg() { segment_files "$1" | sed -n "$2p"; }
active=$(segment_files torn | tail -n1)
last=$(batches "$LOGDIR/torn-0/$active" "d[0]['batches'][-1]['position']")
truncate -s $((last + 30)) "$LOGDIR/torn-0/$active"

active=$(segment_files flip | tail -n1)
pos=$(batches "$LOGDIR/flip-0/$active" "(lambda b: b[len(b) // 2]['position'])(d[0]['batches'])")
flip_byte "$LOGDIR/flip-0/$active" $((pos + 70))

# old: the second segment (offsets 25..48), below the recovery point 60.
old=$(seg old 2)
pos=$(batches "$LOGDIR/old-0/$old" "d[0]['batches'][2]['position']")
flip_byte "$LOGDIR/old-0/$old" $((pos + 70))

# mid: the fourth segment (offsets 73..96), above the recovery point 60, two more after it.
mid=$(seg mid 4)
[[ $(segment_files mid | wc -l) -ge 6 ]] || fail "mid: expected at least 6 segments"
pos=$(batches "$LOGDIR/mid-0/$mid" "d[0]['batches'][3]['position']")
flip_byte "$LOGDIR/mid-0/$mid" $((pos + 70))

active=$(segment_files zero | tail -n1)
head -c 4096 /dev/zero >>"$LOGDIR/zero-0/$active"

cases=(torn flip old mid zero)
for c in "${cases[@]}"; do predict "$c" "$c"; done
[[ $(json "$SCRATCH/old.json" "d[0]['recovery_point']") == 60 ]] || fail "old: expected recovery point 60"
[[ $(json "$SCRATCH/old.json" "(d[0]['recovery_next_start'], d[0]['recovery_full']['truncated_segment'])") == "(None, '$old')" ]] ||
  fail "old: kepoch should see the damage but not predict that Kafka cuts it"
"$KC" start $B >/dev/null
wait_loaded "${cases[@]}"
for c in "${cases[@]}"; do compare "$c" "$c"; done

# --- SIGTERM: the clean-shutdown marker makes Kafka skip recovery.
"$KC" term $B >/dev/null
[[ -e "$LOGDIR/.kafka_cleanshutdown" ]] || fail "SIGTERM left no clean-shutdown marker"
active=$(segment_files torn | tail -n1)
last=$(batches "$LOGDIR/torn-0/$active" "d[0]['batches'][-1]['position']")
truncate -s $((last + 30)) "$LOGDIR/torn-0/$active"
active=$(segment_files flip | tail -n1)
pos=$(batches "$LOGDIR/flip-0/$active" "d[0]['batches'][1]['position']")
flip_byte "$LOGDIR/flip-0/$active" $((pos + 70))
predict clean-torn torn
predict clean-flip flip
for c in clean-torn clean-flip; do
  [[ $(json "$SCRATCH/$c.json" "(d[0]['recovery_next_start'], d[0]['recovery_full'] is not None, d[0]['next_start_failure'])") == "(None, True, None)" ]] ||
    fail "$c: after a clean shutdown kepoch should predict no cut and no failure"
done
"$KC" start $B >/dev/null
wait_loaded torn flip
compare clean-torn torn
compare clean-flip flip

# --- SIGTERM, then a zero-filled tail: Kafka cannot load the log at all.
"$KC" term $B >/dev/null
active=$(segment_files zero | tail -n1)
head -c 4096 /dev/zero >>"$LOGDIR/zero-0/$active"
predict clean-zero zero
failure=$(json "$SCRATCH/clean-zero.json" "(lambda f: f and (f['segment'], f['exception'], f['message']))(d[0]['next_start_failure'])")
[[ $failure != None ]] || fail "clean-zero: kepoch predicts no failure"
if KEPOCH_UP_TIMEOUT=60 "$KC" start $B >/dev/null 2>&1; then
  fail "clean-zero: broker $B started, kepoch said it would not ($failure)"
fi
since_start
thrown=$(grep -oE "There was an error in one of the threads during logs loading: .*" "$SCRATCH/run.log" | sed -n '1s/ (kafka.log.LogManager)$//p')
echo "clean-zero: Kafka: ${thrown:-no load error}"
[[ "$thrown" == "There was an error in one of the threads during logs loading: org.apache.kafka.common.errors.$(json "$SCRATCH/clean-zero.json" "(lambda f: f['exception'] + ': ' + f['message'])(d[0]['next_start_failure'])")" ]] ||
  fail "clean-zero: kepoch predicted $failure"
grep -qF "Error starting LogManager" "$SCRATCH/run.log" || fail "clean-zero: the broker did not stop on it"
[[ ! -e "$LOGDIR/.kafka_cleanshutdown" ]] || fail "clean-zero: Kafka kept the clean-shutdown marker"
echo "clean-zero: kepoch agrees: the broker exits"
"$KC" kill $B >/dev/null 2>&1 || true
# The failed start deleted the marker: the next one recovers the segment.
predict after-failure zero
[[ $(json "$SCRATCH/after-failure.json" "d[0]['next_start_failure'] is None and d[0]['recovery_next_start'] is not None") == True ]] ||
  fail "after-failure: kepoch should predict recovery now"
"$KC" start $B >/dev/null
wait_loaded zero
compare after-failure zero
echo "verify-vs-kafka: kepoch's recovery predictions match Kafka in ${#cases[@]} unclean and 3 clean cases"
