#!/usr/bin/env bash
# `diff`'s pictures (the table's timeline and the --html page) for a long-lived partition:
# - Epochs in the hundreds. Kafka's fixtures are young (epochs 0-4): renumber_epochs.py makes
#   a deliberately modified copy of the real leader-changes and divergence fixtures with
#   every leader epoch moved up by 200 or 300, as if each partition had been through that
#   many more elections first (each bumps the epoch by one): the leader-epoch-checkpoints
#   and every batch's partitionLeaderEpoch are rewritten alike and the CRCs recomputed, so
#   the copy still verifies. Every epoch must be drawn distinctly: one legend glyph each in
#   the table (and the bars read back through it equal the JSON spans), one colour each in
#   the HTML page, and the renumbered diff says what the original says, epochs moved.
# - A fork 200 offsets before the end of a 2 M-offset log (bench/gen-fork.py, 5000 records a
#   batch): the table's axis zooms in on it (a "~" for the offsets cut off, the fork's caret
#   inside the bar, the divergent tail many columns wide), and so does the page (a break
#   mark, the fork marker well inside the plot, the spans after it 100+ px wide), where an
#   axis to scale would give those 200 offsets a hundredth of a pixel.
. "$(dirname "$0")/common.sh"

command -v chromium >/dev/null || fail "chromium is not installed (./dev setup installs it)"
READBACK="$KEPOCH_SOURCE_DIR/tests/cli/html_readback.py"
RENUMBER="$KEPOCH_SOURCE_DIR/tests/cli/renumber_epochs.py"
cd "$SCRATCH"

load() {  # load PAGE: the DOM Chromium builds from it, in PAGE.dom; no console message
  local profile
  profile=$(mktemp -d "$SCRATCH/chromium.XXXXXX")
  timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 \
    --dump-dom "file://$SCRATCH/$1" >"$1.dom" 2>"$1.log" || { cat "$1.log"; fail "chromium did not load $1"; }
  rm -rf "$profile"
  if grep -a CONSOLE "$1.log"; then fail "$1: console messages"; fi
}

# table_epochs TABLE REPLICA: the replica's bar read through the legend, one epoch per column.
table_epochs() {
  python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
legend = re.findall(r'\b([A-Za-z0-9#])=(\d+)', re.search(r'epochs ([^;]*);', text).group(1))
glyphs = dict(legend)
if len(set(g for g, _ in legend)) != len(legend) or len(set(e for _, e in legend)) != len(legend):
    sys.exit("legend maps glyphs and epochs not one to one: %s" % legend)
bar = re.search(r'%s +~?\|([^|]*)\|' % re.escape(sys.argv[2]), text).group(1)
print(','.join(glyphs[g] for g in bar if g != ' '))
PY
}

# --- Epochs in the hundreds: the leader-changes fixture, 5 elections, moved up by 200 ------
L="$DATA/leader-changes"
for b in 1 2 3; do python3 "$RENUMBER" "$L/broker-$b" "lc-$b" 200; done
expect_exit 0 "$KEPOCH" partition verify lc-1/lc-0
expect_in out "no error"
expect_exit 0 "$KEPOCH" checkpoint validate lc-1/lc-0/leader-epoch-checkpoint
expect_exit 0 "$KEPOCH" diff -o json "$L/broker-1/lc-0" "$L/broker-2/lc-0" "$L/broker-3/lc-0"
cp out lc-original.json
expect_exit 0 "$KEPOCH" diff -o json --html lc.html lc-1/lc-0 lc-2/lc-0 lc-3/lc-0
cp out lc.json
# The same report, each epoch 200 higher (and the dirs renamed).
python3 - lc-original.json lc.json <<'PY' || fail "the renumbered diff says other than the original"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
def spans(d):
    return [[(s['epoch'], s['start'], s['end']) for s in r['spans']] for r in d['timeline']['replicas']]
shifted = [[(e + 200, s, t) for e, s, t in r] for r in spans(a)]
if shifted != spans(b): sys.exit("spans %s, expected %s" % (spans(b), shifted))
if [e['epoch'] + 200 for e in a['replicas'][0]['epochs']] != [e['epoch'] for e in b['replicas'][0]['epochs']]:
    sys.exit("epochs")
if a['timeline']['fork'] != b['timeline']['fork']: sys.exit("fork")
epochs = sorted(set(s[0] for r in spans(b) for s in r))
print("renumbered epochs:", epochs)
assert len(epochs) == 5 and min(epochs) >= 200
PY
expect_exit 0 "$KEPOCH" diff lc-1/lc-0 lc-2/lc-0 lc-3/lc-0
cp out lc.table
for b in 1 2 3; do
  want=$(python3 -c "
import json, sys
r = [r for r in json.load(open('lc.json'))['timeline']['replicas'] if r['dir'].endswith('lc-$b/lc-0')][0]
print(','.join(str(s['epoch']) for s in r['spans'] for _ in range(s['start'], s['end'])))")
  got=$(table_epochs lc.table "lc-$b/lc-0") || { cat lc.table; fail "table legend"; }
  [[ $got == "$want" ]] || { cat lc.table; fail "lc-$b: the table's bar gives $got, the JSON $want"; }
done
load lc.html
python3 "$READBACK" timeline lc.html.dom lc.json || fail "lc.html differs from the JSON"
[[ $(grep -o 'data-epoch="2[0-9][0-9]" data-color' lc.html.dom | sort -u | wc -l) -eq 5 ]] ||
  fail "the page's legend does not list the 5 epochs"

# --- A fork in the hundreds: the divergence fixture moved up by 300 (epochs 300 and 302) ---
D="$DATA/divergence/before"
for b in 1 2 3; do python3 "$RENUMBER" "$D/broker-$b" "dv-$b" 300; done
expect_exit 1 "$KEPOCH" diff -o json "$D/broker-1/d-0" "$D/broker-2/d-0" "$D/broker-3/d-0"
cp out dv-original.json
expect_exit 1 "$KEPOCH" diff -o json --html dv.html dv-1/d-0 dv-2/d-0 dv-3/d-0
cp out dv.json
[[ $(json dv.json "(d['timeline']['fork'], [c['fork_offset_by_batches'] for c in d['comparisons']])") == \
  "$(json dv-original.json "(d['timeline']['fork'], [c['fork_offset_by_batches'] for c in d['comparisons']])")" ]] ||
  fail "the renumbered fixture forks elsewhere"
[[ $(json dv.json "sorted(set(s['epoch'] for r in d['timeline']['replicas'] for s in r['spans']))") == "[300, 302]" ]] ||
  fail "epochs: $(json dv.json "d['timeline']")"
expect_exit 1 "$KEPOCH" diff dv-1/d-0 dv-2/d-0 dv-3/d-0
expect_in out "epochs A=300 B=302"
expect_in out "^ fork at offset 5"
load dv.html
python3 "$READBACK" timeline dv.html.dom dv.json || fail "dv.html differs from the JSON"

# --- A fork 200 offsets before the end of a 2 M-offset log -------------------------------
python3 "$KEPOCH_SOURCE_DIR/bench/gen-fork.py" long --bytes 24000000 --batch 40000 --records 5000 --fork 200
fork=$(python3 -c "print(400 * 5000)")
# The generator writes what Kafka would: its offset indexes name each indexed batch by its
# last offset (LogSegment.append), so both replicas verify without an error (it named the
# first, 5000 records early, until issue 41).
for r in a b; do
  expect_exit 0 "$KEPOCH" -o json partition verify "long/$r/fork-0"
  [[ $(json "$SCRATCH/out" "d[0]['summary']") == *", no error." ]] ||
    fail "bench/gen-fork.py wrote a replica with errors: $(json "$SCRATCH/out" "d[0]['summary']")"
done
expect_exit 1 "$KEPOCH" diff -o json --html long.html long/a/fork-0 long/b/fork-0
cp out long.json
[[ $(json long.json "(d['timeline']['fork'], d['timeline']['to'])") == "($fork, $((fork + 200)))" ]] ||
  fail "the generated fork: $(json long.json "d['timeline']")"
expect_exit 1 "$KEPOCH" diff long/a/fork-0 long/b/fork-0
cp out long.table
expect_in long.table "^ fork at offset $fork"
expect_in long.table "(~: offsets 0..$((fork - 51)) not drawn)"
# b's bar: epoch 0 up to the fork, then epoch 1 for many columns (the 200 divergent offsets).
python3 - long.table <<'PY' || { cat long.table; fail "the fork is not visible in the table"; }
import re, sys
text = open(sys.argv[1]).read()
glyph = dict((e, g) for g, e in re.findall(r'\b([A-Za-z0-9])=(\d+)', re.search(r'epochs ([^;]*);', text).group(1)))
bar = re.search(r'b/fork-0 +~\|([^|]*)\|', text).group(1)
tail = len(bar) - len(bar.rstrip(glyph['1']))
caret = [l for l in text.splitlines() if 'fork at offset' in l][0].index('^')
start = [l for l in text.splitlines() if re.search(r'b/fork-0 +~\|', l)][0].index('~|') + 2
print("table: %d of %d columns after the fork, the caret under column %d" % (tail, len(bar), caret - start))
assert tail >= 20 and bar.rstrip(glyph['1']) and set(bar.rstrip(glyph['1'])) == {glyph['0']}
assert caret - start == len(bar) - tail
PY
load long.html
python3 "$READBACK" timeline long.html.dom long.json || fail "long.html differs from the JSON"
python3 "$READBACK" visible long.html.dom "$fork" || fail "the fork is not visible in the page"
