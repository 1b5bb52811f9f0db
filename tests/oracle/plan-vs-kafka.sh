#!/usr/bin/env bash
# Kafka as the oracle for `kepoch plan` (issue 18): RF 3, the ISR shrinks to one broker while
# acks=1 records are written in stages, so the two out-of-sync replicas hold different
# amounts (broker 1: a-0..4; broker 2: a, b-5..9; broker 3, the last ISR member: a, b, c-10..14),
# then broker 3 dies for good. Three topics, assignment [1,2,3] each:
#   kd  Kafka's default: its unclean election picks broker 1 (the first live replica, the
#       shorter one) and loses N records;
#   kp  the same history; the operator carries out kepoch's commands (--out-dir: reorder
#       through the Admin API, then kafka-leader-election UNCLEAN) and loses M < N;
#   kw  only a and c records: while broker 3 may return, kepoch says wait for it, and an
#       unclean election there loses the acknowledged c records (the run shows how many).
# Lost records are counted on Kafka's side: the records (offset, value) any replica held before
# the election that the new leader's log lacks, read with Kafka's DumpLogSegments.
# The same plan comes from snapshots, from the log dirs, from the live metadata and from
# the KRaft metadata log.
. "$(dirname "$0")/common.sh"
cluster_up
B="$KEPOCH_BOOTSTRAP"
W="$SCRATCH/plan"
mkdir -p "$W"

for t in kd kp kw; do "$KC" create-topic "$t" --assignment 1:2:3 >/dev/null; done
for t in kd kp kw; do "$KC" produce "$t" 5 --acks all --prefix a >/dev/null; done
"$KC" stop 1 >/dev/null
for t in kd kp kw; do "$KC" wait-isr "$t" 0 "2,3" >/dev/null; done
for t in kd kp; do "$KC" produce "$t" 5 --acks 1 --prefix b --start 5 >/dev/null; done
"$KC" stop 2 >/dev/null
for t in kd kp kw; do "$KC" wait-isr "$t" 0 "3" >/dev/null; done
for t in kd kp kw; do "$KC" produce "$t" 5 --acks 1 --prefix c --start 10 >/dev/null; done
sleep 6  # replica.high.watermark.checkpoint.interval.ms: broker 3's HW (15) reaches the file
"$KC" kill 3 >/dev/null
# Each broker's state, taken on "its machine" (1 and 2 still stopped: their files are still).
for n in 1 2 3; do
  "$KEPOCH" logdir snapshot "$("$KC" logdir "$n")" --file "$W/b$n.snap" >/dev/null
done
"$KC" cont 1 >/dev/null
"$KC" cont 2 >/dev/null
"$KC" wait-brokers "1,2" 60 >/dev/null
# Leaderless everywhere: the only ISR member is dead, unclean election is off.
for t in kd kp kw; do
  for ((i = 0; i < 100; i++)); do
    leader=$("$KC" leader "$t" 0 2>/dev/null || true)
    [[ $leader == -1 || $leader == none ]] && break
    sleep 0.2
  done
  "$KC" partition "$t" 0
done

plan() {  # plan NAME ARGS...: kepoch plan -o json, exit 0 or 1 kept in NAME.rc
  local name=$1 rc=0
  shift
  "$KEPOCH" plan -o json "$@" >"$W/$name.json" 2>"$W/$name.err" || rc=$?
  [[ $rc -le 1 ]] || fail "plan $name exited $rc: $(cat "$W/$name.err")"
  echo "$rc" >"$W/$name.rc"
}
snaps=("$W/b1.snap" "$W/b2.snap" "$W/b3.snap")
plan returnable -b "$B" --topic 'k.' "${snaps[@]}"
plan gone -b "$B" --topic 'k.' --gone 3 "${snaps[@]}"
plan gone-logdirs -b "$B" --topic 'k.' --gone 3 "$("$KC" logdir 1)" "$("$KC" logdir 2)" "$("$KC" logdir 3)"
plan gone-metadata --metadata "$("$KC" logdir controller)/__cluster_metadata-0" --topic 'k.' --gone 3 "${snaps[@]}"
"$KEPOCH" plan -b "$B" --topic kp --gone 3 --out-dir "$W/cmds" "${snaps[@]}" >/dev/null || true
echo "--- kepoch's plan (broker 3 gone)"
"$KEPOCH" plan -b "$B" --topic 'k.' --gone 3 "${snaps[@]}" || true

# What Kafka's side lost: the records (offset and value) any replica held before the
# elections that the new leader's log does not hold after, read with DumpLogSegments. (A
# producer retry can write a batch twice: each copy is a record kepoch counts too.)
records_of() {  # records_of T BROKER: "offset value" per record of the broker's replica
  local f
  for f in "$("$KC" logdir "$2")/$1-0"/*.log; do
    "$KC" dump-log --print-data-log --files "$f" 2>/dev/null
  done | sed -nE 's/.*offset: ([0-9]+) .*payload: ([^ ]+).*/\1 \2/p'
}
for t in kd kp kw; do
  for n in 1 2 3; do records_of "$t" "$n"; done | sort -u >"$W/before-$t"
done
lost_by_kafka() {  # lost_by_kafka T LEADER
  records_of "$1" "$2" | sort -u >"$W/after-$1"
  comm -23 "$W/before-$1" "$W/after-$1" | wc -l
}

# kd: Kafka's default unclean election.
"$KC" elect-unclean kd 0 >/dev/null 2>&1 || true
kd_leader=$(wait_new_leader kd 0 -1)
# kp: kepoch's commands, with Kafka's tools (the reorder through jshell and the Admin API).
jars=$(printf '%s:' "$("$KEPOCH_SOURCE_DIR/tests/kafka/fetch-kafka" --home)"/libs/*.jar)
BOOTSTRAP="$("$KC" live-bootstrap)" jshell --class-path "$jars" "$W/cmds/reorder.jsh" >"$W/jshell.out" 2>&1 ||
  fail "reorder.jsh failed: $(cat "$W/jshell.out")"
"$KC" tool org.apache.kafka.tools.LeaderElectionCommand --bootstrap-server "$("$KC" live-bootstrap)" \
  --election-type unclean --path-to-json-file "$W/cmds/elect-now.json" >"$W/elect.out" 2>&1 ||
  fail "kafka-leader-election with kepoch's elect-now.json failed: $(cat "$W/elect.out")"
kp_leader=$(wait_new_leader kp 0 -1)
# kw: an unclean election where kepoch said wait.
"$KC" elect-unclean kw 0 >/dev/null 2>&1 || true
kw_leader=$(wait_new_leader kw 0 -1)
# A new leader's log is final at once (nothing is produced any more): what it lacks is lost.
N=$(lost_by_kafka kd "$kd_leader")
M=$(lost_by_kafka kp "$kp_leader")
K=$(lost_by_kafka kw "$kw_leader")
echo "Kafka: kd led by $kd_leader lost $N; kp led by $kp_leader (kepoch's commands) lost $M; kw led by $kw_leader lost $K"

python3 - "$W" "$kd_leader" "$kp_leader" "$kw_leader" "$N" "$M" "$K" <<'PY' || fail "kepoch's plan differs from what Kafka did"
import json, sys
w = sys.argv[1]
kd_leader, kp_leader, kw_leader, N, M, K = map(int, sys.argv[2:])
load = lambda n: json.load(open(f"{w}/{n}.json"))
rc = lambda n: int(open(f"{w}/{n}.rc").read())
errors = []
def check(what, got, want):
    if got != want:
        errors.append(f"{what}: kepoch {got}, Kafka {want}")
rows = {n: {p["topic"]: p for p in load(n)["partitions"]} for n in
        ("returnable", "gone", "gone-logdirs", "gone-metadata")}
g = rows["gone"]
# Broker 3 gone: kd and kp are planned alike: elect broker 2 (the most records) uncleanly.
for t in ("kd", "kp"):
    check(f"{t} recommendation", g[t]["recommendation"], "elect_unclean")
    check(f"{t} chosen", g[t]["chosen"], 2)
    check(f"{t} Kafka's choice", g[t]["kafka_choice"], kd_leader)
check("Kafka's default loss on kd (N)", g["kd"]["kafka_lost_records"], N)
check("the plan's loss on kp (M)", g["kp"]["lost_records"], M)
check("kp's leader after kepoch's commands", kp_leader, g["kp"]["chosen"])
if not M < N:
    errors.append(f"the scenario does not separate the choices: M {M}, N {N}")
# Broker 3 may return: wait for it on kw (it holds every committed record); Kafka's unclean
# election there lost K acknowledged records, kepoch's count for Kafka's choice.
r = rows["returnable"]
check("kw recommendation (broker 3 may return)", r["kw"]["recommendation"], "wait_for_broker")
check("kw waits for", r["kw"]["chosen"], 3)
check("kw lost when waiting", r["kw"]["lost_records"], 0)
check("kw Kafka's choice", r["kw"]["kafka_choice"], kw_leader)
check("Kafka's unclean loss on kw", r["kw"]["kafka_lost_records"], K)
if K == 0:
    errors.append("the unclean election on kw lost nothing: the scenario proves nothing")
# Every source of state and metadata gives the same plan.
fields = ("condition", "recommendation", "chosen", "lost_records", "committed_lost_records",
          "kafka_choice", "kafka_lost_records", "kafka_committed_lost_records")
for other in ("gone-logdirs", "gone-metadata"):
    for t in ("kd", "kp", "kw"):
        a, b = g[t], rows[other].get(t)
        if b is None:
            errors.append(f"{other}: no row for {t}")
            continue
        for f in fields:
            if a[f] != b[f]:
                errors.append(f"{other} {t} {f}: {b[f]}, from snapshots and live metadata {a[f]}")
check("exit status (committed records lost)", rc("gone"), 1)
print(f"kepoch: Kafka's default loses {g['kd']['kafka_lost_records']}, the plan {g['kp']['lost_records']}; "
      f"kw: wait for broker {r['kw']['chosen']}, an unclean election loses {r['kw']['kafka_lost_records']}")
for e in errors:
    print("MISMATCH", e)
sys.exit(1 if errors else 0)
PY
echo "kepoch plan agrees with Kafka"
