#!/usr/bin/env bash
# Kafka as the judge of kepoch on a ZooKeeper-mode cluster (issue 24; Kafka 3.9.1: one
# ZooKeeper server from the jars Kafka's Maven dependencies bring, three brokers). Roles: C,
# the controller at the start; S, stopped cleanly in step 1 and elected uncleanly when it
# returns; K, which stays up (the next controller). Topic u (unclean.leader.election.enable,
# replicas C and S) takes records only C has while S is away, so that the kill of C leaves
# u offline, S's return elects S uncleanly, and C's return truncates C.
#   step 1    `what-if --stop S` (controlled), then SIGTERM to S: every partition's leader,
#             ISR and leader epoch in ZooKeeper (and kafka-topics' leader and ISR) as
#             forecast, with the ZooKeeper controller's epoch bumps (a follower leaving the ISR
#             bumps it too; the only ISR member leaving: leader none, + 1); then the offline
#             commands on S's log dir, clean with --strict, and `metadata history` saying that
#             such a broker keeps its metadata in ZooKeeper;
#   step 2    `what-if --stop C --kill` on the controller C, then kill -9 C: the next
#             controller's onControllerFailover (u: leader none), as forecast;
#   watch     `cluster watch` from K while C dies and S returns: u's partitions come back
#             led by S, labelled unclean (S was outside their last ISR); every partition's
#             last leader event names the leader kafka-topics has;
#   predict   `cluster predict` on C's log dir while C is down, S leading u with records of
#             its own: per partition, the truncation Kafka logs when C returns ("Truncating
#             to offset N") and the records C no longer holds once caught up (its batches
#             before that are not, by offsets and CRC, in its log after); all of them
#             committed (acks=all, below C's checkpointed high watermark);
#   describe  at the end: `cluster describe` says "ZooKeeper mode (controller K)" with K the
#             /controller znode's broker, its leaders, replicas and ISR are kafka-topics
#             --describe's, its leader epochs the partition state znodes'; `-b` at the
#             ZooKeeper port says that it may be a ZooKeeper port.
# A failed comparison is counted and the scenario goes on (the steps after it still judge
# kepoch); the test fails at the end with every failed check named. A broken scenario (Kafka
# not where the steps need it) fails at once.
. "$(dirname "$0")/common.sh"
export KEPOCH_KAFKA_VERSION=3.9.1 KEPOCH_KAFKA_MODE=zk
cluster_up
ZK="$("$KC" zookeeper)"
SNAP="$SCRATCH/snap"
mkdir -p "$SNAP"

FAILED=()
miss() { echo "FAIL: $*" >&2; FAILED+=("$1"); }
# soft_exit NAME CODE CMD...: like expect_exit, a mismatch counted under NAME.
soft_exit() {
  local name=$1 want=$2 got=0
  shift 2
  "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
  [[ $got -eq $want ]] && return 0
  echo "--- stdout"; head -n 30 "$SCRATCH/out"; echo "--- stderr"; head -n 30 "$SCRATCH/err"
  miss "$name: expected exit $want, got $got: $*"
  return 1
}
soft_in() {  # soft_in NAME FILE TEXT
  grep -qF -- "$3" "$2" && return 0
  echo "--- $2"; cat "$2"
  miss "$1: expected \"$3\" in $(basename "$2")"
  return 1
}

C=$("$KC" zk-controller)
others=()
for b in 1 2 3; do [[ $b == "$C" ]] || others+=("$b"); done
S=${others[0]} K=${others[1]}
echo "controller $C (killed in step 2), stopped cleanly and elected uncleanly: $S, kept: $K"
port_of() { grep "^BROKER_PORT_$1=" "$KEPOCH_CLUSTER_DIR/cluster.env" | cut -d= -f2; }

# u-0 led by C, u-1 by S (its controlled shutdown moves u-1 to C); a: records both have.
"$KC" create-topic u --assignment "$C:$S,$S:$C" --config unclean.leader.election.enable=true >/dev/null
"$KC" create-topic orders --assignment "$S:$C:$K,$C:$S:$K,$K:$S:$C" >/dev/null
"$KC" create-topic rf2 --assignment "$S:$K" >/dev/null
"$KC" create-topic solo --assignment "$S" >/dev/null
"$KC" produce u 40 --acks all --prefix a >/dev/null
"$KC" produce orders 30 --acks all >/dev/null

# "topic partition leader isr epoch" from the partition state znodes (leader -1: none), for
# the partitions of a kepoch JSON document
zk_states() {
  local t p paths=() keys=()
  while read -r t p; do
    paths+=("/brokers/topics/$t/partitions/$p/state")
    keys+=("$t $p")
  done < <(jq -r '.partitions[] | "\(.topic) \(.partition)"' "$1" | sort)
  # A failed read (a broker dying meanwhile) is read again by the caller, not fatal.
  { "$KC" zk-get "${paths[@]}" || true; } | paste -d'|' <(printf '%s\n' "${keys[@]}") - |
    while IFS='|' read -r key state; do
      [[ $state == "{"* ]] || continue
      jq -r --arg k "$key" '"\($k) \(.leader) \(.isr | join(",")) \(.leader_epoch)"' <<<"$state"
    done
}
# "topic partition leader isr replicas" from kafka-topics --describe (leader -1: none)
kafka_topics() {
  { "$KC" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$("$KC" live-bootstrap)" \
    --describe --exclude-internal 2>/dev/null || true; } | awk -F'\t' '/Partition: / {
      for (i = 1; i <= NF; i++) { split($i, kv, ": ")
        if (kv[1] == "Topic") t = kv[2]; else if (kv[1] == "Partition") p = kv[2]
        else if (kv[1] == "Leader") l = kv[2]; else if (kv[1] == "Isr") isr = kv[2]
        else if (kv[1] == "Replicas") r = kv[2] }
      if (l == "none") l = -1
      print t, p, l, isr, r }' | sort
}
# wait_topics AWK-CONDITION WHAT: kafka-topics until every partition satisfies the condition
# (over $3 leader, $4 ISR, $5 replicas, $1 topic), 60 s at most; the last answer is in
# $SCRATCH/topics.txt.
wait_topics() {
  local deadline=$((SECONDS + 60))
  while :; do
    kafka_topics > "$SCRATCH/topics.txt"
    [[ -s $SCRATCH/topics.txt ]] && awk "!($1) {bad = 1} END {exit bad}" "$SCRATCH/topics.txt" && return 0
    ((SECONDS < deadline)) || { cat "$SCRATCH/topics.txt"; fail "scenario broken: never $2"; }
    sleep 1
  done
}

# judge STEP FORECAST: ZooKeeper's partition states, then kafka-topics, equal the forecast
# (read again for up to 60 s while the controller works: a killed broker is noticed when its
# ZooKeeper session expires, 10 s).
judge() {
  local step=$1 forecast=$2 deadline=$((SECONDS + 60))
  jq -r '.partitions[] | "\(.topic) \(.partition) \(.leader_after // -1) \(.isr_after | join(",")) \(.leader_epoch_after)"' \
    "$forecast" | sort > "$SCRATCH/$step-want.txt"
  while :; do
    zk_states "$forecast" > "$SCRATCH/$step-zk.txt"
    diff -q "$SCRATCH/$step-want.txt" "$SCRATCH/$step-zk.txt" >/dev/null && break
    ((SECONDS < deadline)) || {
      diff "$SCRATCH/$step-want.txt" "$SCRATCH/$step-zk.txt" || true
      miss "$step: ZooKeeper's partition states differ from the forecast (< kepoch, > ZooKeeper)"
      return 0
    }
    sleep 1
  done
  sed "s/^/  $step: /" "$SCRATCH/$step-zk.txt"  # topic partition leader isr leader_epoch
  cut -d' ' -f1-4 "$SCRATCH/$step-want.txt" > "$SCRATCH/$step-want4.txt"
  while :; do
    kafka_topics | cut -d' ' -f1-4 > "$SCRATCH/$step-kafka.txt"
    diff -q "$SCRATCH/$step-want4.txt" "$SCRATCH/$step-kafka.txt" >/dev/null && break
    ((SECONDS < deadline)) || {
      diff "$SCRATCH/$step-want4.txt" "$SCRATCH/$step-kafka.txt" || true
      miss "$step: kafka-topics differs from the forecast (< kepoch, > Kafka)"
      return 0
    }
    sleep 1
  done
  echo "ok: $step: leader, ISR and leader epoch as forecast for $(wc -l < "$SCRATCH/$step-want.txt") partitions"
}

# --- step 1: controlled shutdown of S
expect_exit 1 "$KEPOCH" cluster what-if -b "$KEPOCH_BOOTSTRAP" --exclude-internal --stop "$S" -o json
cp "$SCRATCH/out" "$SCRATCH/step1.json"
jq -e --arg m "ZooKeeper mode (controller $C)" '.assumed.controller_mode == $m and
    (.assumed.controller | startswith("the ZooKeeper-mode controller"))' "$SCRATCH/step1.json" >/dev/null ||
  miss "step1 assumptions: $(jq -c .assumed "$SCRATCH/step1.json")"
"$KC" term "$S" >/dev/null
judge step1 "$SCRATCH/step1.json"
# Shapes the steps below need (whatever kepoch said): u led by C alone, solo offline.
wait_topics '$1 != "u" || ($3 == '"$C"' && $4 == "'"$C"'")' "u led by $C alone after step 1"

# --- the offline commands on S's log dir (stopped cleanly)
LD="$("$KC" logdir "$S")"
soft_exit strict-logdir 0 "$KEPOCH" checkpoint validate --strict "$LD" &&
  soft_in strict-logdir "$SCRATCH/err" "meta.properties: info: version 0 with broker.id: the format a ZooKeeper-mode broker writes" || true
n=0
for d in "$LD"/{orders,rf2,solo,u}-*; do
  soft_exit "strict $(basename "$d")" 0 "$KEPOCH" checkpoint validate --strict "$d" || true
  soft_exit "verify $(basename "$d")" 0 "$KEPOCH" partition verify "$d" || true
  n=$((n + 1))
done
((n == 7)) || fail "scenario broken: $n partition dirs in broker $S's log dir, not 7"
soft_exit "logdir scan" 0 "$KEPOCH" logdir scan "$LD" || true
soft_exit "metadata history" 3 "$KEPOCH" metadata history "$LD" &&
  soft_in "metadata history" "$SCRATCH/err" "this is a ZooKeeper-mode broker's log dir (meta.properties version 0, broker.id $S), and such a broker keeps its metadata in ZooKeeper" || true
echo "checked: broker $S's log dir ($n partitions): checkpoint validate --strict, partition verify, logdir scan; metadata history: $(cat "$SCRATCH/err")"

# b: records only C has (S is away), acknowledged by the ISR {C}.
"$KC" produce u 50 --acks all --prefix b >/dev/null
# C's high watermarks reach its replication-offset-checkpoint (written every
# replica.high.watermark.checkpoint.interval.ms, 5 s): polled for u's high watermarks as Kafka
# answers them (ListOffsets latest), not slept for.
hw_file="$("$KC" logdir "$C")/replication-offset-checkpoint"
want_hw=("u 0 $("$KC" end-offset u 0)" "u 1 $("$KC" end-offset u 1)")
hw_checkpointed() { local l; for l in "${want_hw[@]}"; do grep -qx "$l" "$hw_file" 2>/dev/null || return 1; done; }
for _ in $(seq 1 120); do hw_checkpointed && break; sleep 0.25; done
hw_checkpointed || fail "broker $C never checkpointed its high watermarks (${want_hw[*]}): $(cat "$hw_file")"

# --- step 2: the controller C killed, `cluster watch` running from K
expect_exit 1 "$KEPOCH" cluster what-if -b "$("$KC" live-bootstrap)" --exclude-internal --stop "$C" --kill -o json
cp "$SCRATCH/out" "$SCRATCH/step2.json"
jq -e '.assumed.controller | contains("onControllerFailover")' "$SCRATCH/step2.json" >/dev/null ||
  miss "step2 assumptions: $(jq -c .assumed "$SCRATCH/step2.json")"
"$KEPOCH" cluster watch -b "127.0.0.1:$(port_of "$K")" --exclude-internal --interval 0.5 --duration 150 -o json \
  > "$SCRATCH/watch.jsonl" 2> "$SCRATCH/watch.err" &
watch_pid=$!
sleep 2
"$KC" kill "$C"
judge step2 "$SCRATCH/step2.json"
wait_topics '$1 != "u" || $3 == -1' "u offline after C's kill"

# S returns: the controller (K) elects it uncleanly for u (onBrokerStartup).
"$KC" start "$S" >/dev/null
wait_topics '$1 != "u" || $3 == '"$S" "u led by $S after its return"
# c: records of S's own at the offsets where C holds b.
"$KC" produce u 30 --acks 1 --prefix c >/dev/null
# Every partition led (solo by S again).
wait_topics '$3 != -1' "every partition led"
cp "$SCRATCH/topics.txt" "$SCRATCH/watch-kafka.txt"
sleep 2  # the watch's next polls
kill -INT "$watch_pid" 2>/dev/null || true
wait "$watch_pid" || miss "watch: cluster watch exited non-zero: $(cat "$SCRATCH/watch.err")"
jq -r 'select(.topic == "u" or .topic == "solo") | .description' "$SCRATCH/watch.jsonl" | sed 's/^/  watch: /'
# u's new leaders, as the watch saw them: S, and unclean (S was outside u's last ISR).
for p in 0 1; do
  jq -se --argjson s "$S" --argjson p "$p" '[.[] | select(.topic == "u" and .partition == $p and
      (.event == "leader_change" or .event == "partition_online"))]
      | length >= 1 and (last | .new_leader == $s and .unclean_election == true)' "$SCRATCH/watch.jsonl" >/dev/null ||
    miss "watch: u-$p's election not reported as unclean to broker $S"
done
# solo came back to S, its only replica, which was in its ISR: clean.
jq -se --argjson s "$S" '[.[] | select(.topic == "solo" and (.event == "leader_change" or .event == "partition_online"))]
    | length >= 1 and (last | .new_leader == $s and .unclean_election != true)' "$SCRATCH/watch.jsonl" >/dev/null ||
  miss "watch: solo-0's return to broker $S not reported as a clean election"
# Every partition's last leader event names the leader Kafka has.
jq -sr '[.[] | select(.event == "leader_change" or .event == "partition_online" or .event == "partition_offline")]
    | group_by(.topic, .partition)[] | last | "\(.topic)-\(.partition) \(.new_leader // -1)"' \
  "$SCRATCH/watch.jsonl" | sort > "$SCRATCH/watch-w.txt"
awk '{print $1"-"$2, $3}' "$SCRATCH/watch-kafka.txt" | sort > "$SCRATCH/watch-k.txt"
# Five partitions change leaders meanwhile: orders-0 and orders-1 (C's), solo, u-0, u-1.
[[ $(wc -l < "$SCRATCH/watch-w.txt") -ge 5 ]] || miss "watch: leader events for only $(wc -l < "$SCRATCH/watch-w.txt") partitions"
join -a1 "$SCRATCH/watch-w.txt" "$SCRATCH/watch-k.txt" | awk '$2 != $3 {bad = 1; print} END {exit bad}' ||
  miss "watch: other leaders than kafka-topics (partition, watch, Kafka)"
echo "checked: cluster watch: $(wc -l < "$SCRATCH/watch-w.txt") partitions' last leader events"

# --- predict: C's log dir while C is down, then C's return
LDC="$("$KC" logdir "$C")"
rc=0
"$KEPOCH" cluster predict -b "$("$KC" live-bootstrap)" --log-dir "$LDC" --exclude-internal --details -o json \
  > "$SNAP/cluster.json" 2> "$SNAP/cluster.err" || rc=$?
[[ $rc -le 1 ]] || fail "cluster predict exited $rc: $(cat "$SNAP/cluster.err")"
mkdir -p "$SNAP/before" "$SNAP/after"
cp -a "$LDC"/{orders,u}-* "$SNAP/before/"
CLOG="$KEPOCH_CLUSTER_DIR/broker-$C/server.log"
log_from=$(($(wc -l < "$CLOG") + 1))  # C's lines from its return on
"$KC" start "$C" >/dev/null
wait_topics '$4 != "" && split($4, a, ",") == split($5, b, ",")' "every ISR full after $C's return"
pid=$("$KC" pid "$C")
kill -STOP "$pid"
cp -a "$LDC"/{orders,u}-* "$SNAP/after/"
kill -CONT "$pid"
# Kafka's word on C's truncation: its log lines since the return ("Truncating to offset N",
# and the leader's answer on the "Truncating partition" line), and its batches before and
# after as Kafka's DumpLogSegments reads them (one JVM for every file).
tail -n "+$log_from" "$CLOG" | grep -E 'Truncating to offset [0-9]+|Truncating partition' > "$SNAP/truncation-lines" || true
files=$(ls "$SNAP"/before/*/*.log "$SNAP"/after/*/*.log | paste -sd,)
"$KC" dump-log --files "$files" > "$SNAP/dump.txt" 2>/dev/null || fail "DumpLogSegments failed"
python3 - "$SNAP" "$rc" <<'PY' || miss "predict: kepoch's account of C's truncation differs from Kafka's"
import json, os, re, sys
snap, rc = sys.argv[1], int(sys.argv[2])
doc = json.load(open(f"{snap}/cluster.json"))
rows = {f"{r['topic']}-{r['partition']}": r for r in doc["partitions"]}
details = {f"{s['topic']}-{s['partition']}": s["replicas"][0] for s in doc.get("forecasts", [])}
dirs = sorted(os.listdir(f"{snap}/before"))
errors, lost_sum, lossy = [], 0, set()
if sorted(rows) != dirs:
    errors.append(f"partitions: kepoch {sorted(rows)}, log dir {dirs}")
# DumpLogSegments: "Dumping <snap>/<side>/<tp>/<file>.log", then one line per batch.
batches, key = {}, None
for line in open(f"{snap}/dump.txt"):
    m = re.match(r"Dumping .*/(before|after)/([^/]+)/[^/]+\.log$", line.strip())
    if m:
        key = (m.group(1), m.group(2))
        batches.setdefault(key, [])
        continue
    f = dict(re.findall(r"(\w+): (\S+)", line))
    if key and "baseOffset" in f:
        batches[key].append((int(f["baseOffset"]), int(f["lastOffset"]), int(f["crc"]), int(f["count"])))
lines = open(f"{snap}/truncation-lines").read().splitlines()
for tp in dirs:
    row = rows.get(tp)
    if row is None:
        continue
    before, after = batches.get(("before", tp), []), batches.get(("after", tp), [])
    kept = {(b[0], b[1], b[2]) for b in after}
    kafka_lost = sum(b[3] for b in before if (b[0], b[1], b[2]) not in kept)
    lost_sum += kafka_lost
    if kafka_lost:
        lossy.add(tp)
    leo = before[-1][1] + 1 if before else 0
    mine = [l for l in lines if re.search(rf"partition[ =]{re.escape(tp)}([] ,]|$)", l)]
    cuts = [int(m.group(1)) for l in mine for m in [re.search(r"Truncating to offset (\d+)", l)] if m]
    kafka_cut = min(cuts[0], leo) if cuts else leo
    ours = min(row["truncate_to"], leo)
    print(f"  {tp}: Kafka truncated {leo} -> {kafka_cut}, removed {kafka_lost} records for good; kepoch: "
          f"{row['outcome']}, to {row['truncate_to']}, lost {row['lost_records']} "
          f"(committed {row['committed_lost_records']}, unknown {row['lost_unknown_records']})")
    if row["outcome"] != "follows":
        errors.append(f"{tp}: outcome {row['outcome']}")
    if ours != kafka_cut:
        errors.append(f"{tp}: Kafka truncated to {kafka_cut}, kepoch said {row['truncate_to']} (log end {leo})")
    # The leader's answer Kafka truncated by (the "Truncating partition" line with an
    # EpochEndOffset; its "due to local high watermark" form names none) is kepoch's first round's.
    answers = [m.groups() for l in mine if "due to local high watermark" not in l
               for m in [re.search(r"leaderEpoch=(-?\d+), endOffset=(-?\d+)", l)] if m]
    if kafka_cut < leo and not answers:
        errors.append(f"{tp}: Kafka truncated but logged no leader's answer (reworded?): {mine}")
    if answers:
        r0 = details.get(tp, {}).get("rounds", [{}])[0]
        ours_answer = (str(r0.get("leader_epoch")), str(r0.get("leader_end_offset")))
        print(f"  {tp}: the leader answered leaderEpoch={answers[0][0]}, endOffset={answers[0][1]} "
              f"(kepoch: {ours_answer[0]}, {ours_answer[1]})")
        if ours_answer != answers[0]:
            errors.append(f"{tp}: the leader answered {answers[0]}, kepoch's first round {ours_answer}")
    # Every record C held was acknowledged (acks=all), below its checkpointed high watermark.
    want = (kafka_lost, kafka_lost, 0, kafka_lost > 0)
    got = (row["lost_records"], row["committed_lost_records"], row["lost_unknown_records"], row["committed_loss"])
    if got != want:
        errors.append(f"{tp}: kepoch (lost, committed, unknown, committed_loss) {got}, Kafka {want}")
if lossy != {"u-0", "u-1"} or lost_sum != 50:
    errors.append(f"scenario: Kafka removed {lost_sum} records in {sorted(lossy)}, not b's 50 in u-0 and u-1")
if rc != 1:
    errors.append(f"exit status {rc}: committed records were lost")
for e in errors:
    print("MISMATCH", e)
sys.exit(1 if errors else 0)
PY

# --- describe, at the end: mode, and the partitions as Kafka and ZooKeeper have them
# (every ISR full, nothing moving)
CTRL=$("$KC" zk-controller)
[[ $CTRL == "$K" ]] || fail "scenario broken: the controller is $CTRL, not $K"
expect_exit 0 "$KEPOCH" cluster describe -b "$KEPOCH_BOOTSTRAP" --exclude-internal -o json
cp "$SCRATCH/out" "$SCRATCH/describe.json"
[[ $(jq -r .mode "$SCRATCH/describe.json") == "ZooKeeper mode (controller $K)" ]] ||
  miss "describe mode: $(jq -c '[.mode, .controller_id]' "$SCRATCH/describe.json") (controller $K)"
[[ $(jq -r .controller_id "$SCRATCH/describe.json") == "$K" ]] || miss "describe controller_id"
soft_exit "describe table" 0 "$KEPOCH" cluster describe -b "$KEPOCH_BOOTSTRAP" --exclude-internal --no-sizes &&
  soft_in "describe table" "$SCRATCH/out" "ZooKeeper mode (controller $K)" || true
jq -r '.partitions[] | "\(.topic) \(.partition) \(.leader // -1) \(.isr | join(",")) \(.replicas | join(","))"' \
  "$SCRATCH/describe.json" | sort > "$SCRATCH/describe-kepoch.txt"
kafka_topics > "$SCRATCH/describe-kafka.txt"
diff "$SCRATCH/describe-kepoch.txt" "$SCRATCH/describe-kafka.txt" ||
  miss "describe: leaders, ISR or replicas differ from kafka-topics (< kepoch, > Kafka)"
jq -r '.partitions[] | "\(.topic) \(.partition) \(.leader // -1) \(.isr | join(",")) \(.leader_epoch)"' \
  "$SCRATCH/describe.json" | sort > "$SCRATCH/describe-epochs.txt"
zk_states "$SCRATCH/describe.json" > "$SCRATCH/describe-zk.txt"
diff "$SCRATCH/describe-epochs.txt" "$SCRATCH/describe-zk.txt" ||
  miss "describe: leader epochs differ from ZooKeeper's partition states (< kepoch, > ZooKeeper)"
sed 's/^/  describe: /' "$SCRATCH/describe-zk.txt"

# -b at the ZooKeeper port
soft_exit "zookeeper port" 4 "$KEPOCH" cluster describe -b "$ZK" --timeout 5 &&
  soft_in "zookeeper port" "$SCRATCH/err" "it may be a ZooKeeper port" &&
  echo "checked: -b $ZK: $(cat "$SCRATCH/err")" || true

((${#FAILED[@]} == 0)) || fail "${#FAILED[@]} checks failed: $(printf '%s; ' "${FAILED[@]}")"
echo "PASS"
