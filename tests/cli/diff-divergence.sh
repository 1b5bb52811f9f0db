#!/usr/bin/env bash
# `diff` on replica dirs real Kafka left behind: before broker 1 restarted, it and the new
# leader (broker 2) hold different batches at offsets 5-7 (the seeds' "two replicas, one
# offset, different messages"); afterwards all three replicas are identical, as are the
# in-sync replicas of the leader-changes fixture.
. "$(dirname "$0")/common.sh"

B="$DATA/divergence/before"
expect_exit 1 "$KEPOCH" diff -o json "$B/broker-1/d-0" "$B/broker-2/d-0" "$B/broker-3/d-0"
[[ $(json "$SCRATCH/out" "d['reference'].endswith('broker-2/d-0')") == True ]] || fail "broker 2 holds the highest epoch"
c='d["comparisons"][0]'
[[ $(json "$SCRATCH/out" "($c['fork_offset_by_epochs'], $c['fork_offset_by_batches'])") == "(5, 5)" ]] || fail "fork: $(json "$SCRATCH/out" "$c")"
[[ $(json "$SCRATCH/out" "[(b['base_offset'], b['last_offset'], b['other_crc'] is not None and b['other_crc'] != b['crc']) for b in $c['differing_batches']]") == "[(5, 7, True)]" ]] ||
  fail "expected one batch at 5-7 that differs from broker 2's batch at 5"
[[ $(json "$SCRATCH/out" "($c['only_here'], $c['only_there'])") == "({'first': 5, 'last': 7}, {'first': 5, 'last': 8})" ]] || fail "ranges"
[[ $(json "$SCRATCH/out" "d['comparisons'][1]['identical']") == True ]] || fail "broker 3 should equal broker 2"

# The batch CRCs diff reports are the ones in the segments (kepoch's segment dump, which the
# oracle tests hold to Kafka's DumpLogSegments).
expect_exit 0 "$KEPOCH" segment dump -o json "$B/broker-1/d-0/00000000000000000000.log"
[[ $(json "$SCRATCH/out" "[b['crc'] for b in d[0]['batches'] if b['base_offset'] == 5]") == "[$(cd "$SCRATCH" && "$KEPOCH" diff -o json "$B/broker-1/d-0" "$B/broker-2/d-0" | python3 -c 'import json,sys; print(json.load(sys.stdin)["comparisons"][0]["differing_batches"][0]["crc"])')]" ]] ||
  fail "CRC of the differing batch"

A="$DATA/divergence/after"
expect_exit 0 "$KEPOCH" diff -o json "$A/broker-1/d-0" "$A/broker-2/d-0" "$A/broker-3/d-0"
[[ $(json "$SCRATCH/out" "[c['identical'] for c in d['comparisons']]") == "[True, True]" ]] || fail "after: replicas differ"
# The timeline: each replica's epoch at every offset, as Kafka recorded them: the epochs
# from its leader-epoch-checkpoint, the log end from the producer snapshot Kafka writes at the
# log end on a clean shutdown. The JSON spans give them, and so does the table's picture
# (one column per offset here), read through its legend.
L="$DATA/leader-changes"
expect_exit 0 "$KEPOCH" diff -o json "$L/broker-1/lc-0" "$L/broker-2/lc-0" "$L/broker-3/lc-0"
cp "$SCRATCH/out" "$SCRATCH/lc.json"
expect_exit 0 "$KEPOCH" diff "$L/broker-1/lc-0" "$L/broker-2/lc-0" "$L/broker-3/lc-0"
for n in 1 2 3; do
  leo=$(ls "$L/broker-$n/lc-0" | sed -n 's/^0*\([0-9][0-9]*\)\.snapshot$/\1/p' | sort -n | tail -n1)
  epochs=$(awk -v leo="$leo" 'NR > 2 { e[NR] = $1; s[NR] = $2; n = NR }
      END { for (i = 3; i <= n; i++) for (o = s[i]; o < (i < n ? s[i + 1] : leo); o++) printf "%s,", e[i] }' \
    "$L/broker-$n/lc-0/leader-epoch-checkpoint")
  ((${#epochs} >= 20)) || fail "broker $n: the checkpoint gives only '$epochs'"
  from_json=$(python3 - "$SCRATCH/lc.json" "$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d['timeline']['replicas'] if r['dir'].endswith('broker-%s/lc-0' % sys.argv[2])][0]
print(''.join('%d,' % s['epoch'] for s in r['spans'] for _ in range(s['start'], s['end'])) + ' %d' % r['log_end_offset'])
PY
)
  [[ $from_json == "$epochs $leo" ]] || fail "broker $n: JSON spans give '$from_json', the checkpoint '$epochs $leo'"
  from_table=$(python3 - "$SCRATCH/out" "$n" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
legend = dict((g, e) for g, e in re.findall(r'\b([A-Za-z0-9])=(\d+)', re.search(r'epochs ([^;]*);', text).group(1)))
bar, leo = re.search(r'broker-%s/lc-0 +\|([^|]*)\| +0\.\.(\d+)' % sys.argv[2], text).groups()
print(''.join(legend[g] + ',' for g in bar) + ' ' + leo)
PY
)
  [[ $from_table == "$epochs $leo" ]] ||
    { cat "$SCRATCH/out"; fail "broker $n: the picture gives '$from_table', the checkpoint '$epochs $leo'"; }
done

# An empty epoch cache (broker 1's leader-epoch-checkpoint gone) is no fork at offset 0: the
# epochs are not compared (a note says why), the batches are, and they still fork at 5 before
# the restart and agree after it.
for side in before after; do
  mkdir -p "$SCRATCH/noepochs-$side"
  cp -a "$DATA/divergence/$side/broker-1/d-0" "$SCRATCH/noepochs-$side/"
  rm "$SCRATCH/noepochs-$side/d-0/leader-epoch-checkpoint"
  # After a clean shutdown: no recovery, which would rebuild the epochs from the batches.
  touch "$SCRATCH/noepochs-$side/.kafka_cleanshutdown"
done
expect_exit 1 "$KEPOCH" diff -o json "$SCRATCH/noepochs-before/d-0" "$B/broker-2/d-0"
[[ $(json "$SCRATCH/out" "($c['fork_offset_by_epochs'], $c['fork_offset_by_batches'], $c['only_here'])") == "(None, 5, {'first': 5, 'last': 7})" ]] ||
  fail "no epochs, before: $(json "$SCRATCH/out" "$c")"
[[ $(json "$SCRATCH/out" "any('no leader epochs' in n for n in $c['notes'])") == True ]] || fail "no note on the empty cache"
expect_exit 0 "$KEPOCH" diff -o json "$SCRATCH/noepochs-after/d-0" "$A/broker-2/d-0"
[[ $(json "$SCRATCH/out" "($c['identical'], $c['only_here'], $c['only_there'])") == "(True, None, None)" ]] ||
  fail "no epochs, after: $(json "$SCRATCH/out" "$c")"

expect_exit 2 "$KEPOCH" diff "$B/broker-1/d-0" "$DATA/leader-changes/broker-1/lc-0"
expect_in "$SCRATCH/err" "replicas of one partition"
expect_exit 2 "$KEPOCH" diff "$B/broker-1/d-0"
