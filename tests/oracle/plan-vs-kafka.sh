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
#
# Topic configs, as Kafka resolves them (KafkaConfigSchema.resolveEffectiveTopicConfig: the
# topic's, else the deciding node's own dynamic config, else the cluster-wide default, else
# the node's server.properties, else Kafka's default), decide what Kafka then does:
#   ku  assignment [2,3], with kafka-configs.sh: unclean.leader.election.enable=true over a
#       cluster-wide default of false (--entity-default), and min.insync.replicas=2. With
#       broker 3 (its ISR) dead and broker 2 back, Kafka's controller elects broker 2 by
#       itself (kd, kp, kw stay leaderless); planned while broker 2 is still away: "unclean",
#       Kafka's choice 2. Led by 2 alone then, it refuses acks=all writes with
#       NOT_ENOUGH_REPLICAS; the plan says "under_min_isr". kp (min.insync.replicas=1 of the
#       nodes' server.properties) accepts them; the plan says healthy.
# The live and the metadata-log plans agree on every partition's decision and on where each
# value came from: the topic, the cluster default; the static server.properties value only
# live (DescribeConfigs' STATIC_BROKER_CONFIG), the log's plan saying it cannot know it and
# assumes Kafka's default (or --unclean, --min-isr). (Not min.insync.replicas=2 in every
# server.properties: Kafka 4 holds the high watermark while the ISR is below it
# (Partition.maybeIncrementLeaderHW), which would change what the scenario above commits.)
. "$(dirname "$0")/common.sh"
cluster_up
B="$KEPOCH_BOOTSTRAP"
W="$SCRATCH/plan"
mkdir -p "$W"
META="$("$KC" logdir controller)/__cluster_metadata-0"

for t in kd kp kw; do "$KC" create-topic "$t" --assignment 1:2:3 >/dev/null; done
"$KC" create-topic ku --assignment 2:3 >/dev/null
# kafka-configs.sh (ConfigCommand, IncrementalAlterConfigs: ConfigRecords in the metadata log),
# beside the first writes.
"$KC" set-topic-config ku unclean.leader.election.enable=true,min.insync.replicas=2 >"$W/config-ku.out" 2>&1 &
cfg_ku=$!
"$KC" tool kafka.admin.ConfigCommand --bootstrap-server "$("$KC" live-bootstrap)" --alter \
  --entity-type brokers --entity-default --add-config unclean.leader.election.enable=false \
  >"$W/config-default.out" 2>&1 &
cfg_default=$!
for t in kd kp kw; do "$KC" produce "$t" 5 --acks all --prefix a >/dev/null; done
wait "$cfg_ku" || fail "kafka-configs on ku failed: $(cat "$W/config-ku.out")"
wait "$cfg_default" || fail "kafka-configs --entity-default failed: $(cat "$W/config-default.out")"
# Whether the cluster holds a cluster-wide min.insync.replicas, as Kafka says it: with eligible
# leader replicas on, the controller writes one itself, the active controller's static value
# (ConfigurationControlManager, KIP-966: "the cluster-level min.insync.replicas config will be
# added if there is not any"), so the topics without their own take it from there.
"$KC" tool kafka.admin.ConfigCommand --bootstrap-server "$("$KC" live-bootstrap)" --describe \
  --entity-type brokers --entity-default >"$W/describe-default.out" 2>&1 ||
  fail "kafka-configs --describe --entity-default failed: $(cat "$W/describe-default.out")"
grep -q 'unclean.leader.election.enable=false' "$W/describe-default.out" ||
  fail "kafka-configs --describe --entity-default shows no cluster default: $(cat "$W/describe-default.out")"
min_isr_default=$(sed -n 's/^ *min\.insync\.replicas=\([0-9]*\) .*/\1/p' "$W/describe-default.out")
echo "cluster-wide min.insync.replicas: ${min_isr_default:-none} (ELR $(cluster_elr))"
"$KC" stop 1 >/dev/null
for t in kd kp kw; do "$KC" wait-isr "$t" 0 "2,3" >/dev/null; done
for t in kd kp; do "$KC" produce "$t" 5 --acks 1 --prefix b --start 5 >/dev/null; done
"$KC" stop 2 >/dev/null
for t in kd kp kw; do "$KC" wait-isr "$t" 0 "3" >/dev/null; done
for t in kd kp kw; do "$KC" produce "$t" 5 --acks 1 --prefix c --start 10 >/dev/null; done
# Broker 3's high watermarks reach its replication-offset-checkpoint (written every
# replica.high.watermark.checkpoint.interval.ms, 5 s): polled for each partition's high
# watermark as Kafka answers it (ListOffsets latest), not slept for.
hw_file="$("$KC" logdir 3)/replication-offset-checkpoint"
want_hw=()
for t in kd kp kw; do want_hw+=("$t 0 $("$KC" end-offset "$t" 0)"); done
hw_checkpointed() { local l; for l in "${want_hw[@]}"; do grep -qx "$l" "$hw_file" 2>/dev/null || return 1; done; }
for _ in $(seq 1 120); do hw_checkpointed && break; sleep 0.25; done
hw_checkpointed || fail "broker 3 never checkpointed its high watermarks (${want_hw[*]}): $(cat "$hw_file")"
"$KC" kill 3 >/dev/null
# Each broker's state, taken on "its machine" (1 and 2 still stopped: their files are still).
for n in 1 2 3; do
  "$KEPOCH" logdir snapshot "$("$KC" logdir "$n")" --file "$W/b$n.snap" >/dev/null
done
plan() {  # plan NAME ARGS...: kepoch plan -o json, exit 0 or 1 kept in NAME.rc
  local name=$1 rc=0
  shift
  "$KEPOCH" plan -o json "$@" >"$W/$name.json" 2>"$W/$name.err" || rc=$?
  [[ $rc -le 1 ]] || fail "plan $name exited $rc: $(cat "$W/$name.err")"
  echo "$rc" >"$W/$name.rc"
}
snaps=("$W/b1.snap" "$W/b2.snap" "$W/b3.snap")
# Broker 1 back, broker 2 still away: ku has no live replica, so Kafka elects no one yet.
"$KC" cont 1 >/dev/null
"$KC" wait-brokers "1" 60 >/dev/null
# ku's eligible leader replicas as Kafka holds them now (empty with ELR off): broker 2, dropped
# from an ISR below ku's min.insync.replicas=2, is eligible, so Kafka elects it cleanly on return.
ku_elr=$("$KC" elr ku 0 | tr -dc '0-9,')
echo "ku's ELR before broker 2 returns: [${ku_elr}]"
plan ku-live -b "$("$KC" live-bootstrap)" --topic ku --gone 3 "${snaps[@]}"
plan ku-metadata --metadata "$META" --topic ku --gone 3 "${snaps[@]}"
"$KC" cont 2 >/dev/null
"$KC" wait-brokers "1,2" 60 >/dev/null
# ku: unclean election enabled on the topic, Kafka's controller elects on its own.
ku_leader=$(wait_new_leader ku 0 -1)
echo "Kafka elected broker $ku_leader for ku by itself (unclean.leader.election.enable=true)"
# Leaderless everywhere: the only ISR member is dead, unclean election is off.
for t in kd kp kw; do
  for ((i = 0; i < 100; i++)); do
    leader=$("$KC" leader "$t" 0 2>/dev/null || true)
    [[ $leader == -1 || $leader == none ]] && break
    sleep 0.2
  done
  "$KC" partition "$t" 0
done

plan returnable -b "$B" --topic 'k.' "${snaps[@]}"
plan gone -b "$B" --topic 'k.' --gone 3 "${snaps[@]}"
plan gone-logdirs -b "$B" --topic 'k.' --gone 3 "$("$KC" logdir 1)" "$("$KC" logdir 2)" "$("$KC" logdir 3)"
plan gone-metadata --metadata "$META" --topic 'k.' --gone 3 "${snaps[@]}"
# The commands for kp: exit 1 (the plan loses committed records: broker 3's are gone).
plan cmds -b "$B" --topic kp --gone 3 --out-dir "$W/cmds" "${snaps[@]}"
[[ $(cat "$W/cmds.rc") == 1 ]] || fail "plan --out-dir exited $(cat "$W/cmds.rc"), not 1"
echo "--- kepoch's plan (broker 3 gone)"
rc=0
"$KEPOCH" plan -b "$B" --topic 'k.' --gone 3 "${snaps[@]}" || rc=$?
[[ $rc == 1 ]] || fail "the plan with broker 3 gone exited $rc, not 1"

# What Kafka's side lost: the records (offset and value) any replica held before the
# elections that the new leader's log does not hold after, read with DumpLogSegments. (A
# producer retry can write a batch twice: each copy is a record kepoch counts too.)
records_of() {  # records_of T BROKER: "offset value" per record of the broker's replica
  local f
  for f in "$("$KC" logdir "$2")/$1-0"/*.log; do
    "$KC" dump-log --print-data-log --files "$f" || exit 1
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
# kp: kepoch's commands, run as written (steps.sh: it checks brokers 1 and 2 are live, puts
# broker 2 first through jshell and the Admin API, then kafka-leader-election UNCLEAN).
run_steps "$W/cmds" "$(kafka_home "$W/kafka-home")" "$W/steps"
grep -q "reordered 1 partition(s)" "$W/steps.out" || fail "steps.sh did not reorder: $(cat "$W/steps.out")"
[[ ${#started[@]} == 0 ]] || fail "steps.sh asked to start brokers ${started[*]} (broker 3 is gone)"
kp_leader=$(wait_new_leader kp 0 -1)
# kw: an unclean election where kepoch said wait.
"$KC" elect-unclean kw 0 >/dev/null 2>&1 || true
kw_leader=$(wait_new_leader kw 0 -1)
# A new leader's log is final at once (nothing is produced any more): what it lacks is lost.
N=$(lost_by_kafka kd "$kd_leader")
M=$(lost_by_kafka kp "$kp_leader")
K=$(lost_by_kafka kw "$kw_leader")
echo "Kafka: kd led by $kd_leader lost $N; kp led by $kp_leader (kepoch's commands) lost $M; kw led by $kw_leader lost $K"

# Led by broker 2 now: ku (its own min.insync.replicas=2) alone in its ISR, kp (the static 1):
# the plans say ku refuses acks=all writes and kp is healthy; Kafka refuses ku's, takes kp's.
plan after-live -b "$B" --all --topic 'k[pu]' "${snaps[@]}"
plan after-metadata --metadata "$META" --all --topic 'k[pu]' "${snaps[@]}"
"$KC" produce ku 1 --acks all --prefix m --timeout-ms 1000 >"$W/acks-all-ku.out" 2>&1 &
produce_ku=$!
"$KC" produce kp 1 --acks all --prefix m --timeout-ms 1000 >"$W/acks-all-kp.out" 2>&1 ||
  fail "kp: an acks=all write was refused: $(cat "$W/acks-all-kp.out")"
if wait "$produce_ku"; then fail "ku: an acks=all write was accepted: $(cat "$W/acks-all-ku.out")"; fi
grep -qE 'NotEnoughReplicasException|NOT_ENOUGH_REPLICAS' "$W/acks-all-ku.out" ||
  fail "ku: the acks=all write failed, but not with NOT_ENOUGH_REPLICAS: $(cat "$W/acks-all-ku.out")"
echo "Kafka refused an acks=all write to ku ($(grep -oE 'NotEnoughReplicasException|NOT_ENOUGH_REPLICAS' "$W/acks-all-ku.out" | sort -u | tr '\n' ' ')), took kp's"

python3 - "$W" "$kd_leader" "$kp_leader" "$kw_leader" "$N" "$M" "$K" "$ku_leader" \
  "${min_isr_default}" "${ku_elr}" <<'PY' || fail "kepoch's plan differs from what Kafka did"
import json, sys
w = sys.argv[1]
kd_leader, kp_leader, kw_leader, N, M, K, ku_leader = map(int, sys.argv[2:9])
min_isr_default = sys.argv[9]  # the cluster-wide min.insync.replicas Kafka holds, "" for none
ku_elr = [int(x) for x in sys.argv[10].split(",") if x]
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

# --- Topic configs: the live plan (DescribeConfigs) and the metadata-log plan (ConfigRecords).
for n in ("ku-live", "ku-metadata", "after-live", "after-metadata"):
    rows[n] = {p["topic"]: p for p in load(n)["partitions"]}
class Missing(dict):  # a partition a plan does not list: every field None, said once
    def __missing__(self, key):
        return None
for n, topics in (("gone", ("kd", "kp", "kw", "ku")), ("gone-metadata", ("kd", "kp", "kw", "ku")),
                  ("ku-live", ("ku",)), ("ku-metadata", ("ku",)),
                  ("after-live", ("kp", "ku")), ("after-metadata", ("kp", "ku"))):
    for t in topics:
        if t not in rows[n]:
            errors.append(f"{n}: no row for {t}")
            rows[n][t] = Missing()
notes = lambda n: load(n)["notes"]
def note(n, name):
    found = [x for x in notes(n) if x.startswith(name + ": ")]
    if len(found) != 1:
        errors.append(f"{n}: {len(found)} notes on {name}: {notes(n)}")
        return ""
    return found[0]
# Where each value came from, as the live cluster says (Kafka's ConfigSource) and as the log
# says: the topic's own and the cluster default alike; a value of the nodes' server.properties
# only live, the log's plan naming its flags instead.
min_isr_source = "cluster_default" if min_isr_default else "static"
want = {t: (1, min_isr_source, False, "cluster_default") for t in ("kd", "kp", "kw")}
want["ku"] = (2, "topic", True, "topic")
def config_fields(name, row, topic):
    got = (row["min_insync_replicas"], row["min_insync_replicas_source"],
           row["unclean_leader_election"], row["unclean_leader_election_source"])
    exp = want[topic]
    if name.endswith("metadata"):  # the log cannot hold the static 1: its plan takes --min-isr's
        exp = (exp[0], "flags" if exp[1] == "static" else exp[1], exp[2],
               "flags" if exp[3] == "static" else exp[3])
    check(f"{name} {topic} configs (min ISR, its source, unclean, its source)", got, exp)
for name in ("gone", "gone-metadata"):
    for t in ("kd", "kp", "kw", "ku"):
        config_fields(name, rows[name][t], t)
for name in ("after-live", "after-metadata"):
    for t in ("kp", "ku"):
        config_fields(name, rows[name][t], t)
# ku before broker 2 is back: no live replica, unclean election on (the topic's own config):
# Kafka's choice is broker 2 once it is back, which Kafka then did by itself.
for name in ("ku-live", "ku-metadata"):
    ku = rows[name]["ku"]
    check(f"{name} ku condition", ku["condition"], "unclean")
    check(f"{name} ku Kafka's choice", ku["kafka_choice"], ku_leader)
    check(f"{name} ku recommendation", (ku["recommendation"], ku["chosen"]), ("wait_for_broker", 2))
    if 2 in ku_elr:  # eligible: a clean election from the ELR, never called unclean
        if "uncleanly" in (ku["reason"] or "") or "wait for broker 2" not in (ku["reason"] or ""):
            errors.append(f"{name} ku: broker 2 is eligible (ELR {ku_elr}), the reason says: {ku['reason']}")
    elif "Kafka elects it uncleanly on its own" not in (ku["reason"] or ""):
        errors.append(f"{name} ku: the reason does not say Kafka elects broker 2 itself: {ku['reason']}")
    check(f"{name} ku unclean election (topic config)",
          (ku["unclean_leader_election"], ku["unclean_leader_election_source"]), (True, "topic"))
check("Kafka's own unclean election on ku", ku_leader, 2)
same = ("condition", "recommendation", "chosen", "kafka_choice", "lost_records",
        "kafka_lost_records", "min_insync_replicas", "min_insync_replicas_source",
        "unclean_leader_election", "unclean_leader_election_source")
for f in same:
    check(f"ku {f}: live vs metadata log", rows["ku-metadata"]["ku"][f], rows["ku-live"]["ku"][f])
for f in ("condition", "recommendation", "chosen", "kafka_choice", "min_insync_replicas",
          "unclean_leader_election", "unclean_leader_election_source"):
    check(f"gone-metadata ku {f}", rows["gone-metadata"]["ku"][f], rows["gone"]["ku"][f])
# Led by broker 2: ku with fewer in-sync replicas than its min.insync.replicas is refused
# acks=all writes (Kafka did), kp is not (Kafka took one).
for name in ("after-live", "after-metadata"):
    for t, condition in (("kp", "healthy"), ("ku", "under_min_isr")):
        p = rows[name][t]
        check(f"{name} {t} condition", p["condition"], condition)
        check(f"{name} {t} leader", p["leader"], 2)
    if "acks=all producers are refused" not in (rows[name]["ku"]["reason"] or ""):
        errors.append(f"{name} ku: the reason does not say acks=all writes are refused: {rows[name]['ku']['reason']}")
    if "acks=all writes are refused on 1" not in load(name)["summary"]:
        errors.append(f"{name}: the verdict does not say acks=all writes are refused: {load(name)['summary']}")
check("gone ku condition (led by 2 alone, min ISR 2)", rows["gone"]["ku"]["condition"], "under_min_isr")
# The same verdict and totals from the live cluster and from the metadata log.
for live, meta in (("gone", "gone-metadata"), ("ku-live", "ku-metadata"), ("after-live", "after-metadata")):
    check(f"{meta} verdict", load(meta)["summary"], load(live)["summary"])
    check(f"{meta} totals", load(meta)["totals"], load(live)["totals"])
# The notes name the same sources: the topic configs and the cluster default from both, the
# static value only live; the log's plan says it cannot know it rather than claim a default.
for live, meta in (("gone", "gone-metadata"), ("ku-live", "ku-metadata")):
    ul, um = note(live, "unclean.leader.election.enable"), note(meta, "unclean.leader.election.enable")
    ml, mm = note(live, "min.insync.replicas"), note(meta, "min.insync.replicas")
    for n, text, part in ((live, ul, "the topic config of ku=true (DescribeConfigs)"),
                          (meta, um, "the topic config of ku=true (metadata log)")):
        if part not in text:
            errors.append(f"{n}: the unclean note does not name ku's own config: {text}")
    if live == "gone":
        for n, text in ((live, ul), (meta, um)):
            if "the cluster-wide default false" not in text:
                errors.append(f"{n}: the unclean note does not name the cluster default: {text}")
    if "the topic config of ku=2 (DescribeConfigs)" not in ml:
        errors.append(f"{live}: the min ISR note does not name ku's own config: {ml}")
    if "the topic config of ku=2 (metadata log)" not in mm:
        errors.append(f"{meta}: the min ISR note does not name ku's own config: {mm}")
    if live == "gone" and min_isr_default:  # Kafka's own cluster-wide value, from both sources
        for n, text in ((live, ml), (meta, mm)):
            if f"the cluster-wide default {min_isr_default}" not in text:
                errors.append(f"{n}: the min ISR note does not name the cluster default: {text}")
    elif live == "gone":
        if "1 from the server.properties of" not in ml or "STATIC_BROKER_CONFIG" not in ml:
            errors.append(f"{live}: the min ISR note does not name the static config: {ml}")
        if ("1 (Kafka's default) assumed" not in mm or "not in it" not in mm or
                "--min-isr" not in mm):
            errors.append(f"{meta}: the min ISR note claims what the log cannot hold: {mm}")
        if "false from the server.properties of" in ul or "assumed" in um:
            errors.append(f"the cluster default, not a static or assumed value, decides: {ul} / {um}")
print(f"kepoch: Kafka's default loses {g['kd']['kafka_lost_records']}, the plan {g['kp']['lost_records']}; "
      f"kw: wait for broker {r['kw']['chosen']}, an unclean election loses {r['kw']['kafka_lost_records']}")
print(f"kepoch: ku {rows['ku-live']['ku']['condition']}, Kafka's choice {rows['ku-live']['ku']['kafka_choice']} "
      f"(live and metadata log); led by 2: ku {rows['after-live']['ku']['condition']}, kp {rows['after-live']['kp']['condition']}")
for e in errors:
    print("MISMATCH", e)
sys.exit(1 if errors else 0)
PY
echo "kepoch plan agrees with Kafka"
