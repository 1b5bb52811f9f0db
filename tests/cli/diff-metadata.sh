#!/usr/bin/env bash
# `diff --metadata`: each replica's leader-epoch cache held against the epochs the
# controller issued (run A: the lc-0 replicas of leader-changes and the controller's
# metadata log, same cluster run). They agree; a cache edited to hold epoch 5 (issued
# without a leader at the final shutdown) and epoch 7 (never issued) is a finding, exit 1.
. "$(dirname "$0")/common.sh"
LC="$DATA/leader-changes"

expect_exit 0 "$KEPOCH" diff -o json --metadata "$DATA/metadata" "$LC"/broker-{1,2,3}/lc-0
[[ $(json "$SCRATCH/out" "[(i['epoch'], i['leader'], i['metadata_offset']) for i in d['controller_epochs']['issued']]") == \
   "[(0, 1, 38), (1, 2, 66), (2, 1, 135), (3, 2, 159), (4, 1, 267), (5, -1, 633)]" ]] || fail "issued epochs"
[[ $(json "$SCRATCH/out" "d['controller_epochs']['findings']") == "[]" ]] || fail "findings on agreeing caches"

for n in 1 2 3; do mkdir -p "$SCRATCH/b$n"; cp -r "$LC/broker-$n/lc-0" "$SCRATCH/b$n/"; done
printf '0\n6\n0 0\n1 3\n2 6\n3 9\n4 12\n7 17\n' > "$SCRATCH/b2/lc-0/leader-epoch-checkpoint"
expect_exit 1 "$KEPOCH" diff -o json --metadata "$DATA/metadata/__cluster_metadata-0" "$SCRATCH"/b{1,2,3}/lc-0
[[ $(json "$SCRATCH/out" "[f['message'] for f in d['controller_epochs']['findings']]") == \
   "['epoch 7 (from offset 17) was never issued by the controller (last issued: 5)']" ]] ||
  fail "finding for the edited cache"
expect_exit 3 "$KEPOCH" diff --metadata "$SCRATCH/none" "$LC"/broker-{1,2}/lc-0
