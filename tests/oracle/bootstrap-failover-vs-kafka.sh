#!/usr/bin/env bash
# Bootstrap failover with a real cluster (ClusterConnector::race): a bootstrap list whose
# first broker accepts connections and never answers (a listener that never reads; then a
# SIGSTOPped Kafka broker, which the kernel still accepts for) and whose second is a live
# broker answers within 3 s under the default 10 s timeout, names the broker that answered
# (metadata_from) and warns about the one passed over.
. "$(dirname "$0")/common.sh"
cluster_up
IFS=',' read -ra BROKERS <<< "$KEPOCH_BOOTSTRAP"

# describe_within NAME MAX_MS BOOTSTRAP ANSWERING PASSED_OVER
describe_within() {
  local name=$1 max=$2 bootstrap=$3 answering=$4 passed=$5 t0 t1 ms
  t0=$(date +%s%N)
  expect_exit 0 "$KEPOCH" cluster describe -b "$bootstrap" --no-sizes -o json
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000000 ))
  (( ms < max )) || fail "$name: took $ms ms (limit $max ms)"
  [[ "$(json "$SCRATCH/out" 'd["metadata_from"]')" == "$answering" ]] ||
    fail "$name: metadata_from is $(json "$SCRATCH/out" 'd["metadata_from"]'), not $answering"
  json "$SCRATCH/out" '"\n".join(p["message"] for p in d["problems"])' > "$SCRATCH/problems"
  expect_in "$SCRATCH/problems" "Metadata from $answering, passing over $passed: no answer within"
  [[ "$(json "$SCRATCH/out" 'len(d["brokers"])')" == 3 ]] || fail "$name: not 3 brokers"
  echo "ok: $name in $ms ms"
}

# Two listeners that never accept: the kernel completes the handshake, nothing ever answers.
python3 -c '
import socket, time
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0)); s.listen(64)
print(" ".join(str(s.getsockname()[1]) for s in ss), flush=True); time.sleep(300)' > "$SCRATCH/silent-port" &
SILENT_PID=$!
trap 'kill $SILENT_PID 2>/dev/null || true; cluster_cleanup $?' EXIT
for _ in $(seq 50); do [[ -s "$SCRATCH/silent-port" ]] && break; sleep 0.1; done
read -r p1 p2 < "$SCRATCH/silent-port"
SILENT="127.0.0.1:$p1" SILENT2="127.0.0.1:$p2"

describe_within "silent listener first" 3000 "$SILENT,${BROKERS[0]}" "${BROKERS[0]}" "$SILENT"

# Without the live broker: every broker tried, each named, exit 4 at the timeout.
expect_refused "only silent listeners" "reading from $SILENT timed out after 2000 ms" 4 \
  "$KEPOCH" cluster describe -b "$SILENT,$SILENT2" --timeout 2
expect_in "$SCRATCH/err" "reading from $SILENT2 timed out after 2000 ms"
expect_in "$SCRATCH/err" "(2 of 2 bootstrap brokers tried within 2000 ms, none ready)"

# --- last, as it may get broker 3 fenced for a moment: a SIGSTOPped Kafka broker first.
"$KC" stop 3 >/dev/null
describe_within "SIGSTOPped broker first" 3000 "${BROKERS[2]},${BROKERS[1]}" "${BROKERS[1]}" "${BROKERS[2]}"
"$KC" cont 3 >/dev/null

# --- mid-command: cluster watch keeps its Metadata channel on broker 1, which is SIGSTOPped
# after the first polls. Raced, the next poll moves to another broker after one attempt delay
# and the watch keeps polling every 0.5 s; waiting on the hung channel would spend the whole
# 10 s timeout on one poll, past the 6 s the watch runs.
"$KEPOCH" cluster watch -b "${BROKERS[0]}" --interval 0.5 --duration 6 -o json \
  >"$SCRATCH/watch.out" 2>"$SCRATCH/watch.err" &
WATCH=$!
sleep 1.5
"$KC" stop 1 >/dev/null
wait $WATCH || { cat "$SCRATCH/watch.err"; fail "cluster watch failed when broker 1 stopped"; }
"$KC" cont 1 >/dev/null
polls=$(grep -o '"polls": *[0-9]*' "$SCRATCH/watch.out" | grep -o '[0-9]*$')
(( polls >= 7 )) || { cat "$SCRATCH/watch.out"; fail "cluster watch polled $polls times in 6 s: stuck on the stopped broker"; }
echo "ok: cluster watch went on polling ($polls polls) past a SIGSTOPped broker"
