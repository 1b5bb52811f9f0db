#!/usr/bin/env bash
# What a principal may not see is unknown, never absent and never safe. A KRaft cluster with
# the StandardAuthorizer (KEPOCH_ACL=1: super users ANONYMOUS, on the PLAINTEXT listener the
# harness uses, and kepoch) and a second SASL principal, oncall, that may describe the
# cluster, topics, groups and transactional ids, except: topic `hidden`, group
# `secret-group` and transactional id `kepoch-orders-s` (DENY Describe). With oncall's
# SCRAM login, the live commands an on-call engineer runs must name what was withheld
# (not authorized / unknown), never call it absent or safe, never exit 0 on a safe verdict
# when it mattered, and never print the password. Kafka's own tools as oncall are the
# judge of what is withheld: kafka-topics.sh never describes topic hidden, kafka-consumer-groups.sh
# shows open-group's offsets on orders only (hidden's are left out without a word: kepoch names
# topic hidden as withheld and open-group's offsets there unknown), fails on secret-group,
# kafka-transactions.sh list leaves kepoch-orders-s out, and find-hanging calls that live
# transaction hanging (kepoch: unknown).
. "$(dirname "$0")/common.sh"
export KEPOCH_SASL=1 KEPOCH_ACL=1
cluster_up
: "${KEPOCH_ACL_USER:?KEPOCH_ACL=1 at up}" "${KEPOCH_ACL_PASSWORD:?}"
SASL1="${KEPOCH_SASL_BOOTSTRAP%%,*}"
ONCALL=(-b "$SASL1" -X security.protocol=SASL_PLAINTEXT -X sasl.mechanism=SCRAM-SHA-256
  -X sasl.username="$KEPOCH_ACL_USER" -X sasl.password="$KEPOCH_ACL_PASSWORD")
cat > "$SCRATCH/oncall.properties" <<EOT
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-256
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="$KEPOCH_ACL_USER" password="$KEPOCH_ACL_PASSWORD";
EOT

# ACLs, set by the super user ANONYMOUS (PLAINTEXT). A DENY wins over the wildcard ALLOW.
acl() { "$KC" tool org.apache.kafka.tools.AclCommand --bootstrap-server "$KEPOCH_BOOTSTRAP" "$@" >/dev/null; }
P="User:$KEPOCH_ACL_USER"
acl --add --allow-principal "$P" --operation Describe --cluster
acl --add --allow-principal "$P" --operation Describe --operation Read --topic '*'
acl --add --allow-principal "$P" --operation Describe --operation Read --group '*'
acl --add --allow-principal "$P" --operation Describe --transactional-id '*'
acl --add --deny-principal "$P" --operation Describe --topic hidden
acl --add --deny-principal "$P" --operation Describe --group secret-group
acl --add --deny-principal "$P" --operation Describe --transactional-id kepoch-orders-s

# Topics orders and hidden (replicas 1,2,3); groups open-group and secret-group with
# committed offsets on both; open transactions kepoch-orders-v (visible) and
# kepoch-orders-s (its id withheld) on orders-0.
"$KC" create-topic orders --assignment 1:2:3 >/dev/null
"$KC" create-topic hidden --assignment 1:2:3 >/dev/null
"$KC" produce orders 5 >/dev/null
"$KC" produce hidden 5 >/dev/null
cg() { "$KC" tool org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "$@"; }
for g in open-group secret-group; do
  for t in orders hidden; do
    cg --bootstrap-server "$KEPOCH_BOOTSTRAP" --group "$g" --topic "$t" --reset-offsets --to-offset 2 --execute >/dev/null
  done
done
"$KC" produce orders 2 --open --prefix v >/dev/null
"$KC" produce orders 2 --open --prefix s >/dev/null

run() { # run NAME KEPOCH-ARGS...: kepoch as oncall; output in $SCRATCH/NAME.{out,err,rc}
  local name=$1 rc=0; shift
  "$KEPOCH" "$@" >"$SCRATCH/$name.out" 2>"$SCRATCH/$name.err" || rc=$?
  echo "$rc" >"$SCRATCH/$name.rc"
  echo "===== kepoch ${*:1:2} as oncall (exit $rc)"
  head -n 30 "$SCRATCH/$name.out"; cat "$SCRATCH/$name.err"
  ! grep -qF -- "$KEPOCH_ACL_PASSWORD" "$SCRATCH/$name.out" "$SCRATCH/$name.err" || fail "$name printed the password"
}
kafka_as_oncall() { # kafka_as_oncall NAME CLASS ARGS...: Kafka's own tool as oncall, in $SCRATCH/NAME.kafka
  local name=$1; shift
  "$KC" tool "$@" 2>&1 | grep -v '^SLF4J' > "$SCRATCH/$name.kafka" || true
  echo "===== Kafka as oncall: ${*:1:1} ${*: -3}"; cat "$SCRATCH/$name.kafka"
}
bs=(--bootstrap-server "$SASL1" --command-config "$SCRATCH/oncall.properties")
kafka_as_oncall ktxlist org.apache.kafka.tools.TransactionsCommand "${bs[@]}" list
kafka_as_oncall khanging org.apache.kafka.tools.TransactionsCommand "${bs[@]}" find-hanging --broker-id 1 --max-transaction-timeout 0

# First, while the open transactions are (their coordinator aborts them after their 10 s
# timeout): cluster hanging.
# cluster hanging: kepoch-orders-s's transaction is open and its coordinator will end it, but
# oncall cannot see its transactional id (ListTransactions leaves it out): unknown, not
# hanging, and no abort command for it; kepoch-orders-v is judged (not hanging).
run hanging cluster hanging "${ONCALL[@]}" --max-transaction-timeout 0 -o json
[[ $(cat "$SCRATCH/hanging.rc") == 1 ]] || fail "hanging: exit $(cat "$SCRATCH/hanging.rc") with a transactional id withheld"
python3 - "$SCRATCH/hanging.out" <<'PY2' || fail "hanging: the withheld transactional id is not unknown"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["transactions"]
assert len(rows) == 2, rows
seen = [r for r in rows if r["transactional_id"] == "kepoch-orders-v"]
hidden = [r for r in rows if r["transactional_id"] is None]
assert len(seen) == 1 and seen[0]["hanging"] is False, rows
assert len(hidden) == 1 and hidden[0]["hanging"] is None, rows
assert "may not Describe" in hidden[0]["reason"], hidden[0]
assert d["hanging_transactions"] == 0 and d["unknown"] == 1, d
assert d["abort_commands"] == [], d["abort_commands"]
assert [h["topic"] for h in d["hidden_topics"]] == ["hidden"], d["hidden_topics"]
assert any("topic hidden is withheld" in w for w in d["warnings"]), d["warnings"]
PY2
# Kafka's own tools as oncall: `list` leaves kepoch-orders-s out without a word, and
# find-hanging calls that live transaction (the same producer id) hanging.
grep -qF kepoch-orders-v "$SCRATCH/ktxlist.kafka" || fail "kafka-transactions.sh list does not show kepoch-orders-v"
! grep -qF kepoch-orders-s "$SCRATCH/ktxlist.kafka" || fail "kafka-transactions.sh list shows kepoch-orders-s: the ACL did not apply"
hidden_pid=$(json "$SCRATCH/hanging.out" "[r['producer_id'] for r in d['transactions'] if r['transactional_id'] is None][0]")
grep -qE "^orders[[:space:]]+0[[:space:]]+$hidden_pid[[:space:]]" "$SCRATCH/khanging.kafka" ||
  fail "find-hanging as oncall does not list producer id $hidden_pid (kepoch's unknown row)"
echo "ok: find-hanging calls producer id $hidden_pid hanging; kepoch: unknown (its transactional id is withheld)"

kafka_as_oncall kgroups org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "${bs[@]}" --describe --all-groups
# cluster describe: a listing (exit 0 without report flags). The topic oncall may not
# describe is not in it (Metadata leaves it out without a word); kepoch names it as withheld
# (the brokers hold its logs: DescribeLogDirs; by name: TOPIC_AUTHORIZATION_FAILED).
run describe cluster describe "${ONCALL[@]}" -o json
[[ $(cat "$SCRATCH/describe.rc") == 0 ]] || fail "describe: exit $(cat "$SCRATCH/describe.rc")"
python3 - "$SCRATCH/describe.out" <<'PY2' || fail "describe: the withheld topic is not named"
import json, sys
d = json.load(open(sys.argv[1]))
assert {p["topic"] for p in d["partitions"]} >= {"orders"}, d["partitions"]
assert "hidden" not in {p["topic"] for p in d["partitions"]}, d["partitions"]
assert [h["topic"] for h in d["hidden_topics"]] == ["hidden"], d["hidden_topics"]
assert "TOPIC_AUTHORIZATION_FAILED" in d["hidden_topics"][0]["reason"], d["hidden_topics"]
assert d["hidden_topics_ruled_out"] is True, d
assert any("topic hidden is withheld" in p["message"] for p in d["problems"]), d["problems"]
PY2
# cluster groups: secret-group is listed (ListGroups: oncall may describe the cluster) but
# its offsets are withheld: named, not complete, exit 1.
run groups cluster groups "${ONCALL[@]}" -o json
[[ $(cat "$SCRATCH/groups.rc") == 1 ]] || fail "groups: exit $(cat "$SCRATCH/groups.rc") with secret-group's offsets withheld"
python3 - "$SCRATCH/groups.out" <<'PY2' || fail "groups: secret-group's withheld offsets are not said plainly"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False, d
assert any("secret-group" in w and "GROUP_AUTHORIZATION_FAILED" in w for w in d["warnings"]), d["warnings"]
assert not any(o["group"] == "secret-group" for o in d["offsets"]), d["offsets"]
PY2
grep -qF 'secret-group' "$SCRATCH/kgroups.kafka" || fail "kafka-consumer-groups.sh no longer names secret-group (its failure changed?)"


# kafka-topics.sh --describe as oncall: hidden is never described (Kafka 4.4's fails the
# whole describe with "Topic authorization failed").
kafka_as_oncall ktopics org.apache.kafka.tools.TopicCommand "${bs[@]}" --describe
! grep -qE '^Topic: hidden' "$SCRATCH/ktopics.kafka" || fail "kafka-topics.sh describes hidden as oncall: the ACL did not apply"
# With a report flag, "none matches" is a verdict: hidden's partitions may be the ones it
# selects (exit 1); narrowed to orders, nothing is withheld (exit 0).
run describe_urp cluster describe "${ONCALL[@]}" --under-replicated-partitions -o json
[[ $(cat "$SCRATCH/describe_urp.rc") == 1 ]] || fail "describe --under-replicated-partitions: exit $(cat "$SCRATCH/describe_urp.rc") with topic hidden withheld"
run describe_urp_orders cluster describe "${ONCALL[@]}" --topic orders --under-replicated-partitions -o json
[[ $(cat "$SCRATCH/describe_urp_orders.rc") == 0 ]] || fail "describe --topic orders --under-replicated-partitions: exit $(cat "$SCRATCH/describe_urp_orders.rc")"
json "$SCRATCH/describe_urp_orders.out" "d['hidden_topics'] == [] and d['hidden_topics_ruled_out']" | grep -qx True ||
  fail "describe --topic orders: hidden_topics not empty"

# open-group committed offsets on orders and hidden; OffsetFetch (every partition) leaves
# hidden's out without a word, and kafka-consumer-groups.sh --describe shows orders only.
# kepoch: hidden named, open-group's offsets unknown there, exit 1 even for that one group.
kafka_as_oncall kopen org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "${bs[@]}" --describe --group open-group
grep -qE '^open-group[[:space:]]+orders[[:space:]]' "$SCRATCH/kopen.kafka" || fail "kafka-consumer-groups.sh does not show open-group's orders offsets"
! grep -qE '^open-group[[:space:]]+hidden[[:space:]]' "$SCRATCH/kopen.kafka" || fail "kafka-consumer-groups.sh shows open-group's hidden offsets: the ACL did not apply"
run groups_open cluster groups "${ONCALL[@]}" --group open-group -o json
[[ $(cat "$SCRATCH/groups_open.rc") == 1 ]] || fail "groups --group open-group: exit $(cat "$SCRATCH/groups_open.rc") with its offsets on hidden withheld"
python3 - "$SCRATCH/groups_open.out" <<'PY2' || fail "groups --group open-group: the withheld topic is not said plainly"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False, d
assert [h["topic"] for h in d["hidden_topics"]] == ["hidden"], d["hidden_topics"]
assert "TOPIC_AUTHORIZATION_FAILED" in d["hidden_topics"][0]["reason"], d["hidden_topics"]
g = d["groups"]
assert len(g) == 1 and g[0]["group"] == "open-group" and g[0]["error"] is None, g
assert g[0]["offsets_unknown"] and "hidden" in g[0]["offsets_unknown"], g
assert {o["topic"] for o in d["offsets"]} == {"orders"}, d["offsets"]
assert any("topic hidden is withheld" in w for w in d["warnings"]), d["warnings"]
PY2
# The same group's offsets on orders alone: nothing matching is withheld, read in full.
run groups_open_orders cluster groups "${ONCALL[@]}" --group open-group --topic orders -o json
[[ $(cat "$SCRATCH/groups_open_orders.rc") == 0 ]] || fail "groups --group open-group --topic orders: exit $(cat "$SCRATCH/groups_open_orders.rc")"
json "$SCRATCH/groups_open_orders.out" "d['complete'] and d['hidden_topics'] == [] and d['groups'][0]['offsets_unknown'] is None" | grep -qx True ||
  fail "groups --topic orders: not complete"
# The table says it too.
run groups_table cluster groups "${ONCALL[@]}" --group open-group
grep -qF 'topic hidden is withheld' "$SCRATCH/groups_table.out" "$SCRATCH/groups_table.err" || fail "groups table: the withheld topic is not named"

# cluster audit: oncall may not read the topics' configs: their risks are unknown, exit 1.
run audit cluster audit "${ONCALL[@]}" -o json
[[ $(cat "$SCRATCH/audit.rc") == 1 ]] || fail "audit: exit $(cat "$SCRATCH/audit.rc") with the configs unread"
python3 - "$SCRATCH/audit.out" <<'PY2' || fail "audit: unread configs are not a risk"
import json, sys
d = json.load(open(sys.argv[1]))
assert any(f["topic"] == "orders" and f["risk"] == "configs_unknown" for f in d["findings"]), d["findings"]
assert [h["topic"] for h in d["hidden_topics"]] == ["hidden"], d["hidden_topics"]
PY2

# cluster what-if --groups: secret-group's offsets unread: named, exit 1.
run whatif cluster what-if "${ONCALL[@]}" --stop 1 --groups -o json
[[ $(cat "$SCRATCH/whatif.rc") == 1 ]] || fail "what-if: exit $(cat "$SCRATCH/whatif.rc")"
python3 - "$SCRATCH/whatif.out" <<'PY2' || fail "what-if: secret-group's withheld offsets are not named"
import json, sys
d = json.load(open(sys.argv[1]))
assert any("secret-group" in w for w in d["group_warnings"]), d
assert [h["topic"] for h in d["hidden_topics"]] == ["hidden"], d["hidden_topics"]
PY2
grep -qF "Topic hidden is withheld from this principal" "$SCRATCH/whatif.out" || fail "what-if: the summary does not name the withheld topic"
# Narrowed to orders, nothing matching is withheld (exit 1 still: orders' min.insync.replicas
# is not read, DescribeConfigs being refused).
run whatif_orders cluster what-if "${ONCALL[@]}" --stop 1 --topic orders -o json
json "$SCRATCH/whatif_orders.out" "d['hidden_topics'] == [] and d['hidden_topics_ruled_out'] and 'withheld' not in d['summary']['text']" |
  grep -qx True || fail "what-if --topic orders: a withheld topic is named"

# Allowed every operation on the cluster, oncall is still refused topic hidden: an ACL on the
# cluster grants nothing on topics. DescribeCluster now answers every operation, as to a super
# user; kepoch still compares the log dirs and names hidden (before: "everything shown", exit
# 0). The super user ANONYMOUS (PLAINTEXT) is shown every topic: nothing withheld, exit 0.
acl --add --allow-principal "$P" --operation All --cluster
run describe_all_ops cluster describe "${ONCALL[@]}" --under-replicated-partitions -o json
[[ $(cat "$SCRATCH/describe_all_ops.rc") == 1 ]] || fail "describe as oncall with All on the cluster: exit $(cat "$SCRATCH/describe_all_ops.rc") with topic hidden withheld"
json "$SCRATCH/describe_all_ops.out" "[h['topic'] for h in d['hidden_topics']] == ['hidden'] and d['hidden_topics_ruled_out']" |
  grep -qx True || fail "describe as oncall with All on the cluster: hidden is not named"
kafka_as_oncall ktopics_all_ops_hidden org.apache.kafka.tools.TopicCommand "${bs[@]}" --describe --topic hidden
! grep -qE '^Topic: hidden' "$SCRATCH/ktopics_all_ops_hidden.kafka" || fail "kafka-topics.sh describes hidden to oncall with All on the cluster"
rc=0
"$KEPOCH" cluster describe -b "$KEPOCH_BOOTSTRAP" --under-replicated-partitions -o json >"$SCRATCH/super.out" || rc=$?
[[ $rc == 0 ]] || fail "describe as the super user: exit $rc"
json "$SCRATCH/super.out" "d['hidden_topics'] == [] and d['hidden_topics_ruled_out']" |
  grep -qx True || fail "describe as the super user: $(head -c 400 "$SCRATCH/super.out")"
"$KEPOCH" cluster describe -b "$KEPOCH_BOOTSTRAP" -o json >"$SCRATCH/super_all.out"
json "$SCRATCH/super_all.out" "{'orders', 'hidden'} <= {p['topic'] for p in d['partitions']} and d['hidden_topics'] == []" |
  grep -qx True || fail "describe as the super user does not show orders and hidden"
acl --remove --force --allow-principal "$P" --operation All --cluster
echo "ok: every cluster operation is not every topic; the super user is shown all"

# cluster predict --groups on broker 1, killed: hidden-0 is on its log dir, but oncall may
# not describe topic hidden. Unknown (unanswered), never stray ("Kafka deletes it"); exit 1.
"$KC" kill 1 >/dev/null
"$KC" wait-leader orders 0 2 60 >/dev/null 2>&1 || "$KC" wait-leader orders 0 3 60 >/dev/null
run predict cluster predict "${ONCALL[@]/$SASL1/${KEPOCH_SASL_BOOTSTRAP#*,}}" --log-dir "$("$KC" logdir 1)" --groups -o json
[[ $(cat "$SCRATCH/predict.rc") == 1 ]] || fail "predict: exit $(cat "$SCRATCH/predict.rc") with topic hidden withheld"
python3 - "$SCRATCH/predict.out" <<'PY2' || fail "predict: the withheld topic's replica is not unknown"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {(r["topic"], r["partition"]): r for r in d["partitions"]}
h = rows[("hidden", 0)]
assert h["outcome"] == "unanswered", h
assert "not described to this principal" in h["reason"] and "TOPIC_AUTHORIZATION_FAILED" in h["reason"], h
assert rows[("orders", 0)]["outcome"] == "follows", rows[("orders", 0)]
assert d["summary"]["committed_loss_possible"] is True, d["summary"]
PY2
echo "ok: every live command said what oncall could not see"
