#!/usr/bin/env bash
# The remote index cache's start-up, as logdir scan forecasts it, against RemoteIndexCache.init
# on a real broker (KEPOCH_TIERED=1: remote storage on, so the broker builds its
# RemoteLogManager and with it the cache of its first log dir).
#
#   1. broker 1 stopped (SIGTERM); its remote-log-index-cache gets a .deleted file (an entry
#      being deleted), one index of an entry whose other two are missing (incomplete), and
#      lost.txt, a name Uuid.fromString refuses. logdir scan: lost.txt an error,
#      startup-fatal, with Kafka's exception text; the .deleted entry and the incomplete one
#      deleted at start-up.
#   2. broker 1 started: it does not start, and its server.log holds the very exception text
#      kepoch printed.
#   3. lost.txt moved out (what kepoch says to do): the broker starts, and the files kepoch
#      said init deletes are gone, exactly those.
. "$(dirname "$0")/common.sh"
export KEPOCH_TIERED=1
cluster_up
B1="$("$KC" logdir 1)"
CACHE="$B1/remote-log-index-cache"
[[ -d $CACHE ]] || fail "broker 1 has no remote-log-index-cache with remote storage on"
"$KC" term 1 >/dev/null

: > "$CACHE/5_AAAAAAAAAAAAAAAAAAAAAQ.index.deleted"
: > "$CACHE/9_AAAAAAAAAAAAAAAAAAAAAg.timeindex"
: > "$CACHE/lost.txt"
expect_exit 1 "$KEPOCH" logdir scan -o json "$B1"
cp "$SCRATCH/out" "$SCRATCH/scan.json"
python3 - "$SCRATCH/scan.json" > "$SCRATCH/expected-message" <<'PY' || fail "logdir scan's forecast of the cache's start-up is not the one expected"
import json, sys
d = json.load(open(sys.argv[1]))["log_dirs"][0]
c = d["remote_index_cache"]
by = {e["start_offset"]: e for e in c["entries"]}
assert by[5]["state"] == "marked_for_deletion" and by[5]["at_startup"] == "deleted", by[5]
assert by[9]["state"] == "incomplete" and by[9]["at_startup"] == "deleted", by[9]
fatal = [p for p in d["problems"] if p["file"].endswith("/lost.txt")]
assert len(fatal) == 1 and fatal[0]["kafka_outcome"] == "startup-fatal", d["problems"]
# Kafka's own words, as kepoch quotes them: "java.lang.IllegalArgumentException: <text>. "
msg = fatal[0]["message"]
start = msg.index("java.lang.IllegalArgumentException: ") + len("java.lang.IllegalArgumentException: ")
print(msg[start:msg.index(". RemoteIndexCache.init")])
PY
want="$(cat "$SCRATCH/expected-message")"
echo "kepoch: lost.txt stops the broker: $want"

if KEPOCH_UP_TIMEOUT=60 "$KC" start 1 >/dev/null 2>&1; then
  fail "broker 1 started with lost.txt in its remote index cache; kepoch said it does not"
fi
grep -qF -- "$want" "$KEPOCH_CLUSTER_DIR/broker-1/server.log" ||
  fail "broker 1's log lacks the exception kepoch quoted: $want"
grep -q "RemoteIndexCache.init" "$KEPOCH_CLUSTER_DIR/broker-1/server.log" ||
  fail "broker 1 failed, but not in RemoteIndexCache.init"
echo "Kafka: broker 1 does not start (RemoteIndexCache.init: $want)"

mv "$CACHE/lost.txt" "$SCRATCH/"
"$KC" start 1 >/dev/null || fail "broker 1 does not start once lost.txt is moved out"
left=$(cd "$CACHE" && ls)
[[ -z $left ]] || fail "after the start-up the cache holds: $left (kepoch said init deletes both)"
echo "Kafka: started; the .deleted and the incomplete entry deleted at start-up, as kepoch said"
