#!/usr/bin/env bash
# Kafka as the judge of `kepoch cluster what-if --stop` on a real KRaft cluster: kepoch
# forecasts, then the brokers really stop, and kafka-topics --describe (TopicCommand) must
# show, partition by partition, the leader (none for an unavailable partition), the ISR in
# Kafka's order and, with ELR on, the ELR and last known ELR that kepoch forecast; its
# --unavailable-partitions and --under-min-isr-partitions must list what kepoch flagged; and
# each leader's leader-epoch-checkpoint must end at the leader epoch kepoch forecast.
#   step 1: --stop 2 (controlled shutdown), then SIGTERM to broker 2;
#   step 2: --stop 3 --kill with 2 already down, then kill -9 broker 3: partitions go
#           offline, one is led uncleanly (unclean.leader.election.enable=true and broker 1
#           alive outside the ISR), one stays offline although broker 1 is alive (unclean
#           off).
#   step 3: broker 3 (killed) and broker 2 (shut down cleanly) start again; the controller's
#           metadata log, read by DumpLogSegments, must take out of an ELR on each return
#           exactly the brokers kepoch listed in leaves_elr_on_return (step 2 for broker 3,
#           step 1 for broker 2).
# Broker 1 is kept alive outside the ISR of `unclean` and `strict` by a replication throttle
# (follower.replication.throttled.rate=1 byte/s on broker 1, and one record batch per fetch:
# replica.fetch.max.bytes=1), after records it missed while paused.
# The cluster gets the defaults of a new cluster of its release (ELR on from 4.1);
# KEPOCH_ELR=0 (cluster-what-if-vs-kafka-elr-off.sh) runs the same with ELR off.
. "$(dirname "$0")/common.sh"
export KEPOCH_EXTRA_PROPS="replica.fetch.max.bytes=1"
cluster_up
B="$KEPOCH_BOOTSTRAP"
elr_on=false
ELR=$(cluster_elr)
[[ $ELR == 1 ]] && elr_on=true

# --- broker 1 outside the ISR of `unclean` and `strict`, alive: paused (SIGSTOP) until the
# controller fences it and its leaders drop it from the ISR, records written meanwhile, then
# resumed. It is never restarted, so the throttle is in force when it fetches again (a
# restarted broker may fetch before its dynamic configs are applied, and catch up).
"$KC" tool org.apache.kafka.tools.ConfigCommand --bootstrap-server "$B" --alter --entity-type brokers \
  --entity-name 1 --add-config follower.replication.throttled.rate=1 >/dev/null
"$KC" create-topic unclean --assignment 2:3:1 --config unclean.leader.election.enable=true \
  --config follower.replication.throttled.replicas=0:1 >/dev/null
"$KC" create-topic strict --assignment 3:2:1 --config follower.replication.throttled.replicas=0:1 >/dev/null
"$KC" stop 1
"$KC" wait-isr unclean 0 2,3 >/dev/null
"$KC" wait-isr strict 0 2,3 >/dev/null
"$KC" produce unclean 30 --acks all --sync >/dev/null
"$KC" produce strict 30 --acks all --sync >/dev/null
"$KC" cont 1
"$KC" wait-brokers 1,2,3 >/dev/null

# --- the other topics, every replica in the ISR, led by the first of the assignment
"$KC" create-topic orders --assignment 2:3:1,1:2:3,3:1:2 >/dev/null  # RF 3 led by 2, 1, 3
"$KC" create-topic rf2 --assignment 2:3 >/dev/null
"$KC" create-topic solo --assignment 2 >/dev/null
"$KC" create-topic minisr2 --assignment 3:2:1 --config min.insync.replicas=2 >/dev/null
"$KC" create-topic uncleanrf2 --assignment 3:2 --config unclean.leader.election.enable=true >/dev/null
"$KC" produce orders 30 --acks all >/dev/null

# what_if EXIT ARGS...: kepoch's forecast (-o json) in $SCRATCH/forecast.json
what_if() {
  local want=$1
  shift
  expect_exit "$want" "$KEPOCH" cluster what-if -b "$("$KC" live-bootstrap)" --exclude-internal -o json "$@"
  cp "$SCRATCH/out" "$SCRATCH/forecast.json"
}
forecast() {  # forecast TOPIC PARTITION JQ-FILTER: one field of one partition
  jq -r --arg t "$1" --argjson p "$2" ".partitions[] | select(.topic == \$t and .partition == \$p) | $3" \
    "$SCRATCH/forecast.json"
}

# "topic partition leader isr elr last_known_elr" per partition, "-" for an empty list:
# kepoch's forecast, and Kafka's own kafka-topics --describe (leader -1 for none; the ELR
# fields sorted, empty with ELR off).
kepoch_after() {
  jq -r 'def ids: if . == null or . == [] then "-" else sort | join(",") end;
      .partitions[] | [.topic, (.partition | tostring), (.leader_after // -1 | tostring),
      (if .isr_after == [] then "-" else .isr_after | join(",") end), (.elr_after | ids),
      (.last_known_elr_after | ids)] | join(" ")' "$SCRATCH/forecast.json" | sort
}
kafka_topics() {
  "$KC" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$("$KC" live-bootstrap)" \
    --describe --exclude-internal "$@" 2>/dev/null
}
sorted_ids() { if [[ -z $1 || $1 == N/A ]]; then echo -; else tr ',' '\n' <<<"$1" | sort -n | paste -sd, -; fi; }
kafka_after() {
  kafka_topics | awk -F'\t' '/Partition: / {
      t = p = l = isr = elr = lke = ""
      for (i = 1; i <= NF; i++) {
        split($i, kv, ": ")
        if (kv[1] == "Topic") t = kv[2]; else if (kv[1] == "Partition") p = kv[2]
        else if (kv[1] == "Leader") l = kv[2]; else if (kv[1] == "Isr") isr = kv[2]
        else if (kv[1] == "Elr") elr = kv[2]; else if (kv[1] == "LastKnownElr") lke = kv[2]
      }
      if (l == "none") l = -1
      print t "|" p "|" l "|" isr "|" elr "|" lke
    }' | while IFS='|' read -r t p l isr elr lke; do
      echo "$t $p $l ${isr:--} $(sorted_ids "$elr") $(sorted_ids "$lke")"
    done | sort
}

# judge STEP: Kafka's describe equals the forecast (read again for up to 40 s while the
# controller's records reach the brokers) and stays equal over three reads a second apart, so
# a state Kafka only passes through on its way elsewhere does not pass; so do its report flags.
judge() {
  local step=$1 deadline=$((SECONDS + 40)) equal=0
  kepoch_after > "$SCRATCH/$step-kepoch.txt"
  if [[ $elr_on == false ]]; then  # ELR off: compare leader and ISR only
    cut -d' ' -f1-4 "$SCRATCH/$step-kepoch.txt" > "$SCRATCH/$step-want.txt"
  else
    cp "$SCRATCH/$step-kepoch.txt" "$SCRATCH/$step-want.txt"
  fi
  while :; do
    kafka_after > "$SCRATCH/$step-kafka-all.txt"
    if [[ $elr_on == false ]]; then
      cut -d' ' -f1-4 "$SCRATCH/$step-kafka-all.txt" > "$SCRATCH/$step-kafka.txt"
    else
      cp "$SCRATCH/$step-kafka-all.txt" "$SCRATCH/$step-kafka.txt"
    fi
    if diff -q "$SCRATCH/$step-want.txt" "$SCRATCH/$step-kafka.txt" >/dev/null; then
      equal=$((equal + 1))
      ((equal < 3)) || break
    else
      equal=0
    fi
    ((SECONDS < deadline || equal > 0)) || {
      diff "$SCRATCH/$step-want.txt" "$SCRATCH/$step-kafka.txt" || true
      fail "$step: kafka-topics --describe differs from the forecast (< kepoch, > Kafka)"
    }
    sleep 1
  done
  sed "s/^/  $step: /" "$SCRATCH/$step-kafka-all.txt"  # topic partition leader isr elr last_known_elr
  echo "ok: $step: leader, ISR$([[ $elr_on == true ]] && echo ", ELR, last known ELR") as forecast for $(wc -l < "$SCRATCH/$step-want.txt") partitions"

  local flag field
  for flag in --unavailable-partitions --under-min-isr-partitions; do
    # TopicCommand: unavailable = no leader; under min ISR = no leader or ISR < min ISR.
    [[ $flag == --unavailable-partitions ]] && field='.unavailable' || field='(.unavailable or .under_min_isr)'
    kafka_topics "$flag" | awk -F'\t' '/Partition: / { for (i = 1; i <= NF; i++) { split($i, kv, ": ");
        if (kv[1] == "Topic") t = kv[2]; if (kv[1] == "Partition") p = kv[2] } print t, p }' |
      sort > "$SCRATCH/$step-kafka-flag.txt"
    jq -r ".partitions[] | select($field) | \"\(.topic) \(.partition)\"" "$SCRATCH/forecast.json" |
      sort > "$SCRATCH/$step-kepoch-flag.txt"
    diff "$SCRATCH/$step-kepoch-flag.txt" "$SCRATCH/$step-kafka-flag.txt" ||
      fail "$step: kafka-topics $flag differs from the forecast"
  done
  echo "ok: $step: kafka-topics --unavailable-partitions and --under-min-isr-partitions as forecast"

  # Leader epochs: the new leader's leader-epoch-checkpoint, read as text, ends at the epoch
  # kepoch forecast (written asynchronously after the election: polled).
  local t p leader epoch cp_epoch
  while read -r t p leader epoch; do
    for _ in $(seq 50); do
      cp_epoch=$(awk 'NR > 2 && NF == 2 { e = $1 } END { print e }' \
        "$("$KC" logdir "$leader")/$t-$p/leader-epoch-checkpoint" 2>/dev/null || true)
      [[ $cp_epoch == "$epoch" ]] && break
      sleep 0.2
    done
    [[ $cp_epoch == "$epoch" ]] || fail "$step: $t-$p: forecast epoch $epoch, leader $leader's checkpoint $cp_epoch"
  done < <(jq -r '.partitions[] | select(.leader_after != null) |
      "\(.topic) \(.partition) \(.leader_after) \(.leader_epoch_after)"' "$SCRATCH/forecast.json")
  echo "ok: $step: the leaders' leader-epoch-checkpoints end at the forecast epochs"
}

# --- step 1: a controlled shutdown of broker 2
expect_exit 2 "$KEPOCH" cluster what-if -b "$B" --stop 2,5
expect_in "$SCRATCH/err" "broker 5 is not alive in the cluster (alive brokers: 1, 2, 3)"
what_if 1 --stop 2  # solo (RF 1 on broker 2) loses its only replica
jq -e --argjson elr "$elr_on" '.assumed.alive_brokers == [1,2,3] and .assumed.alive_after == [1,3]
    and .assumed.eligible_leader_replicas == $elr and .shutdown == "controlled" and .stop == [2]' \
  "$SCRATCH/forecast.json" >/dev/null || fail "step 1 assumptions: $(jq -c .assumed "$SCRATCH/forecast.json")"
expect_in "$SCRATCH/forecast.json" "eligible.leader.replicas.version=$ELR finalized (ApiVersions)"
jq -e '[.topics[] | select(.topic == "minisr2" and .min_insync_replicas == 2)] | length == 1' \
  "$SCRATCH/forecast.json" >/dev/null || fail "minisr2's min.insync.replicas not read"
jq -e '[.topics[] | select(.topic == "unclean" and .unclean_leader_election_enable == true)] | length == 1' \
  "$SCRATCH/forecast.json" >/dev/null || fail "unclean's unclean.leader.election.enable not read"
[[ $(forecast unclean 0 '.isr_before | join(",")') == "2,3" ]] ||
  fail "scenario broken: broker 1 is in unclean-0's ISR ($(forecast unclean 0 .isr_before))"
# Kafka's rules, as kepoch states them: the next ISR member in assignment order leads, a
# follower leaving keeps the leader and its epoch.
[[ $(forecast orders 0 '"\(.leader_after) \(.leader_changed) \(.isr_after | join(","))"') == "3 true 3,1" ]] ||
  fail "orders-0: $(forecast orders 0 .)"
[[ $(forecast orders 1 '"\(.leader_after) \(.leader_changed) \(.outcome)"') == "1 false isr_shrinks" ]] ||
  fail "orders-1: $(forecast orders 1 .)"
[[ $(forecast solo 0 '"\(.unavailable) \(.outcome)"') == "true offline" ]] || fail "solo-0: $(forecast solo 0 .)"
# Leaders move for orders-0, rf2-0 and unclean-0; solo-0 has none left.
[[ $(jq -c '.summary | [.leaders_moved, .unavailable, .under_min_isr]' "$SCRATCH/forecast.json") == "[3,1,0]" ]] ||
  fail "step 1 summary: $(jq -c .summary "$SCRATCH/forecast.json")"
# The same forecast as a table (the default output), for people.
expect_exit 1 "$KEPOCH" cluster what-if -b "$B" --exclude-internal --stop 2
expect_in "$SCRATCH/out" "LEADER_AFTER"
sed 's/^/  table: /' "$SCRATCH/out"
"$KC" term 2  # SIGTERM: controlled shutdown; returns once broker 2 has exited
judge "step 1"
cp "$SCRATCH/forecast.json" "$SCRATCH/step1-forecast.json"

# --- step 2: broker 3 killed, with broker 2 down
expect_exit 2 "$KEPOCH" cluster what-if -b "$("$KC" live-bootstrap)" --stop 2
expect_in "$SCRATCH/err" "broker 2 is not alive in the cluster (alive brokers: 1, 3)"
what_if 1 --stop 3
jq -c '.partitions | map(del(.leaves_elr_on_return))' "$SCRATCH/forecast.json" > "$SCRATCH/controlled.json"
what_if 1 --stop 3 --kill
# Kafka's controlled shutdown and fencing run the same generateLeaderAndIsrUpdates.
jq -c '.partitions | map(del(.leaves_elr_on_return))' "$SCRATCH/forecast.json" |
  diff "$SCRATCH/controlled.json" - || fail "--kill forecasts other leaders, ISR or ELR than a controlled shutdown"
[[ $(forecast unclean 0 '.isr_before | join(",")') == "3" ]] ||
  fail "scenario broken: unclean-0's ISR is $(forecast unclean 0 .isr_before) (broker 1 caught up?)"
[[ $(forecast unclean 0 '"\(.leader_after) \(.unclean_election) \(.outcome)"') == "1 true unclean_election" ]] ||
  fail "unclean-0: $(forecast unclean 0 .)"
[[ $(forecast strict 0 '"\(.unavailable) \(.needs_unclean_election) \(.outcome)"') == "true true offline_unless_unclean" ]] ||
  fail "strict-0: $(forecast strict 0 .)"
[[ $(forecast uncleanrf2 0 '"\(.unavailable) \(.unclean_election) \(.outcome)"') == "true false offline" ]] ||
  fail "uncleanrf2-0: $(forecast uncleanrf2 0 .)"
[[ $(forecast minisr2 0 '"\(.leader_after) \(.under_min_isr) \(.outcome)"') == "1 true under_min_isr" ]] ||
  fail "minisr2-0: $(forecast minisr2 0 .)"
jq -e '.summary.unclean_election == 1 and .summary.needs_unclean_election == 1' "$SCRATCH/forecast.json" >/dev/null ||
  fail "step 2 summary: $(jq -c .summary "$SCRATCH/forecast.json")"
"$KC" kill 3
"$KC" wait-brokers 1 60 >/dev/null  # fenced once broker.session.timeout.ms passed
judge "step 2"

# --- step 3: the stopped brokers return. A broker registering without a clean shutdown
# behind it (no broker epoch in its clean-shutdown file: killed) makes the controller take it
# out of every ELR (ReplicationControlManager.handleBrokerShutdown(clean = false), its
# PartitionChangeRecords in the batch of the new RegisterBrokerRecord); a clean return leaves
# the ELR alone. Broker 3 returns first: broker 2 catching up could grow an ISR to min ISR
# and clear an ELR that broker 3 is in.
"$KC" start 3 >/dev/null
"$KC" start 2 >/dev/null
meta="$("$KC" logdir controller)/__cluster_metadata-0"
for f in "$meta"/*.log; do
  "$KC" dump-log --cluster-metadata-decoder --files "$f" || fail "DumpLogSegments failed on $f"
done > "$SCRATCH/metadata-dump.txt"
# Per returning broker, from Kafka's records alone: the partitions whose ELR held it just
# before its last RegisterBrokerRecord, and those the records of that batch took it out of.
python3 - "$SCRATCH/metadata-dump.txt" 3 2 > "$SCRATCH/returns.json" <<'PY' || fail "the metadata log does not show the returns"
import json, sys
batches = []
for line in open(sys.argv[1]):
    if line.startswith("baseOffset:"):
        batches.append([])
    elif line.startswith("| offset:") and " payload: " in line:
        batches[-1].append(json.loads(line.split(" payload: ", 1)[1]))
def registration_batches(broker):
    return [i for i, b in enumerate(batches)
            if any(r["type"] == "REGISTER_BROKER_RECORD" and r["data"]["brokerId"] == broker for r in b)]
out = {}
for broker in map(int, sys.argv[2:]):
    regs = registration_batches(broker)
    assert len(regs) >= 2, f"broker {broker} registered {len(regs)} time(s), not again after its stop"
    names, elr, ret = {}, {}, regs[-1]
    for b in batches[:ret]:
        for r in b:
            d = r["data"]
            if r["type"] == "TOPIC_RECORD":
                names[d["topicId"]] = d["name"]
            elif r["type"] in ("PARTITION_RECORD", "PARTITION_CHANGE_RECORD") and "eligibleLeaderReplicas" in d:
                elr[(d["topicId"], d["partitionId"])] = d["eligibleLeaderReplicas"] or []
    assert names, "no TOPIC_RECORD before the return"
    left = []
    for r in batches[ret]:
        d = r["data"]
        if r["type"] == "PARTITION_CHANGE_RECORD" and "eligibleLeaderReplicas" in d:
            tp = (d["topicId"], d["partitionId"])
            if broker in elr.get(tp, []) and broker not in (d["eligibleLeaderReplicas"] or []):
                left.append(f"{names[tp[0]]} {tp[1]} {broker}")
    out[broker] = {"in_elr_before": sorted(f"{names[t]} {p}" for (t, p), e in elr.items() if broker in e),
                   "left": sorted(left)}
json.dump(out, sys.stdout)
PY
# judge_return BROKER FORECAST: Kafka's and kepoch's "topic partition broker" lines.
judge_return() {
  jq -r --arg b "$1" '.[$b].left[]' "$SCRATCH/returns.json" > "$SCRATCH/return-$1-kafka.txt"
  jq -r --argjson b "$1" '.partitions[] | select(.leaves_elr_on_return | index($b)) |
      "\(.topic) \(.partition) \($b)"' "$2" | sort > "$SCRATCH/return-$1-kepoch.txt"
  diff "$SCRATCH/return-$1-kepoch.txt" "$SCRATCH/return-$1-kafka.txt" ||
    fail "broker $1's return: the ELRs Kafka took it out of differ from leaves_elr_on_return (< kepoch, > Kafka)"
  echo "ok: step 3: broker $1 was in $(jq --arg b "$1" '.[$b].in_elr_before | length' "$SCRATCH/returns.json") ELRs and left $(grep -c . "$SCRATCH/return-$1-kafka.txt") on its return, as forecast"
}
judge_return 3 "$SCRATCH/forecast.json"
judge_return 2 "$SCRATCH/step1-forecast.json"
if [[ $elr_on == true ]]; then
  # Both answers must be about brokers that were in an ELR, or neither side is tested: the
  # killed one must have left some, the cleanly stopped one stayed in some.
  [[ -s $SCRATCH/return-3-kafka.txt ]] || fail "scenario broken: broker 3 left no ELR on its return"
  [[ $(jq '.["2"].in_elr_before | length' "$SCRATCH/returns.json") -ge 1 ]] ||
    fail "scenario broken: broker 2 was in no ELR when it returned"
fi
echo "PASS"
