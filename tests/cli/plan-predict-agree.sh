#!/usr/bin/env bash
# `plan` and `predict` agree (issue 32): on the same replicas, every candidate leader of the
# plan costs each follower exactly what `predict --leader` with that candidate says: where it
# truncates, how many records it loses and how many of those were committed. Both call one
# library function (storage/replica_forecast's forecast_follower), and committed is a
# property of records there (committed_bound: a high watermark commits the records of the
# log that recorded it, the same epoch lineage), not of offsets. Over every fixture with
# three replicas of a partition; the plan oracle (tests/oracle/plan-outage-vs-kafka.sh) runs
# the same comparison over the states real Kafka left.
. "$(dirname "$0")/common.sh"

# agree NAME DIR1 DIR2 DIR3: brokers 1, 2, 3's replicas of one partition.
agree() {
  local name=$1
  shift
  local dirs=("$@") rc=0
  # ISR [1] (a clean candidate), brokers 2 and 3 live: every replica is a candidate.
  "$KEPOCH" plan -o json --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "${dirs[@]}" \
    >"$SCRATCH/plan-$name.json" 2>"$SCRATCH/err" || rc=$?
  [[ $rc -le 1 ]] || fail "$name: plan exited $rc: $(cat "$SCRATCH/err")"
  local leader election
  for leader in 1 2 3; do
    # predict --elect makes the candidate leader at a new epoch as the plan does
    # (Partition.makeLeader): broker 1 cleanly from the ISR, 2 and 3 uncleanly.
    election=(--isr 1 --alive "$leader")
    [[ $leader == 1 ]] || election+=(--unclean)
    rc=0
    "$KEPOCH" predict -o json --elect --ids 1,2,3 "${election[@]}" "${dirs[@]}" \
      >"$SCRATCH/predict-$name-$leader.json" 2>"$SCRATCH/err" || rc=$?
    [[ $rc -le 1 ]] || fail "$name: predict exited $rc: $(cat "$SCRATCH/err")"
    python3 - "$SCRATCH/plan-$name.json" "$SCRATCH/predict-$name-$leader.json" "$leader" "$name" <<'PY' ||
import json, sys
plan, predict, leader, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3]), sys.argv[4]
cand = [c for c in plan["candidates"] if c["broker"] == leader]
if len(cand) != 1:
    sys.exit(f"{name}: the plan has no candidate {leader}")
cand = cand[0]
if predict["election"]["leader"] != leader:
    sys.exit(f"{name}: predict --elect chose {predict['election']['leader']}, not {leader}")
rows = {int(r["dir"].split("/broker-")[1].split("/")[0]): r for r in predict["replicas"]}
errors = []
for f in [f for f in plan["followers"] if f["candidate"] == leader]:
    r = rows[f["follower"]]
    got = (f["truncate_to"], f["lost_records"], f["committed_lost_records"])
    want = (r["truncate_to"], r["lost_records"], r["committed_lost_records"])
    print(f"{name}: leader {leader}, follower {f['follower']}: plan {got}, predict {want}")
    if got != want:
        errors.append(f"{name}: leader {leader}, follower {f['follower']}: plan {got}, predict {want}")
    # Whether a committed loss is certain (true), ruled out (false) or not (null): the same,
    # except where predict alone finds a follower keeping batches that differ from the
    # leader's below its truncation point (then predict says null, never safer).
    if f["committed_loss"] != r["committed_loss"] and not (
            r["committed_loss"] is None and any("keeps the batches" in u for u in r["unanswered"])):
        errors.append(f"{name}: leader {leader}, follower {f['follower']}: committed loss "
                      f"{f['committed_loss']} in the plan, {r['committed_loss']} in predict")
if cand["lost_records"] != max((r["lost_records"] or 0) for r in rows.values()):
    errors.append(f"{name}: candidate {leader} loses {cand['lost_records']}")
if cand["committed_lost_records"] != max((r["committed_lost_records"] or 0) for r in rows.values()):
    errors.append(f"{name}: candidate {leader} loses {cand['committed_lost_records']} committed")
for e in errors:
    print("MISMATCH", e)
sys.exit(1 if errors else 0)
PY
      fail "$name: plan and predict disagree with broker $leader leading"
  done
}

for run in before after; do
  d="$DATA/divergence/$run"
  agree "divergence-$run" "$d/broker-1/d-0" "$d/broker-2/d-0" "$d/broker-3/d-0"
done
for t in lc-0 t-0; do
  d="$DATA/leader-changes"
  [[ -d $d/broker-1/$t ]] && agree "leader-changes-$t" "$d/broker-1/$t" "$d/broker-2/$t" "$d/broker-3/$t"
done
d="$DATA/clean-3replica"
for p in "$d"/broker-1/*-[0-9]*; do
  t=$(basename "$p")
  agree "clean-3replica-$t" "$d/broker-1/$t" "$d/broker-2/$t" "$d/broker-3/$t"
done
# The issue's case: broker 1's b-0..2 (epoch 0, offsets 5-7) are not committed by broker 3's
# high watermark of 9, which covers other records (c-0..3, epoch 2) at those offsets.
[[ $(json "$SCRATCH/plan-divergence-before.json" \
  "[f['committed_lost_records'] for f in d['followers'] if f['candidate'] == 2 and f['follower'] == 1]") == "[0]" ]] ||
  fail "broker 1's epoch-0 records at 5-7 counted committed"
echo "ok"
