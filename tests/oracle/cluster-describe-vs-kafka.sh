#!/usr/bin/env bash
# Kafka as the judge of `kepoch cluster describe` and `kepoch cluster audit` on a real KRaft
# cluster (PLAINTEXT and SASL_PLAINTEXT listeners):
#   - leader, replicas and ISR equal kafka-topics --describe (TopicCommand), partition by
#     partition, after a leader change;
#   - the leader epoch equals the last epoch of the leader's leader-epoch-checkpoint, and the
#     high watermark Kafka's ListOffsets latest;
#   - each replica's log end offset equals the high watermark on a quiet partition, and the
#     end of its own files for a replica left behind without a leader;
#   - the report flags list the partitions kafka-topics' own flags list
#     (--under-replicated-partitions, --unavailable-partitions, --under-min-isr-partitions)
#     after a broker is killed, and exit 1 when they list any;
#   - audit flags a topic created with each risky setting, with its reason, and passes a
#     sound one;
#   - SASL PLAIN through a Java client properties file and SCRAM through -X give the same
#     answer; a wrong password, a closed port and an unroutable address are one line and
#     exit 4 within the timeout, and the password is never printed.
. "$(dirname "$0")/common.sh"
export KEPOCH_SASL=1
cluster_up
B="$KEPOCH_BOOTSTRAP"

"$KC" create-topic orders --assignment 1:2:3,2:3:1,3:1:2 >/dev/null
"$KC" create-topic solo --assignment 3 >/dev/null
"$KC" create-topic sound --assignment 1:2:3 --config min.insync.replicas=2 >/dev/null
"$KC" create-topic rf2 --assignment 1:2 --config min.insync.replicas=1 >/dev/null
"$KC" create-topic minisr1 --assignment 1:2:3 --config min.insync.replicas=1 >/dev/null
"$KC" create-topic minisr3 --assignment 1:2:3 --config min.insync.replicas=3 >/dev/null
"$KC" create-topic unclean --assignment 1:2:3 --config min.insync.replicas=2 \
  --config unclean.leader.election.enable=true >/dev/null
"$KC" produce orders 60 --acks all >/dev/null

# --- audit: each risky setting flagged with its reason, the sound topic passes
# audit_risks TOPIC EXPECTED_EXIT: the sorted risk names in $RISKS. Not inside $(...): a
# failed expect_exit there would only end the subshell, and the sound topic's "" would pass.
# The audit must have seen the topic and its partition, or no finding means nothing.
RISKS="$SCRATCH/risks"
audit_risks() {
  expect_exit "$2" "$KEPOCH" cluster audit -b "$B" --topic "$1" -o json
  jq -e '.summary.topics == 1 and .summary.partitions >= 1' "$SCRATCH/out" >/dev/null ||
    fail "audit of $1 did not see the topic: $(jq -c .summary "$SCRATCH/out")"
  jq -r '.findings[] | .risk' "$SCRATCH/out" | sort -u | paste -sd, - > "$RISKS"
}
audit_risks sound 0; [[ $(cat "$RISKS") == "" ]] || fail "audit flagged the sound topic: $(cat "$SCRATCH/out")"
audit_risks rf2 1; [[ $(cat "$RISKS") == "replication_factor_below_3" ]] || fail "rf2: $(cat "$SCRATCH/out")"
audit_risks minisr1 1; [[ $(cat "$RISKS") == "min_isr_one" ]] || fail "minisr1: $(cat "$SCRATCH/out")"
audit_risks minisr3 1; [[ $(cat "$RISKS") == "at_min_isr,min_isr_not_below_rf" ]] || fail "minisr3: $(cat "$SCRATCH/out")"
audit_risks unclean 1; [[ $(cat "$RISKS") == "unclean_election_enabled" ]] || fail "unclean: $(cat "$SCRATCH/out")"
expect_in "$SCRATCH/out" "unclean.leader.election.enable=true"
echo "ok: audit flags rf2, minisr1, minisr3, unclean and passes sound"

# --- a leader change: broker 1 (leader of orders-0) killed and back
"$KC" kill 1
new=$(wait_new_leader orders 0 1)
"$KC" produce orders 30 --acks all --start 60 >/dev/null
"$KC" start 1 >/dev/null
"$KC" wait-isr orders 0 1,2,3 >/dev/null

# kafka-topics --describe [FLAGS] as "topic partition leader replicas isr" lines.
kafka_topics() {
  "$KC" tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$B" --describe "$@" 2>/dev/null |
    awk '/Partition:/ { for (i = 1; i <= NF; i++) { if ($i == "Topic:") t = $(i+1); if ($i == "Partition:") p = $(i+1);
           if ($i == "Leader:") l = $(i+1); if ($i == "Replicas:") r = $(i+1); if ($i == "Isr:") s = $(i+1) }
           if (l == "none") l = "null"; print t, p, l, r, s }' | sort
}
kepoch_partitions() {  # from $SCRATCH/out (describe -o json)
  jq -r '.partitions[] | "\(.topic) \(.partition) \(.leader) \(.replicas | join(",")) \(.isr | join(","))"' \
    "$SCRATCH/out" | sort
}
expect_exit 0 "$KEPOCH" cluster describe -b "$B" -o json
kepoch_partitions > "$SCRATCH/kepoch.txt"
kafka_topics > "$SCRATCH/kafka.txt"
diff "$SCRATCH/kafka.txt" "$SCRATCH/kepoch.txt" || fail "describe differs from kafka-topics --describe"
grep -q "^orders 0 $new " "$SCRATCH/kepoch.txt" || fail "orders-0 is not led by $new"
cp "$SCRATCH/out" "$SCRATCH/describe.json"
echo "ok: leader, replicas and ISR equal kafka-topics for $(wc -l < "$SCRATCH/kafka.txt") partitions"

# Leader epoch = the leader's leader-epoch-checkpoint's last epoch; HW = ListOffsets latest.
for p in 0 1 2; do
  read -r leader epoch hw < <(jq -r --argjson p "$p" \
    '.partitions[] | select(.topic == "orders" and .partition == $p) | "\(.leader) \(.leader_epoch) \(.high_watermark)"' \
    "$SCRATCH/describe.json")
  cp_epoch=""
  cp="$("$KC" logdir "$leader")/orders-$p/leader-epoch-checkpoint"
  for _ in $(seq 50); do  # the checkpoint is written asynchronously after the election
    # Read as text, not by kepoch: line 1 version, line 2 count, then "epoch start_offset".
    cp_epoch=$(awk 'NR > 2 && NF == 2 { e = $1 } END { print e }' "$cp" 2>/dev/null || true)
    [[ $cp_epoch == "$epoch" ]] && break
    sleep 0.2
  done
  [[ $cp_epoch == "$epoch" ]] || fail "orders-$p: describe epoch $epoch, leader $leader's checkpoint $cp_epoch"
  [[ $hw == "$("$KC" end-offset orders "$p")" ]] || fail "orders-$p: high watermark $hw, Kafka $("$KC" end-offset orders "$p")"
done
[[ $(jq -r '.partitions[] | select(.topic == "orders" and .partition == 0) | .leader_epoch' "$SCRATCH/describe.json") -ge 1 ]] ||
  fail "orders-0's epoch did not move after the leader change"
echo "ok: leader epochs equal the leaders' leader-epoch-checkpoint, high watermarks equal ListOffsets"

# Replica sizes: every replica of every listed partition, from its broker's DescribeLogDirs.
[[ $(jq '[.replica_logs[] | select(.topic == "orders")] | length' "$SCRATCH/describe.json") == 9 ]] ||
  fail "replica_logs should list 9 replicas of orders"
size=$(jq -r '.replica_logs[] | select(.topic == "orders" and .partition == 0 and .broker == 2) | .size_bytes' "$SCRATCH/describe.json")
disk=$(cat "$("$KC" logdir 2)"/orders-0/*.log | wc -c)
[[ $size == "$disk" ]] || fail "orders-0 on broker 2: size $size, its .log files $disk bytes"
echo "ok: replica sizes equal the replicas' .log bytes on disk"

# --- the report flags, against kafka-topics' own, with broker 3 down
"$KC" kill 3
"$KC" wait-isr orders 0 1,2 >/dev/null
"$KC" wait-isr sound 0 1,2 >/dev/null
for flag in --under-replicated-partitions --unavailable-partitions --under-min-isr-partitions --at-min-isr-partitions; do
  kafka_topics "$flag" | awk '{print $1, $2}' > "$SCRATCH/kafka-flag.txt"
  rc=0
  "$KEPOCH" cluster describe -b "$B" -o json "$flag" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
  jq -r '.partitions[] | "\(.topic) \(.partition)"' "$SCRATCH/out" | sort > "$SCRATCH/kepoch-flag.txt"
  diff "$SCRATCH/kafka-flag.txt" "$SCRATCH/kepoch-flag.txt" || fail "$flag differs from kafka-topics"
  want=0
  [[ -s $SCRATCH/kafka-flag.txt ]] && want=1
  [[ $rc == "$want" ]] || fail "$flag: exit $rc, expected $want"
  # The opening sentence is the verdict the exit status gives, with kafka-topics' count.
  text=$(jq -r .summary.text "$SCRATCH/out")
  n=$(wc -l < "$SCRATCH/kafka-flag.txt")
  if ((n == 0)); then [[ $text == "No partition is "* ]]; else [[ $text == "$n of "* ]]; fi ||
    fail "$flag: the sentence '$text' does not say kafka-topics' $n partitions"
  echo "ok: $flag lists what kafka-topics lists ($(wc -l < "$SCRATCH/kafka-flag.txt") partitions)"
done
grep -q "^solo 0$" <(kafka_topics --unavailable-partitions | awk '{print $1, $2}') ||
  fail "kafka-topics does not list solo-0 as unavailable (scenario broken)"
# At min ISR is a warning (listed, exit 0): one more loss would block acks=all writes.
expect_exit 0 "$KEPOCH" cluster audit -b "$B" --topic sound -o json
# (Leadership may also sit off the preferred replica since broker 1 restarted: a warning too.)
[[ $(jq '.summary.risks' "$SCRATCH/out") == 0 ]] && jq -e 'any(.findings[]; .risk == "at_min_isr" and .severity == "warning")' "$SCRATCH/out" >/dev/null ||
  fail "sound with broker 3 down should only be at min ISR: $(cat "$SCRATCH/out")"
expect_exit 1 "$KEPOCH" cluster audit -b "$B" --topic solo -o json
[[ $(jq -r '.findings[] | .risk' "$SCRATCH/out" | sort -u | paste -sd,) == "min_isr_not_below_rf,replication_factor_below_3,unavailable" ]] ||
  fail "solo with its broker down: $(cat "$SCRATCH/out")"
"$KC" start 3 >/dev/null

# --- each replica's own log end offset (ListOffsets with the debugging replica id, which a
#     replica answers from its local log, leader or not): every replica of a quiet partition
#     at its high watermark; a replica left behind with no leader to fetch from at the end
#     of its own files, below the last high watermark.
"$KC" wait-isr orders 0 1,2,3 >/dev/null
expect_exit 0 "$KEPOCH" cluster describe -b "$B" --topic orders -o json
hw=$(jq -r '.partitions[] | select(.partition == 0) | .high_watermark' "$SCRATCH/out")
[[ $(jq -c '[.replica_logs[] | select(.partition == 0) | .log_end_offset]' "$SCRATCH/out") == "[$hw,$hw,$hw]" ]] ||
  fail "orders-0: every replica's log end offset should be the high watermark $hw: $(jq -c .replica_logs "$SCRATCH/out")"
# The current profile (`kepoch profile use`) reaches the cluster when no -b, --cluster or
# KEPOCH_CLUSTER is given, and the report names it and what chose it; with -b, no profile.
mkdir -p "$SCRATCH/xdg/kepoch"
printf 'clusters:\n  here:\n    bootstrap: "%s"\n' "$B" >"$SCRATCH/xdg/kepoch/config.yaml"
XDG_CONFIG_HOME="$SCRATCH/xdg" expect_exit 0 "$KEPOCH" profile use here
XDG_CONFIG_HOME="$SCRATCH/xdg" KEPOCH_CLUSTER= expect_exit 0 "$KEPOCH" cluster describe --topic orders -o json
[[ $(jq -c '.profile' "$SCRATCH/out") == "{\"name\":\"here\",\"chosen_by\":\"current_profile ($SCRATCH/xdg/kepoch/config.yaml:1)\"}" ]] ||
  fail "the current profile: $(jq -c '.profile' "$SCRATCH/out")"
[[ $(jq -r '.partitions[] | select(.partition == 0) | .high_watermark' "$SCRATCH/out") == "$hw" ]] ||
  fail "the current profile's cluster is not the one -b reaches"
XDG_CONFIG_HOME="$SCRATCH/xdg" expect_exit 0 "$KEPOCH" cluster describe -b "$B" --topic orders -o json
[[ $(jq -c '.profile' "$SCRATCH/out") == null ]] || fail "-b used a profile: $(jq -c '.profile' "$SCRATCH/out")"
"$KC" create-topic stuck --assignment 1:3 >/dev/null
"$KC" produce stuck 10 --acks all --prefix a >/dev/null
"$KC" wait-isr stuck 0 1,3 >/dev/null
"$KC" stop 3
"$KC" wait-isr stuck 0 1 >/dev/null
"$KC" produce stuck 7 --acks 1 --prefix b --start 10 >/dev/null
"$KC" kill 1
"$KC" cont 3 >/dev/null
"$KC" wait-brokers 2,3 >/dev/null
"$KC" wait-leader stuck 0 -1 >/dev/null
rc=0
"$KEPOCH" cluster describe -b "$B" --topic stuck -o json > "$SCRATCH/stuck.json" || rc=$?
[[ $rc -le 1 ]] || fail "describe of the leaderless partition exited $rc"
ours=$(jq -r '.replica_logs[] | select(.broker == 3) | .log_end_offset' "$SCRATCH/stuck.json")
snapshot 3 stuck "$SCRATCH/stuck-copy"
disk=$("$KEPOCH" partition inspect "$SCRATCH/stuck-copy/stuck-0" -o json | jq -r '.[0].log_end_offset')
echo "stuck-0 on broker 3: kepoch says log end offset $ours, its files end at $disk (the leader had 17)"
[[ $ours == "$disk" && $disk == 10 ]] || fail "stuck-0 on broker 3: log end offset $ours, its files $disk, expected 10"
"$KC" start 1 >/dev/null
echo "ok: each replica's log end offset, from its own broker"

# --- SASL: PLAIN through a Java client properties file, SCRAM-SHA-512 through -X
SB="${KEPOCH_SASL_BOOTSTRAP%%,*}"
cat > "$SCRATCH/admin.properties" <<EOF
bootstrap.servers=$SB
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="$KEPOCH_SASL_USER" password="$KEPOCH_SASL_PASSWORD";
EOF
"$KC" wait-isr orders 0 1,2,3 >/dev/null
expect_exit 0 "$KEPOCH" cluster describe --command-config "$SCRATCH/admin.properties" --topic orders -o json
jq -c '[.partitions[] | {topic, partition, leader, replicas}]' "$SCRATCH/out" > "$SCRATCH/sasl.json"
expect_exit 0 "$KEPOCH" cluster describe -b "$B" --topic orders -o json
jq -c '[.partitions[] | {topic, partition, leader, replicas}]' "$SCRATCH/out" > "$SCRATCH/plain.json"
diff "$SCRATCH/plain.json" "$SCRATCH/sasl.json" || fail "SASL PLAIN answer differs from PLAINTEXT"
expect_exit 0 "$KEPOCH" cluster describe -b "$SB" -X security.protocol=SASL_PLAINTEXT \
  -X sasl.mechanisms=SCRAM-SHA-512 -X sasl.username="$KEPOCH_SASL_USER" \
  -X sasl.password="$KEPOCH_SASL_PASSWORD" --topic orders -o json -v
jq -c '[.partitions[] | {topic, partition, leader, replicas}]' "$SCRATCH/out" | diff "$SCRATCH/plain.json" - ||
  fail "SCRAM-SHA-512 answer differs"
expect_in "$SCRATCH/err" "sasl.password=***"
if grep -qF "$KEPOCH_SASL_PASSWORD" "$SCRATCH/out" "$SCRATCH/err"; then fail "-v printed the password"; fi
echo "ok: SASL PLAIN (--command-config) and SCRAM-SHA-512 (-X) see what PLAINTEXT sees"

# --- failures: one line, exit 4, within the timeout, no secret
refused() {  # refused NAME TEXT MAX_SECONDS DESCRIBE-ARGS...
  local name=$1 text=$2 max=$3
  shift 3
  expect_refused "$name" "$text" "$max" "$KEPOCH" cluster describe "$@"
}
refused "wrong password" "invalid credentials" 12 -b "$SB" -X security.protocol=SASL_PLAINTEXT \
  -X sasl.mechanisms=SCRAM-SHA-256 -X sasl.username="$KEPOCH_SASL_USER" -X sasl.password=not-the-password
if grep -qF "not-the-password" "$SCRATCH/out" "$SCRATCH/err"; then fail "the wrong password was printed"; fi
refused "closed port" "127.0.0.1:1" 12 -b 127.0.0.1:1
refused "unroutable address" "10.255.255.1:9092" 5 -b 10.255.255.1:9092 --timeout 2
refused "plaintext client on the SASL port" "$SB" 12 -b "$SB" --timeout 3
echo "PASS"
