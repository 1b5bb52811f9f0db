#!/usr/bin/env bash
# Kafka as the oracle for `checkpoint validate`:
# 1. every checkpoint file of three real brokers, after several leader changes and a
#    graceful shutdown, is valid with no problem at all, and each replica's
#    leader-epoch-checkpoint says what the batches in its own segments say (per Kafka's
#    DumpLogSegments), apart from data-less trailing entries at the log end;
# 2. a checkpoint kepoch calls startup-fatal stops a real broker from starting, and one it
#    calls dir-offline makes Kafka fail the log dir.
. "$(dirname "$0")/common.sh"
cluster_up

"$KC" create-topic orders --assignment 1:2:3 >/dev/null
"$KC" produce orders 20 --acks all >/dev/null
first=$("$KC" leader orders 0)
"$KC" kill "$first" >/dev/null
second=$(wait_new_leader orders 0 "$first")
"$KC" produce orders 20 --acks all --start 20 >/dev/null
"$KC" start "$first" >/dev/null
"$KC" wait-isr orders 0 "1,2,3" 60 >/dev/null
"$KC" elect-preferred orders 0 >/dev/null
"$KC" produce orders 20 --acks all --start 40 >/dev/null
"$KC" wait-isr orders 0 "1,2,3" 60 >/dev/null
echo "leaders: $first, then $second, then $("$KC" leader orders 0) (preferred election)"
"$KC" down --graceful >/dev/null

for b in 1 2 3; do
  logdir="$("$KC" logdir "$b")"
  expect_exit 0 "$KEPOCH" checkpoint validate --strict -o json "$logdir"
  cp "$SCRATCH/out" "$SCRATCH/broker-$b.json"
  n=$(json "$SCRATCH/out" "len(d)")
  bad=$(json "$SCRATCH/out" "[f['file'] for f in d if not f['valid'] or f['problems'] or f['kafka_outcome'] != 'ok']")
  [[ "$bad" == "[]" ]] || fail "broker $b: not clean: $bad"
  kinds=$(json "$SCRATCH/out" "sorted({f['kind'] for f in d})")
  [[ "$kinds" == "['leader-epoch', 'meta-properties', 'offsets', 'partition-metadata']" ]] ||
    fail "broker $b: expected every kind of checkpoint, got $kinds"
  echo "broker $b: $n checkpoint files, all valid"
  # Every partition dir Kafka wrote verifies clean: batches, indexes, snapshots, nothing to recover.
  expect_exit 0 "$KEPOCH" partition verify -o json "$logdir"/*-[0-9]*/
  [[ $(json "$SCRATCH/out" "[(f['dir'], f['findings']) for f in d if f['error_count'] or f['warning_count'] or f['recovery_full']]") == "[]" ]] ||
    fail "broker $b: partition verify is not clean: $(json "$SCRATCH/out" "[(f['dir'], f['findings']) for f in d if f['findings']]")"
  echo "broker $b: $(json "$SCRATCH/out" "len(d)") partition dirs verify clean"

  # The epoch history: checkpoint (kepoch) versus batches (Kafka's DumpLogSegments).
  kafka_batch_epochs "$logdir/orders-0" > "$SCRATCH/kafka-epochs-$b"
  json "$SCRATCH/broker-$b.json" "'\n'.join(f\"{e['epoch']} {e['start_offset']}\" for f in d if f['file'].endswith('orders-0/leader-epoch-checkpoint') for e in f['entries'] if e['start_offset'] < 60)" \
    > "$SCRATCH/kepoch-epochs-$b"
  trailing=$(json "$SCRATCH/broker-$b.json" "[e['start_offset'] for f in d if f['file'].endswith('orders-0/leader-epoch-checkpoint') for e in f['entries'] if e['start_offset'] >= 60]")
  echo "broker $b: Kafka's batches say: $(tr '\n' ';' < "$SCRATCH/kafka-epochs-$b")" \
       "kepoch read: $(tr '\n' ';' < "$SCRATCH/kepoch-epochs-$b") data-less at LEO: $trailing"
  diff "$SCRATCH/kafka-epochs-$b" "$SCRATCH/kepoch-epochs-$b" || fail "broker $b: epoch history differs"
  [[ $(wc -l < "$SCRATCH/kafka-epochs-$b") -ge 3 ]] || fail "broker $b: expected at least 3 epochs"
  [[ "$trailing" =~ ^\[(60(,\ 60)*)?\]$ ]] || fail "broker $b: trailing entries not at LEO 60: $trailing"
done

# Restart a broker on a damaged checkpoint: Kafka must do what kepoch said it would.
"$KC" up >/dev/null
"$KC" term 3 >/dev/null
lec="$("$KC" logdir 3)/orders-0/leader-epoch-checkpoint"
cp "$lec" "$SCRATCH/lec.good"

# (a) a non-numeric start offset: kepoch says startup-fatal.
printf '0\n1\n0 abc\n' > "$lec"
expect_exit 1 "$KEPOCH" checkpoint validate -o json "$lec"
[[ $(json "$SCRATCH/out" "d[0]['kafka_outcome']") == startup-fatal ]] || fail "expected startup-fatal"
log3="$KEPOCH_CLUSTER_DIR/broker-3/server.log"
: > "$log3"
if KEPOCH_UP_TIMEOUT=60 "$KC" start 3 >/dev/null 2>&1; then fail "broker 3 started on a checkpoint kepoch called startup-fatal"; fi
grep -E "NumberFormatException" "$log3" | head -n 2
grep -qE "NumberFormatException: For input string: \"abc\"" "$log3" || fail "Kafka did not fail on the number"
grep -qE "Error while reading checkpoint file" "$log3" && fail "Kafka treated it as an I/O error"
echo "startup-fatal confirmed: broker 3 did not start"
"$KC" kill 3 >/dev/null 2>&1 || true

# (b) an entry with three fields: kepoch says dir-offline (IOException, log dir failure).
printf '0\n1\n0 0 0\n' > "$lec"
expect_exit 1 "$KEPOCH" checkpoint validate -o json "$lec"
[[ $(json "$SCRATCH/out" "d[0]['kafka_outcome']") == dir-offline ]] || fail "expected dir-offline"
: > "$log3"
KEPOCH_UP_TIMEOUT=60 "$KC" start 3 >/dev/null 2>&1 || true
for ((i = 0; i < 100; i++)); do grep -q "Malformed line in checkpoint file" "$log3" && break; sleep 0.3; done
grep -E "Malformed line|offline|log dir" "$log3" | head -n 4
grep -q "Error while reading checkpoint file $lec" "$log3" ||
  fail "Kafka did not report the checkpoint through its log dir failure channel"
grep -qE "NumberFormatException|IllegalArgumentException" "$log3" && fail "Kafka threw an unchecked exception"
echo "dir-offline confirmed: Kafka reported the log dir as failed"
