# Sourced by every real-Kafka scenario: the CLI prelude, plus a KRaft cluster from
# tests/cluster/kafka-cluster that is always torn down, and whose broker logs are shown
# when the scenario fails.
. "$KEPOCH_SOURCE_DIR/tests/cli/common.sh"
KC="$KEPOCH_SOURCE_DIR/tests/cluster/kafka-cluster"
export KEPOCH_CLUSTER_DIR="$SCRATCH/cluster"

cluster_up() {
  eval "$("$KC" up)"
  trap 'cluster_cleanup $?' EXIT
}

# On failure: show the brokers' log tails and keep the cluster's data for diagnosis.
cluster_cleanup() {
  local rc=$1 n
  if [[ $rc -ne 0 ]]; then
    for n in 1 2 3; do
      echo "--- broker $n log (tail)"
      tail -n 40 "$KEPOCH_CLUSTER_DIR/broker-$n/server.log" 2>/dev/null || true
    done
    "$KC" down >/dev/null 2>&1 || true
    echo "FAILED: $0 (scratch and cluster data kept: $SCRATCH)" >&2
  else
    "$KC" down --purge >/dev/null 2>&1 || true
    rm -rf "$SCRATCH"
  fi
}

# wait_new_leader T P OLD: prints the new leader once it differs from OLD (30 s at most).
wait_new_leader() {
  local leader i
  for ((i = 0; i < 150; i++)); do
    leader="$("$KC" leader "$1" "$2" 2>/dev/null || true)"
    if [[ -n "$leader" && "$leader" != "$3" && "$leader" != -1 && "$leader" != none ]]; then
      echo "$leader"
      return 0
    fi
    sleep 0.2
  done
  fail "no new leader for $1-$2 after 30 s (was $3)"
}

# Epoch history of a partition dir as Kafka's own DumpLogSegments prints it:
# "epoch first_offset" for every change of partitionLeaderEpoch between batches.
kafka_batch_epochs() {
  local dir="$1" f
  for f in "$dir"/*.log; do
    "$KC" dump-log --files "$f" 2>/dev/null
  done | awk '/baseOffset:/ {
      for (i = 1; i <= NF; i++) { if ($i == "baseOffset:") b = $(i+1); if ($i == "partitionLeaderEpoch:") e = $(i+1) }
      if (!seen++ || e != last) { print e, b; last = e }
    }'
}

# expect_refused NAME TEXT MAX_SECONDS COMMAND...: the command exits 4 (cluster error) with one
# line on stderr containing TEXT, within MAX_SECONDS; LAST_MS is how long it took.
expect_refused() {
  local name=$1 text=$2 max=$3 t0 t1
  shift 3
  t0=$(date +%s%N)
  expect_exit 4 "$@"
  t1=$(date +%s%N)
  expect_in "$SCRATCH/err" "$text"
  [[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || { cat "$SCRATCH/err"; fail "$name: not one line"; }
  LAST_MS=$(( (t1 - t0) / 1000000 ))
  (( LAST_MS <= max * 1000 )) || fail "$name: took $LAST_MS ms (limit $max s)"
  echo "refused: $name in $LAST_MS ms: $(cat "$SCRATCH/err")"
}
