#!/usr/bin/env bash
# PENDING, not run by CTest (tests/oracle/*.sh only): its describe step passes on a real
# ZooKeeper-mode cluster, but the scenario guard after it fails: the throttled survivor still
# catches up on topic u and rejoins its ISR, so the what-if, watch and offline steps have not
# run against Kafka yet. Run by hand:
#   KEPOCH_SOURCE_DIR=$PWD KEPOCH=build/dev/apps/kepoch/kepoch \
#     flock /tmp/kepoch-kafka.lock bash tests/oracle/pending/cluster-zk-mode-vs-kafka.sh
# Kafka as the judge of kepoch on a ZooKeeper-mode cluster (Kafka 3.9.1: one ZooKeeper server
# from the jars Kafka's Maven dependencies bring, three brokers, one of them the controller):
#   describe  `cluster describe` says "ZooKeeper mode (controller N)" with N the /controller
#             znode's broker, and its leaders, replicas and ISR are kafka-topics --describe's,
#             its leader epochs the partition state znodes'; `-b` at the ZooKeeper port says
#             that it may be a ZooKeeper port;
#   step 1    `what-if --stop F` (controlled), then SIGTERM to F (not the controller): every
#             partition's leader, ISR and leader epoch in ZooKeeper (and kafka-topics' leader
#             and ISR) as forecast, with the ZooKeeper controller's epoch bumps (a follower
#             leaving the ISR bumps it too; the only ISR member leaving: leader none, + 1);
#             then the offline commands on F's log dir, clean with --strict, and `metadata
#             history` saying that such a broker keeps its metadata in ZooKeeper;
#   step 2    `what-if --stop C --kill` on the controller C, then kill -9 C: the next
#             controller's onControllerFailover, with an unclean election of the survivor S
#             (topic `u`: unclean.leader.election.enable, S kept outside the ISR by a
#             replication throttle), while `cluster watch` runs: it must label that election
#             unclean and name S as the new leader.
. "$(dirname "$0")/../common.sh"
export KEPOCH_KAFKA_VERSION=3.9.1 KEPOCH_KAFKA_MODE=zk
# One record batch per fetch: with the throttle below, S stays outside u's ISR.
export KEPOCH_EXTRA_PROPS="replica.fetch.max.bytes=1"
cluster_up
B="$KEPOCH_BOOTSTRAP"
ZK="$("$KC" zookeeper)"

C=$("$KC" zk-controller)
others=()
for b in 1 2 3; do [[ $b == "$C" ]] || others+=("$b"); done
F=${others[0]} S=${others[1]}
echo "controller $C, stopped cleanly: $F, survivor: $S"

# --- u: led by C, S outside the ISR (paused until C drops it, then throttled to 1 byte/s)
"$KC" tool kafka.admin.ConfigCommand --bootstrap-server "$B" --alter --entity-type brokers \
  --entity-name "$S" --add-config follower.replication.throttled.rate=1 >/dev/null
"$KC" create-topic u --assignment "$C:$S" --config unclean.leader.election.enable=true \
  --config "follower.replication.throttled.replicas=0:$S" >/dev/null
"$KC" stop "$S"
"$KC" wait-isr u 0 "$C" >/dev/null
# More than one fetch holds (replica.fetch.max.bytes, 1 MiB): S's first fetch after the pause
# is not throttled yet (the quota is not yet exceeded) and would catch up whole; the rest waits
# behind the 1 byte/s quota.
"$KC" produce u 120000 --acks all >/dev/null
"$KC" cont "$S"
"$KC" wait-brokers 1,2,3 >/dev/null  # registered again if its ZooKeeper session expired meanwhile
"$KC" create-topic orders --assignment "$F:$C:$S,$C:$F:$S,$S:$F:$C" >/dev/null
"$KC" create-topic rf2 --assignment "$F:$S" >/dev/null
"$KC" create-topic solo --assignment "$F" >/dev/null
"$KC" produce orders 30 --acks all >/dev/null
TOPICS=(orders rf2 solo u)

# "topic partition leader isr epoch" from the partition state znodes (leader -1: none)
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
# "topic partition leader isr" from kafka-topics --describe (leader -1: none)
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

# --- describe: mode, and the partitions as Kafka and ZooKeeper have them
expect_exit 0 "$KEPOCH" cluster describe -b "$B" --exclude-internal -o json
cp "$SCRATCH/out" "$SCRATCH/describe.json"
[[ $(jq -r .mode "$SCRATCH/describe.json") == "ZooKeeper mode (controller $C)" ]] ||
  fail "describe mode: $(jq -c '[.mode, .controller_id]' "$SCRATCH/describe.json") (controller $C)"
[[ $(jq -r .controller_id "$SCRATCH/describe.json") == "$C" ]] || fail "describe controller_id"
expect_exit 0 "$KEPOCH" cluster describe -b "$B" --exclude-internal --no-sizes
expect_in "$SCRATCH/out" "ZooKeeper mode (controller $C)"
jq -r '.partitions[] | "\(.topic) \(.partition) \(.leader // -1) \(.isr | join(",")) \(.replicas | join(","))"' \
  "$SCRATCH/describe.json" | sort > "$SCRATCH/describe-kepoch.txt"
kafka_topics > "$SCRATCH/describe-kafka.txt"
diff "$SCRATCH/describe-kepoch.txt" "$SCRATCH/describe-kafka.txt" ||
  fail "describe: leaders, ISR or replicas differ from kafka-topics (< kepoch, > Kafka)"
jq -r '.partitions[] | "\(.topic) \(.partition) \(.leader // -1) \(.isr | join(",")) \(.leader_epoch)"' \
  "$SCRATCH/describe.json" | sort > "$SCRATCH/describe-epochs.txt"
zk_states "$SCRATCH/describe.json" > "$SCRATCH/describe-zk.txt"
diff "$SCRATCH/describe-epochs.txt" "$SCRATCH/describe-zk.txt" ||
  fail "describe: leader epochs differ from ZooKeeper's partition states (< kepoch, > ZooKeeper)"
echo "ok: describe: $(wc -l < "$SCRATCH/describe-kafka.txt") partitions as kafka-topics and ZooKeeper have them"
[[ $(grep -c '^u 0 ' "$SCRATCH/describe-kafka.txt") == 1 && $(awk '$1 == "u" {print $4}' "$SCRATCH/describe-kafka.txt") == "$C" ]] ||
  fail "scenario broken: u's ISR is not just $C: $(grep '^u ' "$SCRATCH/describe-kafka.txt")"

# --- -b at the ZooKeeper port
expect_exit 4 "$KEPOCH" cluster describe -b "$ZK" --timeout 5
expect_in "$SCRATCH/err" "it may be a ZooKeeper port"
echo "ok: -b $ZK: $(cat "$SCRATCH/err")"

# judge STEP FORECAST: ZooKeeper's partition states, then kafka-topics, equal the forecast
# (read again for up to 40 s while the controller works).
judge() {
  local step=$1 forecast=$2 deadline=$((SECONDS + 40))
  jq -r '.partitions[] | "\(.topic) \(.partition) \(.leader_after // -1) \(.isr_after | join(",")) \(.leader_epoch_after)"' \
    "$forecast" | sort > "$SCRATCH/$step-want.txt"
  while :; do
    zk_states "$forecast" > "$SCRATCH/$step-zk.txt"
    diff -q "$SCRATCH/$step-want.txt" "$SCRATCH/$step-zk.txt" >/dev/null && break
    ((SECONDS < deadline)) || {
      diff "$SCRATCH/$step-want.txt" "$SCRATCH/$step-zk.txt" || true
      fail "$step: ZooKeeper's partition states differ from the forecast (< kepoch, > ZooKeeper)"
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
      fail "$step: kafka-topics differs from the forecast (< kepoch, > Kafka)"
    }
    sleep 1
  done
  echo "ok: $step: leader, ISR and leader epoch as forecast for $(wc -l < "$SCRATCH/$step-want.txt") partitions"
}

# --- step 1: controlled shutdown of F
expect_exit 1 "$KEPOCH" cluster what-if -b "$B" --exclude-internal --stop "$F" -o json
cp "$SCRATCH/out" "$SCRATCH/step1.json"
jq -e --arg m "ZooKeeper mode (controller $C)" '.assumed.controller_mode == $m and
    (.assumed.controller | startswith("the ZooKeeper-mode controller"))' "$SCRATCH/step1.json" >/dev/null ||
  fail "step 1 assumptions: $(jq -c .assumed "$SCRATCH/step1.json")"
# A follower leaving the ISR bumps the epoch in ZooKeeper mode (orders-1: led by C).
jq -e --argjson f "$F" '.partitions[] | select(.topic == "orders" and .partition == 1) |
    .leader_changed == false and .leader_epoch_after == .leader_epoch_before + 1 and
    (.isr_after | index($f) | not)' "$SCRATCH/step1.json" >/dev/null ||
  fail "orders-1: $(jq -c '.partitions[] | select(.topic == "orders" and .partition == 1)' "$SCRATCH/step1.json")"
jq -e '.partitions[] | select(.topic == "solo") | .unavailable and .leader_epoch_after == .leader_epoch_before + 1' \
  "$SCRATCH/step1.json" >/dev/null || fail "solo-0: $(jq -c '.partitions[] | select(.topic == "solo")' "$SCRATCH/step1.json")"
"$KC" term "$F"
judge step1 "$SCRATCH/step1.json"

# --- the offline commands on F's log dir (stopped cleanly)
LD="$("$KC" logdir "$F")"
expect_exit 0 "$KEPOCH" checkpoint validate --strict "$LD"
expect_in "$SCRATCH/err" "meta.properties: info: version 0 with broker.id: the format a ZooKeeper-mode broker writes"
for t in orders rf2 solo; do
  expect_exit 0 "$KEPOCH" checkpoint validate --strict "$LD/$t-0"
  expect_exit 0 "$KEPOCH" partition verify "$LD/$t-0"
done
expect_exit 0 "$KEPOCH" logdir scan "$LD"
expect_exit 3 "$KEPOCH" metadata history "$LD"
expect_in "$SCRATCH/err" "this is a ZooKeeper-mode broker's log dir (meta.properties version 0, broker.id $F), and such a broker keeps its metadata in ZooKeeper"
echo "ok: broker $F's log dir: checkpoint validate --strict, partition verify and logdir scan clean; metadata history: $(cat "$SCRATCH/err")"

# --- step 2: the controller C killed, `cluster watch` running from the survivor
expect_exit 1 "$KEPOCH" cluster what-if -b "$("$KC" live-bootstrap)" --exclude-internal --stop "$C" --kill -o json
cp "$SCRATCH/out" "$SCRATCH/step2.json"
jq -e '.partitions[] | select(.topic == "u") | .unclean_election and .outcome == "unclean_election"' \
  "$SCRATCH/step2.json" >/dev/null || fail "u-0: $(jq -c '.partitions[] | select(.topic == "u")' "$SCRATCH/step2.json")"
jq -e '.assumed.controller | contains("onControllerFailover")' "$SCRATCH/step2.json" >/dev/null ||
  fail "step 2 assumptions: $(jq -c .assumed "$SCRATCH/step2.json")"
SPORT=$(grep "^BROKER_PORT_$S=" "$KEPOCH_CLUSTER_DIR/cluster.env" | cut -d= -f2)
"$KEPOCH" cluster watch -b "127.0.0.1:$SPORT" --exclude-internal --interval 0.5 --duration 90 -o json \
  > "$SCRATCH/watch.jsonl" 2> "$SCRATCH/watch.err" &
watch_pid=$!
sleep 2
"$KC" kill "$C"
judge step2 "$SCRATCH/step2.json"
kill -INT "$watch_pid" 2>/dev/null || true  # ended by --duration otherwise
wait "$watch_pid" || fail "cluster watch: $(cat "$SCRATCH/watch.err")"
# u-0's new leader, as the watch saw it: S, and unclean (S was never in u's ISR).
jq -se --argjson s "$S" '[.[] | select(.topic == "u" and (.event == "leader_change" or .event == "partition_online"))]
    | length >= 1 and (last | .new_leader == $s and .unclean_election == true)' "$SCRATCH/watch.jsonl" >/dev/null || {
  cat "$SCRATCH/watch.jsonl"
  fail "cluster watch: u-0's election not reported as unclean to broker $S"
}
jq -r 'select(.topic == "u") | .description' "$SCRATCH/watch.jsonl" | sed 's/^/  watch: /'
# Every partition's last leader event names the leader Kafka has.
jq -sr '[.[] | select(.event == "leader_change" or .event == "partition_online" or .event == "partition_offline")]
    | group_by(.topic, .partition)[] | last | "\(.topic) \(.partition) \(.new_leader // -1)"' \
  "$SCRATCH/watch.jsonl" | sort > "$SCRATCH/watch-leaders.txt"
awk '{print $1"-"$2, $3}' "$SCRATCH/watch-leaders.txt" | sort > "$SCRATCH/watch-w.txt"
awk '{print $1"-"$2, $3}' "$SCRATCH/step2-kafka.txt" | sort > "$SCRATCH/watch-k.txt"
join "$SCRATCH/watch-w.txt" "$SCRATCH/watch-k.txt" | awk '$2 != $3 {bad = 1; print} END {exit bad}' ||
  fail "cluster watch named other leaders than kafka-topics"
echo "ok: cluster watch: $(wc -l < "$SCRATCH/watch-leaders.txt") partitions' new leaders as Kafka has them, u-0 unclean"
echo "PASS"
