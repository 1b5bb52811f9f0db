#!/usr/bin/env bash
# A live Kafka leader as the judge of ClusterClient::leader_batches (consumer Fetch, batch
# headers only), through the test program tests/cluster/kepoch_fetch_probe: on a partition
# with segments over 1 MiB, two leader epochs, zstd batches and transaction markers, the
# batches a Fetch from offset 0 returns are the leader's own segment files' batches below
# its high watermark (`kepoch segment dump` of those files): same base and last offsets,
# record counts, CRCs and partition leader epochs, over 1 MiB rounds that Kafka's
# LogSegment.read cuts mid-batch and that cross segments. By topic id (Fetch v13+) and by
# topic name (v12) alike; a range from inside a batch starts with that batch; a range past
# the high watermark is incomplete with a note; an offset past the log end and a wrong
# leader epoch are one-line errors naming Kafka's error code.
. "$(dirname "$0")/common.sh"
: "${KEPOCH_FETCH_PROBE:?set by ctest}"
PROBE="$KEPOCH_FETCH_PROBE"
cluster_up
B="$KEPOCH_BOOTSTRAP"

# ~4 MB in epoch 0 in 2 MiB segments (a 1 MiB Fetch answer ends inside a segment, so
# inside a batch), then a leader change, zstd batches and a committed transaction in epoch
# 1, then single-record batches: 24007 records and one commit marker.
long=$(printf 'p%.0s' {1..90})
"$KC" create-topic f --assignment 1:2:3 --config segment.bytes=2097152 >/dev/null
"$KC" produce f 20000 --acks all --prefix "$long" >/dev/null
"$KC" kill 1
leader=$(wait_new_leader f 0 1)
"$KC" produce f 4000 --acks all --codec zstd --start 20000 >/dev/null
"$KC" produce f 3 --transactional --start 24000 >/dev/null
"$KC" start 1 >/dev/null
"$KC" wait-isr f 0 1,2,3 >/dev/null
"$KC" produce f 4 --acks all --sync --start 24003 >/dev/null
[[ $("$KC" leader f 0) == "$leader" ]] || fail "the leader of f-0 moved"

# The high watermark once every replica has it all (acks=all, ISR 1,2,3): the log end.
hw=""
for _ in $(seq 50); do
  hw=$("$KC" end-offset f 0)
  [[ $hw -ge 24008 ]] && break
  sleep 0.2
done
[[ $hw -ge 24008 ]] || fail "high watermark $hw: expected at least 24008"

# Kafka's side: the leader's segment files, every batch below the high watermark.
segments=("$("$KC" logdir "$leader")"/f-0/*.log)
[[ ${#segments[@]} -ge 2 ]] || fail "expected several segments, found ${#segments[@]}"
[[ $(stat -c %s "${segments[0]}") -gt 1048576 ]] || fail "the first segment is not over 1 MiB"
expect_exit 0 "$KEPOCH" segment dump -o json "${segments[@]}"
python3 - "$SCRATCH/out" "$hw" > "$SCRATCH/leader.txt" <<'PY'
import json, sys
hw = int(sys.argv[2])
for seg in json.load(open(sys.argv[1])):
    for b in seg["batches"]:
        if b["base_offset"] < hw:
            print("batch", b["base_offset"], b["last_offset"], b["count"], b["crc"],
                  b["partition_leader_epoch"])
PY
n=$(wc -l < "$SCRATCH/leader.txt")
[[ $n -ge 100 ]] || fail "expected at least 100 batches in the leader's log, found $n"
[[ $(awk '{print $6}' "$SCRATCH/leader.txt" | sort -u | paste -sd,) == "0,1" ]] ||
  fail "expected batches of leader epochs 0 and 1"

# --- from offset 0 to the high watermark, by topic id and by name
for how in id name; do
  args=()
  [[ $how == name ]] && args=(--no-topic-id)
  expect_exit 0 "$PROBE" -b "$B" --topic f --from 0 --until "$hw" "${args[@]}"
  grep '^batch ' "$SCRATCH/out" > "$SCRATCH/fetched.txt"
  diff "$SCRATCH/leader.txt" "$SCRATCH/fetched.txt" > "$SCRATCH/diff.txt" || {
    head -n 20 "$SCRATCH/diff.txt"
    fail "by topic $how: the fetched batches differ from the leader's segments"
  }
  expect_in "$SCRATCH/out" "complete true"
  expect_in "$SCRATCH/out" "high_watermark $hw"
  expect_in "$SCRATCH/out" "log_start_offset 0"
  expect_not_in "$SCRATCH/out" "note "
  epoch=$(awk '/^leader / {print $4}' "$SCRATCH/out")
  echo "ok: by topic $how, $n batches equal the leader's segments (high watermark $hw)"
done

# --- from inside a batch: that batch first; the range's last batch starts before its end
read -r base last < <(awk 'NR == 40 {print $2, $3}' "$SCRATCH/leader.txt")
(( last > base )) || fail "batch 40 holds one record; pick another"
until_offset=$(awk 'NR == 60 {print $2}' "$SCRATCH/leader.txt")
expect_exit 0 "$PROBE" -b "$B" --topic f --from $((base + 1)) --until "$until_offset"
grep '^batch ' "$SCRATCH/out" > "$SCRATCH/fetched.txt"
sed -n '40,59p' "$SCRATCH/leader.txt" | diff - "$SCRATCH/fetched.txt" ||
  fail "from $((base + 1)) until $until_offset: not batches 40 to 59 of the leader's log"
expect_in "$SCRATCH/out" "complete true"
echo "ok: from offset $((base + 1)) (inside batch $base-$last) until $until_offset: 20 batches"

# --- past the high watermark: everything below it, then a note
expect_exit 0 "$PROBE" -b "$B" --topic f --from 24000
grep '^batch ' "$SCRATCH/out" > "$SCRATCH/fetched.txt"
awk '$3 >= 24000' "$SCRATCH/leader.txt" | diff - "$SCRATCH/fetched.txt" ||
  fail "from 24000: not the leader's last batches"
expect_in "$SCRATCH/out" "complete false"
expect_in "$SCRATCH/out" "a consumer reads only below the high watermark $hw"
echo "ok: a range past the high watermark is incomplete: $(grep '^note ' "$SCRATCH/out")"

# --- Kafka's refusals, one line each, naming its error code
expect_exit 4 "$PROBE" -b "$B" --topic f --from $((hw + 1000))
expect_in "$SCRATCH/err" "OFFSET_OUT_OF_RANGE"
[[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || fail "not one line: $(cat "$SCRATCH/err")"
echo "refused: $(cat "$SCRATCH/err")"

# The leader epoch the cluster's view gives (1, after the leader change), one more and one
# less: Kafka's Partition.checkCurrentLeaderEpoch.
expect_exit 4 "$PROBE" -b "$B" --topic f --from 0 --leader-epoch $((epoch + 1))
expect_in "$SCRATCH/err" "UNKNOWN_LEADER_EPOCH"
echo "refused: $(cat "$SCRATCH/err")"
expect_exit 4 "$PROBE" -b "$B" --topic f --from 0 --leader-epoch $((epoch - 1))
expect_in "$SCRATCH/err" "FENCED_LEADER_EPOCH"
echo "refused: $(cat "$SCRATCH/err")"
