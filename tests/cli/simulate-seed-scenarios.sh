#!/usr/bin/env bash
# `simulate` on the seed scenarios shipped in examples/scenarios: each one's verdict under
# the leader-epoch rule and the pre-0.11 high-watermark rule, as its expect block and the
# seed articles say; then the exit codes for a failed expectation, usage and bad input.
. "$(dirname "$0")/common.sh"

S="$KEPOCH_SOURCE_DIR/examples/scenarios"

# verdict FILE RULE: (lost_acknowledged values, divergent_offsets, consistent)
verdict() {
  json "$1" "[(sorted(p['value'] for p in r['verdict']['lost_acknowledged']), r['verdict']['divergent_offsets'], r['verdict']['consistent']) for r in d['runs'] if r['rule'] == '$2'][0]"
}

expect_exit 0 "$KEPOCH" simulate -o json "$S/hw-truncation-loses-acked.yaml"
[[ $(verdict "$SCRATCH/out" epoch) == "([], [], True)" ]] || fail "seed 1, epoch: $(verdict "$SCRATCH/out" epoch)"
[[ $(verdict "$SCRATCH/out" hw) == "(['m2'], [], True)" ]] || fail "seed 1, hw: $(verdict "$SCRATCH/out" hw)"
[[ $(json "$SCRATCH/out" "d['expect_holds']") == True ]] || fail "seed 1: expect block"
# The seed's state before A restarts: A LEO 2 HW 1, B LEO 2 HW 2.
[[ $(json "$SCRATCH/out" "[(x['replica'], x['log_end_offset'], x['high_watermark']) for x in d['runs'][1]['steps'][6]['replicas']]") == \
  "[('B', 2, 2), ('A', 2, 1)]" ]] || fail "seed 1: state before the restart"

expect_exit 0 "$KEPOCH" simulate -o json "$S/divergent-offset.yaml"
[[ $(verdict "$SCRATCH/out" epoch) == "(['m2'], [], True)" ]] || fail "seed 2, epoch: $(verdict "$SCRATCH/out" epoch)"
[[ $(verdict "$SCRATCH/out" hw) == "(['m2'], [1], False)" ]] || fail "seed 2, hw: $(verdict "$SCRATCH/out" hw)"
# Under the hw rule A holds m2 at offset 1 and B m3.
[[ $(json "$SCRATCH/out" "[x['log'] for x in d['runs'][1]['steps'][-1]['replicas']]") == \
  "[['0:0:m1', '1:0:m2'], ['0:0:m1', '1:2:m3']]" ]] || fail "seed 2: final hw logs"

expect_exit 0 "$KEPOCH" simulate -o json "$S/follower-epoch-cache.yaml"
[[ $(verdict "$SCRATCH/out" epoch) == "([], [], True)" ]] || fail "seed 3, epoch"
[[ $(verdict "$SCRATCH/out" hw) == "([], [], True)" ]] || fail "seed 3, hw"
[[ $(json "$SCRATCH/out" "[[t['to'] for t in r['verdict']['truncations']] for r in d['runs']]") == "[[280], [260]]" ]] ||
  fail "seed 3: truncation points"

# One rule only; the table for people; YAML.
expect_exit 0 "$KEPOCH" simulate --rule hw -o json "$S/divergent-offset.yaml"
[[ $(json "$SCRATCH/out" "[r['rule'] for r in d['runs']]") == "['hw']" ]] || fail "--rule hw"
expect_exit 0 "$KEPOCH" simulate "$S/hw-truncation-loses-acked.yaml"
expect_in "$SCRATCH/out" "A truncates 2 -> 1"
expect_in "$SCRATCH/out" "verdicts:"
expect_exit 0 "$KEPOCH" simulate -o yaml "$S/follower-epoch-cache.yaml"
expect_in "$SCRATCH/out" "consistent: true"

# An expectation that does not hold: exit 1, and the failure says what differed.
sed 's/lost_acknowledged: \[m2\]/lost_acknowledged: []/' "$S/hw-truncation-loses-acked.yaml" >"$SCRATCH/wrong.yaml"
expect_exit 1 "$KEPOCH" simulate -o json "$SCRATCH/wrong.yaml"
expect_in "$SCRATCH/out" "lost_acknowledged: expected [], found [m2]"
# Without an expect block: exit 1 when the epoch rule loses acknowledged records.
sed '/^expect:/,$d' "$S/divergent-offset.yaml" >"$SCRATCH/no-expect.yaml"
expect_exit 1 "$KEPOCH" simulate -o json "$SCRATCH/no-expect.yaml"
sed '/^expect:/,$d' "$S/hw-truncation-loses-acked.yaml" >"$SCRATCH/no-expect-ok.yaml"
expect_exit 0 "$KEPOCH" simulate -o json "$SCRATCH/no-expect-ok.yaml"
[[ $(json "$SCRATCH/out" "d['expect_holds']") == None ]] || fail "expect_holds without expect"

# Usage and input errors.
expect_exit 2 "$KEPOCH" simulate --rule both2 "$S/divergent-offset.yaml"
expect_exit 2 "$KEPOCH" simulate
expect_exit 3 "$KEPOCH" simulate "$SCRATCH/missing.yaml"
printf 'replicas: [A]\nsteps:\n  - jump: A\n' >"$SCRATCH/bad.yaml"
expect_exit 3 "$KEPOCH" simulate "$SCRATCH/bad.yaml"
expect_in "$SCRATCH/err" "bad.yaml:3: unknown step 'jump'"
expect_exit 0 "$KEPOCH" simulate --help
expect_in "$SCRATCH/out" "kepoch simulate examples/scenarios/hw-truncation-loses-acked.yaml"
echo "ok"
