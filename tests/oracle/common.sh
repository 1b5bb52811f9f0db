# Sourced by every real-Kafka scenario: the CLI prelude, plus a KRaft cluster from
# tests/cluster/kafka-cluster that is always torn down, and whose broker logs are shown
# when the scenario fails.
. "$KEPOCH_SOURCE_DIR/tests/cli/common.sh"
KC="$KEPOCH_SOURCE_DIR/tests/cluster/kafka-cluster"
export KEPOCH_CLUSTER_DIR="$SCRATCH/cluster"

# cluster_elr: the eligible.leader.replicas.version the running cluster was formatted with
# (the release's default unless KEPOCH_ELR asked for one).
cluster_elr() { sed -n 's/^ELR=//p' "$KEPOCH_CLUSTER_DIR/cluster.env"; }

cluster_up() {
  if [[ -n ${KEPOCH_SHARED_CLUSTER:-} ]]; then
    # One of several scenarios on one cluster (run-on-one-cluster.sh, which tears it down).
    export KEPOCH_CLUSTER_DIR="$KEPOCH_SHARED_CLUSTER"
    trap 'shared_cleanup $?' EXIT
    cluster_heal
    KEPOCH_BOOTSTRAP="$("$KC" bootstrap)"
    export KEPOCH_BOOTSTRAP
    return 0
  fi
  eval "$("$KC" up)"
  trap 'cluster_cleanup $?' EXIT
}

# cluster_heal: the shared cluster as a scenario expects a fresh one: the brokers an earlier
# scenario killed restarted, those it SIGSTOPped resumed, all three registered and unfenced,
# and each back in the ISR of every partition of the coordinators' logs (__consumer_offsets,
# __transaction_state: replicas 1,2,3), whose copies on broker 1 or 3 a scenario reads.
# Topics of earlier scenarios are left as they are (each scenario has its own).
cluster_heal() {
  local kind n pid st t p parts
  while read -r kind n pid st _; do
    [[ $kind == broker ]] || continue
    case $st in
      down) "$KC" start "$n" >/dev/null ;;
      stopped) "$KC" cont "$n" >/dev/null ;;
    esac
  done < <("$KC" status)
  "$KC" wait-brokers 1,2,3 90 >/dev/null
  for t in __consumer_offsets __transaction_state; do
    parts=$("$KC" describe "$t" 2>/dev/null | grep -oE 'Partition: [0-9]+' | awk '{print $2}' || true)
    for p in $parts; do "$KC" wait-isr "$t" "$p" "1,2,3" 120 >/dev/null; done
  done
}

# On failure in a shared cluster: the brokers' log tails, the scratch kept (the runner keeps
# the cluster's data).
shared_cleanup() {
  local rc=$1 n
  if [[ $rc -ne 0 ]]; then
    for n in 1 2 3; do
      echo "--- broker $n log (tail)"
      tail -n 40 "$KEPOCH_CLUSTER_DIR/broker-$n/server.log" 2>/dev/null || true
    done
    echo "FAILED: $0 (scratch kept: $SCRATCH)" >&2
  else
    rm -rf "$SCRATCH"
  fi
}

# On failure: show the brokers' log tails and keep the cluster's data for diagnosis.
cluster_cleanup() {
  local rc=$1 n
  if [[ $rc -ne 0 ]]; then
    for n in 1 2 3; do
      echo "--- broker $n log (tail)"
      tail -n 40 "$KEPOCH_CLUSTER_DIR/broker-$n/server.log" 2>/dev/null || true
    done
    "$KC" down >/dev/null 2>&1 || true
    echo "FAILED: $0 (scratch and cluster data kept: $SCRATCH)" >&2
  else
    "$KC" down --purge >/dev/null 2>&1 || true
    rm -rf "$SCRATCH"
  fi
}

# wait_new_leader T P OLD: prints the new leader once it differs from OLD (30 s at most).
wait_new_leader() {
  local leader i
  for ((i = 0; i < 150; i++)); do
    leader="$("$KC" leader "$1" "$2" 2>/dev/null || true)"
    if [[ -n "$leader" && "$leader" != "$3" && "$leader" != -1 && "$leader" != none ]]; then
      echo "$leader"
      return 0
    fi
    sleep 0.2
  done
  fail "no new leader for $1-$2 after 30 s (was $3)"
}

# unclean_ahead_and_diverge: topics `ahead` and `diverge` (partition 0, replicas 1,2,3). Brokers
# 2 and 3 are SIGSTOPped until only the leader, broker 1, is in the ISR; it writes three acks=1
# records (u5..) nobody else gets and is killed. Broker 2 is resumed and wins an unclean
# election, then broker 3. On `diverge` broker 2 writes four other records (c5..) at those
# offsets. Broker 1 stays down; brokers 2 and 3 are the ISR.
unclean_ahead_and_diverge() {
  for t in ahead diverge; do
    "$KC" wait-isr "$t" 0 "1,2,3" 60 >/dev/null
    if [[ $("$KC" leader "$t" 0) != 1 ]]; then
      "$KC" elect-preferred "$t" 0 >/dev/null
      "$KC" wait-leader "$t" 0 1 >/dev/null
    fi
  done
  "$KC" stop 2
  "$KC" stop 3
  "$KC" wait-isr ahead 0 "1" 60 >/dev/null
  "$KC" wait-isr diverge 0 "1" 60 >/dev/null
  "$KC" produce ahead 3 --acks 1 --prefix u --start 5 >/dev/null
  "$KC" produce diverge 3 --acks 1 --prefix u --start 5 >/dev/null
  "$KC" kill 1 >/dev/null
  "$KC" cont 2 >/dev/null
  "$KC" wait-brokers 2 60 >/dev/null
  for t in ahead diverge; do
    "$KC" elect-unclean "$t" 0 >/dev/null
    "$KC" wait-leader "$t" 0 2 60 >/dev/null
  done
  "$KC" cont 3 >/dev/null
  "$KC" produce diverge 4 --acks 1 --prefix c --start 5 >/dev/null
  "$KC" wait-isr ahead 0 "2,3" 60 >/dev/null
  "$KC" wait-isr diverge 0 "2,3" 60 >/dev/null
}

# Epoch history of a partition dir as Kafka's own DumpLogSegments prints it:
# "epoch first_offset" for every change of partitionLeaderEpoch between batches.
kafka_batch_epochs() {
  local dir="$1" f
  for f in "$dir"/*.log; do
    "$KC" dump-log --files "$f" || exit 1  # (a subshell: the pipeline fails, pipefail)
  done | awk '/baseOffset:/ {
      for (i = 1; i <= NF; i++) { if ($i == "baseOffset:") b = $(i+1); if ($i == "partitionLeaderEpoch:") e = $(i+1) }
      if (!seen++ || e != last) { print e, b; last = e }
    }'
}

# expect_refused NAME TEXT MAX_SECONDS COMMAND...: the command exits 4 (cluster error) with one
# line on stderr containing TEXT, within MAX_SECONDS; LAST_MS is how long it took.
expect_refused() {
  local name=$1 text=$2 max=$3 t0 t1
  shift 3
  t0=$(date +%s%N)
  expect_exit 4 "$@"
  t1=$(date +%s%N)
  expect_in "$SCRATCH/err" "$text"
  [[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || { cat "$SCRATCH/err"; fail "$name: not one line"; }
  LAST_MS=$(( (t1 - t0) / 1000000 ))
  (( LAST_MS <= max * 1000 )) || fail "$name: took $LAST_MS ms (limit $max s)"
  echo "refused: $name in $LAST_MS ms: $(cat "$SCRATCH/err")"
}

ROOT_FILES=(replication-offset-checkpoint recovery-point-offset-checkpoint log-start-offset-checkpoint)

# snapshot N TOPIC DEST: broker N's partition dir and root checkpoints, copied while the
# broker is SIGSTOPped (when it runs) so that the copy is of one moment.
snapshot() {
  local n=$1 topic=$2 dest=$3 src pid f
  src="$("$KC" logdir "$n")"
  mkdir -p "$dest"
  pid="$("$KC" pid "$n" 2>/dev/null || true)"
  [[ -n "$pid" ]] && kill -STOP "$pid"
  cp -a "$src/$topic-0" "$dest/"
  for f in "${ROOT_FILES[@]}"; do [[ -f "$src/$f" ]] && cp -a "$src/$f" "$dest/"; done
  [[ -n "$pid" ]] && kill -CONT "$pid"
  return 0
}

# check_after TOPIC LEADER FOLLOWER: once the follower caught up with its leader, compare
# Kafka's truncation with kepoch's forecast in $SNAP/TOPIC/predict.json (`predict`'s
# section shape), made from the follower's replica copied to $SNAP/TOPIC/follower: the
# "Truncating to offset N" line (or its absence), the leader's answer Kafka logged, and
# the follower's batches after the restart (its own below the cut, the leader's from it).
check_after() {
  local topic=$1 leader=$2 follower=$3 predicted leo lines
  predicted=$(json "$SNAP/$topic/predict.json" "d['replicas'][0]['truncate_to']")
  leo=$(json "$SNAP/$topic/predict.json" "d['replicas'][0]['log_end_offset']")
  lines=$("$KC" truncation-lines "$follower" "$topic-0" | { grep -oE 'Truncating to offset [0-9]+' || true; } | awk '{print $4}' | sort -n | uniq)
  echo "$topic: Kafka truncated broker $follower to: ${lines:-nothing} (kepoch: $predicted of $leo)"
  # When Kafka names the leader's answer, kepoch's first round must have had the same one.
  # Kafka names it on its "Truncating partition" line (AbstractFetcherThread; the other form
  # of that line, "due to local high watermark", has no leader's answer), which a predicted
  # truncation must have: without the line, or with the line but no answer in it (reworded),
  # the check fails rather than being skipped.
  local answer truncating
  truncating=$("$KC" truncation-lines "$follower" "$topic-0" |
    { grep -F 'Truncating partition' || true; } | { grep -vF 'due to local high watermark' || true; })
  answer=$(grep -oE 'leaderEpoch=[0-9-]+, endOffset=[0-9-]+' <<<"$truncating" | head -n1 || true)
  if (( predicted < leo )) && [[ -z $truncating ]]; then
    fail "$topic: kepoch predicts a truncation, but broker $follower logged no 'Truncating partition' line"
  fi
  if [[ -n $truncating && -z $answer ]]; then
    echo "$truncating"
    fail "$topic: Kafka's 'Truncating partition' line names no leaderEpoch=N, endOffset=M (reworded?)"
  fi
  if [[ -n "$answer" ]]; then
    local ours
    ours=$(json "$SNAP/$topic/predict.json" "'leaderEpoch=%d, endOffset=%d' % (d['replicas'][0]['rounds'][0]['leader_epoch'], d['replicas'][0]['rounds'][0]['leader_end_offset'])")
    echo "$topic: the leader answered $answer (kepoch: $ours)"
    [[ "$answer" == "$ours" ]] || fail "$topic: the leader's answer differs"
  fi
  if (( predicted < leo )); then
    [[ "$(head -n1 <<<"$lines")" == "$predicted" ]] || fail "$topic: Kafka truncated to '${lines}', kepoch said $predicted"
  else
    for x in $lines; do (( x >= leo )) || fail "$topic: Kafka truncated to $x, kepoch said no truncation"; done
  fi
  snapshot "$follower" "$topic" "$SNAP/$topic/after"
  snapshot "$leader" "$topic" "$SNAP/$topic/leader-after"
  "$KEPOCH" segment dump -o json "$SNAP/$topic/follower/$topic-0"/0*.log > "$SNAP/$topic/before.json"
  "$KEPOCH" segment dump -o json "$SNAP/$topic/after/$topic-0"/0*.log > "$SNAP/$topic/after.json"
  "$KEPOCH" segment dump -o json "$SNAP/$topic/leader-after/$topic-0"/0*.log > "$SNAP/$topic/leader.json"
  python3 - "$SNAP/$topic" "$predicted" <<'PY' || fail "$topic: the follower's log after the restart does not match the prediction"
import json, sys
d, cut = sys.argv[1], int(sys.argv[2])
def batches(name):
    return [(b["base_offset"], b["crc"]) for f in json.load(open(f"{d}/{name}.json")) for b in f["batches"]]
before, after, leader = batches("before"), batches("after"), batches("leader")
kept = [b for b in before if b[0] < cut]
assert [b for b in after if b[0] < cut] == kept, f"below {cut}: before {kept}, after {after}"
assert [b for b in after if b[0] >= cut] == [b for b in leader if b[0] >= cut][:len([b for b in after if b[0] >= cut])], "from the cut on the follower must hold the leader's batches"
assert len(after) == len(leader), f"follower {after} has not caught up with leader {leader}"
PY
}

# kafka_home DIR: a KAFKA_HOME for the commands `kepoch plan --out-dir` writes: the jars the
# harness fetched (libs/) and bin/ scripts running Kafka's tool classes as the distribution's
# bin/kafka-*.sh do (kafka-run-class.sh CLASS). Prints DIR.
kafka_home() {
  local dir=$1 tool
  mkdir -p "$dir/bin"
  [[ -e $dir/libs ]] || ln -s "$("$KEPOCH_SOURCE_DIR/tests/kafka/fetch-kafka" --home)/libs" "$dir/libs"
  for tool in kafka-leader-election.sh:LeaderElectionCommand \
    kafka-broker-api-versions.sh:BrokerApiVersionsCommand; do
    printf '#!/bin/sh\nexec "%s" tool org.apache.kafka.tools.%s "$@"\n' "$KC" "${tool#*:}" \
      >"$dir/bin/${tool%%:*}"
    chmod +x "$dir/bin/${tool%%:*}"
  done
  echo "$dir"
}

# run_steps CMDS KAFKA_HOME OUT: runs CMDS/steps.sh as an operator would, to the end: with
# BOOTSTRAP naming every broker, answering each "start broker(s) N now" by starting them
# (and pressing Enter where it asks). Its output in OUT.out / OUT.err; the brokers started, in
# order, in the array `started`. Fails when steps.sh does.
run_steps() {
  local cmds=$1 home=$2 out=$3 pid seen=0 running line id rc=0
  local -a lines
  started=()
  rm -f "$out.in"
  mkfifo "$out.in"
  KAFKA_HOME="$home" BOOTSTRAP="$("$KC" bootstrap)" WAIT_SECONDS=120 sh "$cmds/steps.sh" \
    <"$out.in" >"$out.out" 2>"$out.err" &
  pid=$!
  exec 7>"$out.in"
  while :; do
    running=0
    kill -0 "$pid" 2>/dev/null && running=1
    mapfile -t lines < <(tail -n +$((seen + 1)) "$out.out")
    for line in "${lines[@]}"; do
      seen=$((seen + 1))
      echo "steps.sh: $line"
      if [[ $line =~ start\ broker\(s\)\ ([0-9\ ]+)\ now ]]; then
        for id in ${BASH_REMATCH[1]}; do
          "$KC" start "$id" >/dev/null
          started+=("$id")
        done
        [[ $line == *"press Enter"* ]] && echo >&7
      fi
    done
    [[ $running == 1 ]] || break
    sleep 0.5
  done
  exec 7>&-
  wait "$pid" || rc=$?
  [[ $rc == 0 ]] || fail "steps.sh exited $rc: $(cat "$out.err")"
}
