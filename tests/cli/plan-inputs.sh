#!/usr/bin/env bash
# `kepoch plan`: its inputs (log dirs, snapshots, standard input, replica dirs with flags),
# what it refuses (two states of one broker, states of another cluster, an --out-dir inside a
# log dir), missing brokers named, and its candidates' costs held to `predict --elect`'s (the
# same engine, whose numbers tests/cli/predict-elect.sh pins to Kafka's truncation in
# tests/data/divergence).
. "$(dirname "$0")/common.sh"

D="$DATA/divergence/before"
dirs=("$D/broker-1/d-0" "$D/broker-2/d-0" "$D/broker-3/d-0")

# --- Flags for one partition (Kafka's state there: ISR [1], broker 1 dead, 2 and 3 alive) ---
expect_exit 1 "$KEPOCH" plan -o json --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "${dirs[@]}"
cp "$SCRATCH/out" "$SCRATCH/plan.json"
# The decision first (Kafka's default, broker 2, is the best here; broker 1 starts after the
# election so that Kafka's rule cannot pick it), then the totals.
[[ $(json "$SCRATCH/plan.json" "d['summary']") == "Let Kafka elect broker 2 for d-0: it loses 3 records; start broker 1 after. 1 of 1 partition(s) "* ]] ||
  fail "summary: $(json "$SCRATCH/plan.json" "d['summary']")"
[[ $(json "$SCRATCH/plan.json" "'verdict' in d") == False ]] || fail "the sentence is 'summary' alone"
[[ $(json "$SCRATCH/plan.json" "(d['partitions'][0]['condition'], d['partitions'][0]['kafka_choice'])") == \
  "('leaderless', 2)" ]] || fail "Kafka's unclean choice is broker 2, the first alive replica"
# Each candidate's cost is predict's with that candidate leading (the most one follower loses).
for leader in 1 2 3; do
  alive=2,3
  [[ $leader == 1 ]] && alive=1,2,3  # predict --elect picks the ISR member when it is alive
  [[ $leader == 3 ]] && alive=3
  expect_exit_any() { "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || true; }
  expect_exit_any "$KEPOCH" predict -o json --elect --unclean --ids 1,2,3 --isr 1 --alive $alive "${dirs[@]}"
  [[ $(json "$SCRATCH/out" "d['election']['leader']") == "$leader" ]] || fail "predict elected another leader"
  want=$(json "$SCRATCH/out" "(max(r['lost_records'] for r in d['replicas']), sum(r['removed_records'] for r in d['replicas']))")
  got=$(json "$SCRATCH/plan.json" "[(c['lost_records'], c['removed_records']) for c in d['candidates'] if c['broker'] == $leader][0]")
  echo "candidate $leader: plan $got, predict $want"
  [[ "$got" == "$want" ]] || fail "candidate $leader: plan $got, predict $want"
done
# The ranking: fewest lost first; the plan's choice and loss are the first candidate's.
[[ $(json "$SCRATCH/plan.json" "[c['lost_records'] for c in d['candidates']] == sorted(c['lost_records'] for c in d['candidates'])") == True ]] ||
  fail "candidates not ranked by loss"
[[ $(json "$SCRATCH/plan.json" "d['partitions'][0]['chosen'] == d['candidates'][0]['broker']") == True ]] ||
  fail "the plan does not choose the first candidate"
# Table output: the verdict first.
expect_exit 1 "$KEPOCH" plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "${dirs[@]}"
opening=$(awk 'NF == 0 { exit } { printf "%s%s", (NR > 1 ? " " : ""), $0 }' "$SCRATCH/out")
[[ $opening == "$(json "$SCRATCH/plan.json" "d['summary']")" ]] ||
  fail "the table does not open with the summary: $opening"
# A broker whose state is not given is named, and its absence is never safe.
expect_exit 1 "$KEPOCH" plan -o json --ids 2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "${dirs[1]}" "${dirs[2]}"
expect_in "$SCRATCH/out" "broker 1: no state given"
[[ $(json "$SCRATCH/out" "[(b['broker'], b['state']) for b in d['brokers']]") == \
  "[(1, 'missing'), (2, 'given'), (3, 'given')]" ]] || fail "brokers: $(json "$SCRATCH/out" "d['brokers']")"

# --- Snapshots: broker 1 is tests/data/logdir (meta.properties), copies play brokers 2, 3 ---
mkdir "$SCRATCH/b2" "$SCRATCH/other"
cp -r "$DATA/logdir/." "$SCRATCH/b2/"
sed -i 's/^node.id=1$/node.id=2/' "$SCRATCH/b2/meta.properties"
cp -r "$DATA/logdir/." "$SCRATCH/other/"
sed -i 's/^node.id=1$/node.id=3/; s/^cluster.id=.*/cluster.id=AnotherClusterAAAAAAAAA/' "$SCRATCH/other/meta.properties"
"$KEPOCH" logdir snapshot --file "$SCRATCH/b1.snap" "$DATA/logdir" >/dev/null
"$KEPOCH" logdir snapshot --file "$SCRATCH/b2.snap" "$SCRATCH/b2" >/dev/null
"$KEPOCH" logdir snapshot --file "$SCRATCH/other.snap" "$SCRATCH/other" >/dev/null
cluster=$(sed -n 's/^cluster.id=//p' "$DATA/logdir/meta.properties")
[[ $(head -1 "$SCRATCH/b2.snap" | python3 -c "import json,sys; h=json.load(sys.stdin); print(h['node_id'], h['cluster_id'])") == "2 $cluster" ]] ||
  fail "the snapshot does not record its broker and cluster"
# The same snapshot twice (or two of one broker): refused.
cp "$SCRATCH/b1.snap" "$SCRATCH/b1-again.snap"
expect_exit 2 "$KEPOCH" plan --replicas 1,2 --isr 1 --alive 2 "$SCRATCH/b1.snap:t-0" "$SCRATCH/b1-again.snap:t-0"
expect_in "$SCRATCH/err" "are both broker 1's state"
expect_exit 2 "$KEPOCH" plan --replicas 1,2 --isr 1 "$SCRATCH/b1.snap" "$DATA/logdir"
expect_in "$SCRATCH/err" "are both broker 1's state"
# A snapshot of another cluster: refused, naming both.
expect_exit 2 "$KEPOCH" plan --replicas 1,3 --isr 1 "$SCRATCH/b1.snap:t-0" "$SCRATCH/other.snap:t-0"
expect_in "$SCRATCH/err" "is of cluster AnotherClusterAAAAAAAAA but $SCRATCH/b1.snap:t-0 is of cluster $cluster"
# Standard input, and the log dir itself, are states like the snapshot.
expect_exit 0 "$KEPOCH" plan -o json --replicas 1,2 --isr 1 --alive 1,2 --all -- -:t-0 "$SCRATCH/b2.snap:t-0" <"$SCRATCH/b1.snap"
[[ $(json "$SCRATCH/out" "[(b['broker'], b['source']) for b in d['brokers']]") == \
  "[(1, '-:t-0'), (2, '$SCRATCH/b2.snap:t-0')]" ]] || fail "stdin state: $(json "$SCRATCH/out" "d['brokers']")"
expect_exit 2 "$KEPOCH" plan --replicas 1,2 - - <"$SCRATCH/b1.snap"
expect_in "$SCRATCH/err" "standard input can be read once"
# Flags describe one partition: whole snapshots of several partitions need the metadata.
expect_exit 2 "$KEPOCH" plan --replicas 1,2 --isr 1 "$SCRATCH/b1.snap" "$SCRATCH/b2.snap"
expect_in "$SCRATCH/err" "--replicas describes one partition"
# Without an id (a replica dir copied without meta.properties): --ids is asked for.
expect_exit 2 "$KEPOCH" plan --replicas 1,2,3 --isr 1 "${dirs[@]}"
expect_in "$SCRATCH/err" "no broker id"
expect_exit 2 "$KEPOCH" plan --replicas 1,2,3
expect_in "$SCRATCH/err" "give the brokers' states"

# --- --out-dir: the commands, written; never inside a log dir ---
# The ISR member (broker 4) is stopped and its state not given: it may hold committed records
# no given state holds (an ISR member holds every committed one), so it is waited for, and
# started first (Kafka elects it cleanly), never after an unclean election; no "loses nothing".
expect_exit 1 "$KEPOCH" plan -o json --ids 1,2,3 --replicas 1,2,3,4 --isr 4 --alive 1,2,3 "${dirs[@]}"
[[ $(json "$SCRATCH/out" "(d['partitions'][0]['recommendation'], d['partitions'][0]['chosen'], d['start_order'][0])") == \
  "('wait_for_broker', 4, {'broker': 4, 'phase': 'first', 'partitions': ['d-0']})" ]] ||
  fail "a missing ISR member is waited for: $(json "$SCRATCH/out" "(d['partitions'], d['start_order'])")"
expect_not_in "$SCRATCH/out" "loses nothing"
expect_not_in "$SCRATCH/out" "holds every committed record"
# A broker named in --gone is never shown live, whatever the metadata (here --alive) says.
expect_exit 1 "$KEPOCH" plan -o json --ids 1,2,3 --replicas 1,2,3 --isr 3 --alive 1,2,3 --gone 3 "${dirs[@]}"
[[ $(json "$SCRATCH/out" "[(b['broker'], b['live'], b['gone']) for b in d['brokers'] if b['broker'] == 3]") == \
  "[(3, False, True)]" ]] || fail "a --gone broker shown live: $(json "$SCRATCH/out" "d['brokers']")"
# Broker 4's disks are lost (--gone 4): Kafka's unclean rule would pick broker 1 (the first
# live replica), which loses 4 records; broker 2 loses 3. Counts are lower bounds (broker 4's
# records are not known), and a committed loss cannot be ruled out.
args=(--ids 1,2,3 --replicas 1,2,3,4 --isr 4 --alive 1,2,3 --gone 4)
expect_exit 1 "$KEPOCH" plan "${args[@]}" --out-dir "$SCRATCH/cmds" "${dirs[@]}"
for f in steps.sh reorder.jsh reassignment.json elect-now.json elect-after-start.json; do
  [[ -s $SCRATCH/cmds/$f ]] || fail "--out-dir: $f not written"
done
sh -n "$SCRATCH/cmds/steps.sh" || fail "steps.sh is not valid sh"
expect_exit 1 "$KEPOCH" plan -o json "${args[@]}" "${dirs[@]}"
[[ $(json "$SCRATCH/out" "(d['partitions'][0]['recommendation'], d['partitions'][0]['chosen'], d['partitions'][0]['kafka_choice'])") == \
  "('elect_unclean', 2, 1)" ]] || fail "plan: $(json "$SCRATCH/out" "d['partitions']")"
expect_in "$SCRATCH/out" "broker 4: no state given"
[[ $(json "$SCRATCH/cmds/reassignment.json" "d['partitions']") == \
  "[{'topic': 'd', 'partition': 0, 'replicas': [2, 1, 3, 4]}]" ]] || fail "reassignment.json"
[[ $(json "$SCRATCH/cmds/elect-now.json" "d['partitions']") == "[{'topic': 'd', 'partition': 0}]" ]] ||
  fail "elect-now.json"
expect_in "$SCRATCH/cmds/reorder.jsh" 'new TopicPartition("d", 0), Optional.of(new NewPartitionReassignment(List.of(2, 1, 3, 4)))'
expect_in "$SCRATCH/cmds/steps.sh" "--election-type UNCLEAN --path-to-json-file elect-now.json"
expect_exit 2 "$KEPOCH" plan --replicas 1,2 --isr 1 --out-dir "$SCRATCH/b2/plan" "$SCRATCH/b1.snap:t-0" "$SCRATCH/b2/t-0"
expect_in "$SCRATCH/err" "is inside the log dir"
[[ ! -e "$SCRATCH/b2/plan" ]] || fail "--out-dir created a dir inside a log dir"
echo "ok"
