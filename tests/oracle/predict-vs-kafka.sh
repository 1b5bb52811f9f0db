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
unclean_ahead_and_diverge
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
