#!/usr/bin/env bash
# predict from `logdir snapshot` files counts removed records as consumers see them, as it
# does from the log dirs (issue 22, item 3): the snapshot keeps the transactional and control
# batches of its tail (producer id, COMMIT or ABORT marker). The follower is Kafka's
# transactions fixture (tests/data/transactions: 0-2 a committed transaction, 3 its COMMIT
# marker, 4-5 an aborted one, 6 its ABORT marker, 7-8 plain records). Its leaders are copies
# of it cut at a batch boundary (the state of a replica that fetched only that far): one
# holding 0-3, one holding 0-2. Kafka's rule (EndTransactionMarker; a read_committed consumer
# skips aborted batches, no consumer returns markers): the follower truncates to the leader's
# end and loses 7-8 as data, 4-5 as aborted records, and the markers it removes.
. "$(dirname "$0")/common.sh"

S="$SCRATCH"
mkdir -p "$S/follower" "$S/leader4" "$S/leader3"
cp -a "$DATA/transactions/tx-0" "$S/follower/"
# leaderN: the fixture's batches below offset N (the byte position of the batch at N), with
# the files that describe later offsets left out (a loader rebuilds or drops them).
cut_leader() {  # cut_leader N POSITION
  cp -a "$DATA/transactions/tx-0" "$S/leader$1/"
  truncate -s "$2" "$S/leader$1/tx-0/00000000000000000000.log"
  rm "$S/leader$1/tx-0/"*.timeindex "$S/leader$1/tx-0/"*.txnindex "$S/leader$1/tx-0/"*.snapshot
}
expect_exit 0 "$KEPOCH" segment dump -o json "$S/follower/tx-0/00000000000000000000.log"
positions=$(json "$SCRATCH/out" "' '.join('%d:%d' % (b['base_offset'], b['position']) for f in d for b in f['batches'])")
[[ $positions == "0:0 3:148 4:226 6:341 7:419" ]] || fail "the fixture's batches moved: $positions"
cut_leader 4 226
cut_leader 3 148
# Each replica's high watermark at its log end (replication-offset-checkpoint, version 0):
# every removed record was acknowledged, so a lost one is a committed loss (exit 1).
printf '0\n1\ntx 0 9\n' >"$S/follower/replication-offset-checkpoint"
printf '0\n1\ntx 0 4\n' >"$S/leader4/replication-offset-checkpoint"
printf '0\n1\ntx 0 3\n' >"$S/leader3/replication-offset-checkpoint"

for dir in follower leader4 leader3; do
  expect_exit 0 "$KEPOCH" logdir snapshot "$S/$dir" --file "$S/$dir.snap"
done

# The report with the replicas' names set aside: from the dirs and from the snapshots alike.
normalised() {
  python3 - "$1" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
# The leader's open transactions need its producer snapshot and batches: a log dir snapshot
# keeps neither, and says so (known false, the hanging counts null), never "none open".
t = d.pop('transactions')
if '.snap:' in sys.argv[1] or d['leader']['dir'].find('.snap:') >= 0:
    assert t['known'] is False and t['hanging_transactions'] is None, t
# ... and the verdict's sentence on them differs accordingly (a transaction that may hang
# from the dirs; markers removed, open transactions unknown, from the snapshots).
d['summary'] = re.sub(r' [^.]*(?:may hang|will hang)[^.]*\.', '', d['summary'])
text = json.dumps(d, sort_keys=True, indent=1)
text = re.sub(r'[^"\s]*?(follower|leader\d)(?:/tx-0|\.snap:tx-0)', r'\1', text)
print(re.sub(r' {2,}', ' ', text))
PY
}

check() {  # check LEADER "lost aborted control removed"
  local leader=$1 want=$2 got
  expect_exit 1 "$KEPOCH" predict -o json --leader "$S/$leader/tx-0" "$S/follower/tx-0"
  normalised "$SCRATCH/out" >"$S/$leader-dirs.json"
  got=$(json "$SCRATCH/out" "' '.join(str(d['replicas'][0][k]) for k in ('lost_records', 'lost_aborted_records', 'lost_control_records', 'removed_records'))")
  [[ $got == "$want" ]] || fail "$leader, from the dirs: (lost aborted control removed) $got, expected $want"
  expect_exit 1 "$KEPOCH" predict -o json --leader "$S/$leader.snap:tx-0" "$S/follower.snap:tx-0"
  normalised "$SCRATCH/out" >"$S/$leader-snaps.json"
  cmp -s "$S/$leader-dirs.json" "$S/$leader-snaps.json" ||
    { diff "$S/$leader-dirs.json" "$S/$leader-snaps.json" | head -30; fail "$leader: predict from the snapshots differs"; }
  echo "$leader: lost, aborted, control, removed: $got (dirs and snapshots)"
}
check leader4 "2 2 1 5"  # 4-5 aborted, 6 ABORT, 7-8 plain
check leader3 "2 2 2 6"  # and 3, the COMMIT marker: 0-2 stay, committed

# A snapshot of an older kepoch (no "transactions" field) still reads: those counts unknown.
sed 's/,"transactions":{[^}]*}//' "$S/follower.snap" >"$S/old.snap"
! grep -q '"transactions"' "$S/old.snap" || fail "the old-style snapshot still has transactions"
expect_exit 1 "$KEPOCH" predict -o json --leader "$S/leader4.snap:tx-0" "$S/old.snap:tx-0"
[[ $(json "$SCRATCH/out" "(d['replicas'][0]['lost_aborted_records'], d['replicas'][0]['lost_control_records'], d['replicas'][0]['removed_records'])") == "(None, None, 5)" ]] ||
  fail "an older snapshot: the transaction counts are unknown, the removed count is not"
