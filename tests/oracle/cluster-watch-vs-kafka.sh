#!/usr/bin/env bash
# Kafka as the judge of `kepoch cluster watch` on a real KRaft cluster: while it runs, the
# leader of orders-0 is killed (kill -9) and later restarted. The NDJSON events must say what
# Kafka did: the broker gone, the leader change to the leader Kafka elected with the epoch
# bump Kafka reports, the ISR shrink by that broker, then the broker back and the ISR expand.
# The watch polls the killed broker first (it is its only bootstrap address), so it must
# fail over to the brokers it learned from Metadata. Ctrl-C (SIGINT) ends it with a summary
# and exit 0; --count ends it by itself.
. "$(dirname "$0")/common.sh"
cluster_up

"$KC" create-topic orders --assignment 1:2:3,2:3:1,3:1:2 >/dev/null
"$KC" produce orders 30 --acks all >/dev/null
# The leader epoch as Kafka states it: the last "Leader T-P ... starts at leader epoch N" line
# broker N's state-change logger wrote (Partition.makeLeader), waiting up to 30 s for it.
kafka_leader_epoch() {  # kafka_leader_epoch BROKER T-P
  local line i
  for ((i = 0; i < 150; i++)); do
    line=$(grep -h "Leader $2 with topic id .* starts at leader epoch" \
      "$KEPOCH_CLUSTER_DIR/broker-$1/server.log" 2>/dev/null | tail -n1 || true)
    [[ -n $line ]] && { sed -E 's/.*starts at leader epoch ([0-9]+).*/\1/' <<<"$line"; return 0; }
    sleep 0.2
  done
  fail "broker $1 never logged leadership of $2"
}
[[ $("$KC" leader orders 0) == 1 ]] || fail "orders-0 should start led by broker 1"
old_epoch=$(kafka_leader_epoch 1 orders-0)

# Only broker 1's address: the watch must find the others itself once 1 is gone.
b1="${KEPOCH_BOOTSTRAP%%,*}"
"$KEPOCH" cluster watch -b "$b1" --topic orders --interval 0.3 --duration 180 --timeout 3 -o json \
  >"$SCRATCH/events.ndjson" 2>"$SCRATCH/watch.err" &
watch_pid=$!
sleep 3
kill -0 "$watch_pid" || { cat "$SCRATCH/watch.err"; fail "watch did not start"; }

"$KC" kill 1
new=$(wait_new_leader orders 0 1)
"$KC" wait-isr orders 0 "$new,$( [[ $new == 2 ]] && echo 3 || echo 2)" >/dev/null
new_epoch=$(kafka_leader_epoch "$new" orders-0)
sleep 2
"$KC" start 1 >/dev/null
"$KC" wait-isr orders 0 1,2,3 >/dev/null
sleep 2
kill -INT "$watch_pid"
rc=0
wait "$watch_pid" || rc=$?
[[ $rc == 0 ]] || { cat "$SCRATCH/watch.err"; fail "watch exited $rc after SIGINT"; }
cat "$SCRATCH/events.ndjson"

E="$SCRATCH/events.ndjson"
# has_event FILE JQ_CONDITION [JQ ARGS...]: some line of the NDJSON file satisfies it (jq 1.6's
# -e looks only at the last input, so the lines are slurped).
has_event() { local f=$1 cond=$2; shift 2; jq -s -e "$@" "any(.[]; $cond)" "$f" >/dev/null; }
has_event "$E" '.event == "broker_gone" and .broker == 1' || fail "no broker_gone 1"
has_event "$E" '.event == "leader_change" and .topic == "orders" and .partition == 0 and .old_leader == 1
          and .new_leader == $n and .old_epoch == $o and .new_epoch == $e' \
  --argjson n "$new" --argjson o "$old_epoch" --argjson e "$new_epoch" ||
  fail "no leader_change orders-0 1 -> $new with epoch $old_epoch -> $new_epoch"
(( new_epoch == old_epoch + 1 )) || fail "Kafka's epoch went $old_epoch -> $new_epoch (expected one bump)"
has_event "$E" '.event == "isr_shrink" and .topic == "orders" and .partition == 0 and .changed == [1]' ||
  fail "no isr_shrink of orders-0 by broker 1"
has_event "$E" '.event == "broker_back" and .broker == 1' || fail "no broker_back 1"
has_event "$E" '.event == "isr_expand" and .topic == "orders" and .partition == 0 and .changed == [1]' ||
  fail "no isr_expand of orders-0 by broker 1"
# Order: gone before the leader change before back before the expand.
order=$(jq -r 'select(.event != null) | "\(.event) \(.partition // "")"' "$E" |
  grep -nE '^(broker_gone|leader_change 0|broker_back|isr_expand 0)' | cut -d: -f1 | paste -sd' ')
read -r a b c d <<<"$order"
(( a < b && b < c && c < d )) || fail "events out of order: $order"
has_event "$E" '.summary != null and .summary.interrupted == true and .summary.events >= 5' ||
  fail "no summary line with interrupted=true and the events counted"
[[ $(jq -c 'select(.summary == null)' "$E" | wc -l) == $(jq -r 'select(.summary != null) | .summary.events' "$E") ]] ||
  fail "the summary's event count differs from the lines written"
echo "ok: broker_gone, leader_change 1 -> $new (epoch $old_epoch -> $new_epoch), isr_shrink, broker_back, isr_expand"

# --count ends the watch by itself: the first event after broker 2 is killed.
"$KEPOCH" cluster watch -b "$KEPOCH_BOOTSTRAP" --interval 0.3 --count 1 --duration 120 -o json \
  >"$SCRATCH/count.ndjson" 2>"$SCRATCH/count.err" &
watch_pid=$!
sleep 2
"$KC" kill 2
rc=0
wait "$watch_pid" || rc=$?
[[ $rc == 0 ]] || { cat "$SCRATCH/count.err"; fail "watch --count exited $rc"; }
[[ $(jq -c 'select(.summary == null)' "$SCRATCH/count.ndjson" | wc -l) == 1 ]] || fail "--count 1 wrote more than one event"
has_event "$SCRATCH/count.ndjson" '.summary != null and .summary.interrupted == false and .summary.events == 1' || fail "--count summary wrong: $(cat "$SCRATCH/count.ndjson")"
echo "ok: --count 1 stops after the first event: $(head -n1 "$SCRATCH/count.ndjson")"

# Nothing answers: exit 4 within the timeout, one line.
expect_refused "watch, closed port" "127.0.0.1:1" 5 "$KEPOCH" cluster watch -b 127.0.0.1:1 --timeout 2
echo "PASS"
