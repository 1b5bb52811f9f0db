#!/usr/bin/env bash
# Kafka as the oracle for `kepoch plan` at a total outage (issue 32): the plan is never falsely
# safe, and its generated steps.sh runs as written, from the outage to the end.
#
# One cluster, four partitions with the same history (pa-0, pa-1, pb-0, pb-1; assignment
# [1,2,3], acks=all throughout, unclean.leader.election.enable off): a-0..4 on all three;
# broker 1 killed, b-5..9 on 2 and 3; broker 2 killed, c-10..14 on broker 3 alone (ISR [3],
# or, with eligible leader replicas on, ISR [] and ELR [3]); broker 3 killed. The last ISR
# member alone holds the newest committed records.
#
#   1. Broker 3's state not given (its disks unread): the plan must wait for broker 3 (an ISR
#      member may hold committed records no given state holds), start it first, never say
#      "loses nothing", and exit 1. With every state given: wait for broker 3, nothing lost.
#   2. Committed counts: `plan` and `predict --elect` give the same lost and committed records
#      for every candidate leader on these states.
#   3. A dead broker's own copy of the metadata log (broker 1's, which stops before the
#      leader moved away from it) is stale: the plan says so (epochs it never issued) and
#      exits 1, never "nothing to decide" with exit 0.
#   4. pa: the plan made without broker 3's state is carried out with its own steps.sh, run
#      as a user would from the total outage (it asks for each broker to be started; the
#      script here starts them when asked), to the end. Records lost (DumpLogSegments before
#      and after) equal the plan's prediction for its choice: none.
#   Counterfactual, pb: the unsafe choice (broker 2 started first and elected uncleanly,
#      what a plan that takes a missing state for an empty one recommends) loses what the
#      plan predicted for candidate 2: the committed c-10..14 (broker 3 truncates when it
#      follows broker 2, AbstractFetcherThread's divergence check).
# Whatever Kafka version and ELR setting the harness runs (KEPOCH_KAFKA_VERSION, KEPOCH_ELR):
# kepoch reads the ISR/ELR from the metadata.
. "$(dirname "$0")/common.sh"
cluster_up
W="$SCRATCH/plan"
mkdir -p "$W"
META="$("$KC" logdir controller)/__cluster_metadata-0"
KH="$(kafka_home "$W/kafka-home")"
topics=(pa pb)

for t in "${topics[@]}"; do "$KC" create-topic "$t" --assignment 1:2:3,1:2:3 >/dev/null; done
produce_all() {  # produce_all PREFIX START
  local t p
  for t in "${topics[@]}"; do
    for p in 0 1; do
      "$KC" produce "$t" 5 --acks all --partition "$p" --prefix "$1" --start "$2" >/dev/null
    done
  done
}
wait_isr_all() {  # wait_isr_all ISR
  local t p
  for t in "${topics[@]}"; do for p in 0 1; do "$KC" wait-isr "$t" "$p" "$1" >/dev/null; done; done
}
produce_all a 0
"$KC" kill 1 >/dev/null
wait_isr_all 2,3
produce_all b 5
"$KC" kill 2 >/dev/null
wait_isr_all 3
produce_all c 10
# Broker 3's high watermark (15) reaches replication-offset-checkpoint
# (replica.high.watermark.checkpoint.interval.ms): polled, not slept for.
ck="$("$KC" logdir 3)/replication-offset-checkpoint"
for ((i = 0; i < 100; i++)); do
  [[ $(grep -cE '^p[ab] [01] 15$' "$ck" 2>/dev/null) == 4 ]] && break
  sleep 0.2
done
[[ $(grep -cE '^p[ab] [01] 15$' "$ck") == 4 ]] || fail "broker 3 never checkpointed a high watermark of 15: $(cat "$ck")"
"$KC" kill 3 >/dev/null
echo "total outage: brokers 1, 2, 3 killed; broker 3 alone held c-10..14 (committed, acks=all)"

snap_all() {  # snap_all TAG: every broker's state now
  local n
  for n in 1 2 3; do
    "$KEPOCH" logdir snapshot "$("$KC" logdir "$n")" --file "$W/$1-b$n.snap" >/dev/null
  done
}
plan() {  # plan NAME ARGS...: kepoch plan -o json, exit 0 or 1 kept in NAME.rc
  local name=$1 rc=0
  shift
  "$KEPOCH" plan -o json "$@" >"$W/$name.json" 2>"$W/$name.err" || rc=$?
  [[ $rc -le 1 ]] || fail "plan $name exited $rc: $(cat "$W/$name.err")"
  echo "$rc" >"$W/$name.rc"
}
# The controller fences a killed broker after broker.session.timeout.ms: until then its log
# still calls it live and leading. Wait until it has fenced them all (every partition
# leaderless in the log) before the plans are made.
wait_leaderless() {
  local i n=$1
  for ((i = 0; i < 150; i++)); do
    "$KEPOCH" plan -o json --metadata "$META" --topic 'p.' \
      "$("$KC" logdir 1)" "$("$KC" logdir 2)" "$("$KC" logdir 3)" >"$W/wait.json" 2>/dev/null || true
    [[ $(json "$W/wait.json" "d['totals']['leaderless']") == "$n" ]] && return 0
    sleep 0.2
  done
  fail "the controller's metadata log never showed $n leaderless partitions: $(json "$W/wait.json" "d['summary']")"
}
wait_leaderless 4
snap_all t0
plan missing3 --metadata "$META" --topic 'p.' "$W/t0-b1.snap" "$W/t0-b2.snap"
plan all3 --metadata "$META" --topic 'p.' "$W/t0-b1.snap" "$W/t0-b2.snap" "$W/t0-b3.snap"
plan stale --metadata "$("$KC" logdir 1)/__cluster_metadata-0" --topic 'p.' \
  "$W/t0-b1.snap" "$W/t0-b2.snap" "$W/t0-b3.snap"
echo "--- kepoch plan, broker 3's state not given"
"$KEPOCH" plan --metadata "$META" --topic 'p.' "$W/t0-b1.snap" "$W/t0-b2.snap" || true

# predict --elect on the same states, each candidate leading (the plan's candidates' costs).
for t in pa pb; do
  for leader in 1 2 3; do
    election=(--isr 3 --alive "$leader")
    [[ $leader == 3 ]] || election+=(--unclean)
    rc=0
    "$KEPOCH" predict -o json --elect --ids 1,2,3 "${election[@]}" \
      "$W/t0-b1.snap:$t-0" "$W/t0-b2.snap:$t-0" "$W/t0-b3.snap:$t-0" >"$W/predict-$t-$leader.json" \
      2>"$W/predict.err" || rc=$?
    [[ $rc -le 1 ]] || fail "predict exited $rc: $(cat "$W/predict.err")"
  done
done

# What Kafka's side lost: the records (offset and value) any replica held at the outage that
# the leader's log does not hold at the end, read with Kafka's DumpLogSegments.
records_of() {  # records_of T-P BROKER: "offset value" per record of the broker's replica
  local f
  for f in "$("$KC" logdir "$2")/$1"/*.log; do
    "$KC" dump-log --print-data-log --files "$f" 2>/dev/null
  done | sed -nE 's/.*offset: ([0-9]+) .*payload: ([^ ]+).*/\1 \2/p'
}
for t in pa pb; do
  for p in 0 1; do
    for n in 1 2 3; do records_of "$t-$p" "$n"; done | sort -u >"$W/before-$t-$p"
  done
done

# Counterfactual (pb): broker 2 started first and elected uncleanly, broker 3 still away;
# then broker 2 goes down again: the total outage pa's plan is carried out from.
"$KC" start 2 >/dev/null
for p in 0 1; do
  "$KC" elect-unclean pb "$p" >"$W/elect-pb.out" 2>&1 || fail "unclean election on pb-$p: $(cat "$W/elect-pb.out")"
  [[ $(wait_new_leader pb "$p" -1) == 2 ]] || fail "pb-$p: broker 2 not elected"
done
for p in 0 1; do
  leader=$("$KC" leader pa "$p" 2>/dev/null || true)
  [[ $leader == -1 || $leader == none ]] || fail "pa-$p got leader $leader with broker 3 away"
done
"$KC" kill 2 >/dev/null
wait_leaderless 4

# pa: the plan made now, without broker 3's state, carried out with its own steps.sh.
snap_all t1
"$KEPOCH" plan --metadata "$META" --topic pa --out-dir "$W/cmds" "$W/t1-b1.snap" "$W/t1-b2.snap" \
  >"$W/steps-plan.out" 2>&1 && fail "the plan without broker 3's state exited 0"
plan steps-plan --metadata "$META" --topic pa "$W/t1-b1.snap" "$W/t1-b2.snap"
echo "--- steps.sh"
cat "$W/cmds/steps.sh"
run_steps "$W/cmds" "$KH" "$W/steps"
echo "steps.sh ran to the end; brokers started in its order: ${started[*]:-none}"
[[ ${started[0]:-none} == 3 ]] || fail "steps.sh did not start broker 3 first: it started ${started[*]:-no broker}"
# Every broker back (steps.sh started the others last).
for n in 1 2 3; do
  [[ " ${started[*]} " == *" $n "* ]] || "$KC" start "$n" >/dev/null
done
"$KC" wait-brokers 1,2,3 60 >/dev/null
declare -A leader_of
for t in pa pb; do
  for p in 0 1; do
    leader_of[$t-$p]=$(wait_new_leader "$t" "$p" -1)
    # The leader's log is final once the others caught up (nothing is produced any more).
    "$KC" wait-isr "$t" "$p" 1,2,3 >/dev/null
  done
done
declare -A lost
for t in pa pb; do
  for p in 0 1; do
    records_of "$t-$p" "${leader_of[$t-$p]}" | sort -u >"$W/after-$t-$p"
    lost[$t-$p]=$(comm -23 "$W/before-$t-$p" "$W/after-$t-$p" | wc -l)
    echo "Kafka: $t-$p led by ${leader_of[$t-$p]}, lost ${lost[$t-$p]} record(s)"
  done
done

python3 - "$W" "${leader_of[pa-0]}" "${leader_of[pa-1]}" "${leader_of[pb-0]}" "${leader_of[pb-1]}" \
  "${lost[pa-0]}" "${lost[pa-1]}" "${lost[pb-0]}" "${lost[pb-1]}" <<'PY' || fail "kepoch's plan differs from what Kafka did"
import json, re, sys
w = sys.argv[1]
leaders = dict(zip(("pa-0", "pa-1", "pb-0", "pb-1"), map(int, sys.argv[2:6])))
lost = dict(zip(("pa-0", "pa-1", "pb-0", "pb-1"), map(int, sys.argv[6:10])))
load = lambda n: json.load(open(f"{w}/{n}.json"))
rc = lambda n: int(open(f"{w}/{n}.rc").read())
errors = []
def check(what, got, want):
    if got != want:
        errors.append(f"{what}: kepoch {got}, Kafka {want}")
rows = lambda n: {f"{p['topic']}-{p['partition']}": p for p in load(n)["partitions"]}
cands = lambda n: {(f"{c['topic']}-{c['partition']}", c["broker"]): c for c in load(n)["candidates"]}

# 1. Broker 3's state not given: wait for it, started first; no false "loses nothing".
m = load("missing3")
for tp, p in rows("missing3").items():
    check(f"missing3 {tp} recommendation", (p["recommendation"], p["chosen"]), ("wait_for_broker", 3))
    if "loses nothing" in p["reason"] or "holds every committed record" in p["reason"]:
        errors.append(f"missing3 {tp}: a claim the unknown state cannot back: {p['reason']}")
check("missing3 start order", [(s["broker"], s["phase"]) for s in m["start_order"]][:1], [(3, "first")])
check("missing3 exit status", rc("missing3"), 1)
check("missing3 complete", m["totals"]["complete"], False)
for (tp, b), c in cands("missing3").items():
    check(f"missing3 {tp} candidate {b}: loss a lower bound", c["loss_known"], False)
    check(f"missing3 {tp} candidate {b}: committed loss not ruled out", c["committed_loss_possible"], True)
# Every state given: wait for broker 3, which loses nothing; broker 2 (the unsafe choice)
# loses c-10..14, committed.
a = rows("all3")
c3 = cands("all3")
for tp in ("pa-0", "pa-1", "pb-0", "pb-1"):
    check(f"all3 {tp} recommendation", (a[tp]["recommendation"], a[tp]["chosen"]), ("wait_for_broker", 3))
    check(f"all3 {tp} plan loss", (a[tp]["lost_records"], a[tp]["committed_lost_records"]), (0, 0))
    check(f"all3 {tp} Kafka's choice once back", a[tp]["kafka_choice"], 3)
# 4. pa: kepoch's steps.sh from the total outage; Kafka elected broker 3, lost what the plan
# predicted for its choice.
for tp in ("pa-0", "pa-1"):
    check(f"{tp} leader after steps.sh", leaders[tp], 3)
    check(f"{tp} records lost after steps.sh (the plan's prediction)", a[tp]["lost_records"], lost[tp])
sp = rows("steps-plan")
for tp in ("pa-0", "pa-1"):
    check(f"steps-plan {tp}", (sp[tp]["recommendation"], sp[tp]["chosen"]), ("wait_for_broker", 3))
# Counterfactual: broker 2 elected uncleanly first (pb) lost what the plan predicted for it.
for tp in ("pb-0", "pb-1"):
    check(f"{tp} leader (the unsafe choice)", leaders[tp], 2)
    c = c3[(tp, 2)]
    check(f"{tp} records lost electing broker 2 (the plan's count for candidate 2)", c["lost_records"], lost[tp])
    check(f"{tp} committed records lost electing broker 2", c["committed_lost_records"], lost[tp])
    if lost[tp] == 0:
        errors.append(f"{tp}: the unsafe choice lost nothing: the scenario proves nothing")
# 2. plan and predict --elect agree on every candidate's followers.
for tp in ("pa-0", "pb-0"):
    t = tp.split("-")[0]
    for leader in (1, 2, 3):
        pr = json.load(open(f"{w}/predict-{t}-{leader}.json"))
        check(f"predict --elect {t} leader", pr["election"]["leader"], leader)
        by = {int(re.search(r"t0-b(\d)\.snap", r["dir"]).group(1)): r for r in pr["replicas"]}
        rows3 = [f for f in load("all3")["followers"]
                 if f"{f['topic']}-{f['partition']}" == tp and f["candidate"] == leader]
        if len(rows3) != 2:
            errors.append(f"all3 {tp} candidate {leader}: {len(rows3)} follower rows")
        for f in rows3:
            r = by[f["follower"]]
            check(f"{tp} leader {leader} follower {f['follower']}: plan vs predict (truncate, lost, committed)",
                  (f["truncate_to"], f["lost_records"], f["committed_lost_records"]),
                  (r["truncate_to"], r["lost_records"], r["committed_lost_records"]))
# 3. Broker 1's own metadata log is stale: said, never exit 0, never "nothing to decide".
s = load("stale")
check("stale exit status", rc("stale"), 1)
if s["totals"]["stale_partitions"] < 1:
    errors.append(f"stale: not detected: {s['summary']}")
if "nothing to decide" in s["summary"]:
    errors.append(f"stale: {s['summary']}")
if not any("never issued" in p["message"] for p in s["problems"]):
    errors.append(f"stale: no problem names an epoch the metadata never issued: {s['problems']}")
print(f"kepoch: without broker 3's state, wait for 3 (exit {rc('missing3')}); pa after steps.sh lost "
      f"{lost['pa-0']}+{lost['pa-1']}, as predicted; pb electing 2 first lost {lost['pb-0']}+{lost['pb-1']}, "
      f"predicted {c3[('pb-0', 2)]['lost_records']}+{c3[('pb-1', 2)]['lost_records']}; stale metadata: {s['summary'][:90]}...")
for e in errors:
    print("MISMATCH", e)
sys.exit(1 if errors else 0)
PY
echo "kepoch plan at a total outage agrees with Kafka"
