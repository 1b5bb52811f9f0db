#!/usr/bin/env bash
# Kafka as the oracle for `predict` on a live cluster: for each scenario, kepoch predicts
# from copies of the replica dirs taken before the follower restarts; then the follower
# restarts and Kafka truncates. The prediction must match Kafka's "Truncating to offset N"
# log line (or its absence) and the follower's directory once it has caught up: batches
# below the predicted offset untouched, the leader's batches from there on.
# Scenarios: follower behind; several leader epochs missed; old leader ahead with
# unreplicated records; divergence after an unclean election (different records at the
# same offsets).
. "$(dirname "$0")/common.sh"
cluster_up

SNAP="$SCRATCH/snap"
ROOT_FILES=(replication-offset-checkpoint recovery-point-offset-checkpoint log-start-offset-checkpoint)

# snapshot N TOPIC DEST: broker N's partition dir and root checkpoints, frozen for the copy.
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

# predict_now TOPIC LEADER FOLLOWER: snapshot both, run kepoch, remember its answer.
predict_now() {
  local topic=$1 leader=$2 follower=$3
  snapshot "$leader" "$topic" "$SNAP/$topic/leader"
  snapshot "$follower" "$topic" "$SNAP/$topic/follower"
  "$KEPOCH" predict -o json --leader "$SNAP/$topic/leader/$topic-0" "$SNAP/$topic/follower/$topic-0" \
    > "$SNAP/$topic/predict.json" || [[ $? -eq 1 ]] || fail "$topic: predict failed"
  echo "$topic: kepoch predicts broker $follower truncates to" \
       "$(json "$SNAP/$topic/predict.json" "d['replicas'][0]['truncate_to']")" \
       "(its log end offset $(json "$SNAP/$topic/predict.json" "d['replicas'][0]['log_end_offset']")," \
       "rounds $(json "$SNAP/$topic/predict.json" "[(r['branch'], r['truncate_to']) for r in d['replicas'][0]['rounds']]"))"
}

# check_after TOPIC LEADER FOLLOWER: once the follower caught up, compare with the prediction.
check_after() {
  local topic=$1 leader=$2 follower=$3 predicted leo lines
  predicted=$(json "$SNAP/$topic/predict.json" "d['replicas'][0]['truncate_to']")
  leo=$(json "$SNAP/$topic/predict.json" "d['replicas'][0]['log_end_offset']")
  lines=$("$KC" truncation-lines "$follower" "$topic-0" | { grep -oE 'Truncating to offset [0-9]+' || true; } | awk '{print $4}' | sort -n | uniq)
  echo "$topic: Kafka truncated broker $follower to: ${lines:-nothing} (kepoch: $predicted of $leo)"
  # When Kafka names the leader's answer, kepoch's first round must have had the same one.
  local answer
  answer=$("$KC" truncation-lines "$follower" "$topic-0" | { grep -oE 'leaderEpoch=[0-9-]+, endOffset=[0-9-]+' || true; } | head -n1)
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

for t in behind epochs ahead diverge; do
  "$KC" create-topic "$t" --assignment 1:2:3 >/dev/null
  "$KC" produce "$t" 5 --acks all --prefix a >/dev/null
done

# 1. Follower behind: broker 3 dies, the leader goes on.
"$KC" kill 3 >/dev/null
"$KC" produce behind 5 --acks 1 --prefix b --start 5 >/dev/null

# 2. Several epochs missed: leadership moves twice while broker 3 is down.
"$KC" kill 1 >/dev/null
wait_new_leader epochs 0 1 >/dev/null
"$KC" produce epochs 3 --acks 1 --prefix e1 --start 5 >/dev/null
"$KC" start 1 >/dev/null
"$KC" wait-isr epochs 0 "1,2" 60 >/dev/null
"$KC" elect-preferred epochs 0 >/dev/null
"$KC" wait-leader epochs 0 1 >/dev/null
"$KC" produce epochs 3 --acks 1 --prefix e2 --start 8 >/dev/null
# Predict against the leader broker 3 will fetch from (`behind` moved to broker 2 too).
behind_leader=$("$KC" leader behind 0)
predict_now behind "$behind_leader" 3
predict_now epochs 1 3

"$KC" start 3 >/dev/null
"$KC" wait-isr behind 0 "1,2,3" 60 >/dev/null
"$KC" wait-isr epochs 0 "1,2,3" 60 >/dev/null
check_after behind "$behind_leader" 3
check_after epochs 1 3

# 3 and 4. The leader (broker 1) writes acks=1 records nobody else gets, and dies; broker 2
# wins an unclean election. For `diverge` it then writes other records at those offsets.
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
predict_now ahead 2 1
predict_now diverge 2 1
"$KC" start 1 >/dev/null
"$KC" wait-isr ahead 0 "1,2,3" 60 >/dev/null
"$KC" wait-isr diverge 0 "1,2,3" 60 >/dev/null
check_after ahead 2 1
check_after diverge 2 1

# The scenarios must really have made kepoch predict truncations, or this proves little.
[[ $(json "$SNAP/diverge/predict.json" "d['replicas'][0]['lost_records']") -ge 3 ]] || fail "diverge: expected lost records"
[[ $(json "$SNAP/ahead/predict.json" "d['replicas'][0]['truncate_to'] < d['replicas'][0]['log_end_offset']") == True ]] || fail "ahead: expected a truncation"
