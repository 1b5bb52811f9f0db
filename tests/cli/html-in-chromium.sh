#!/usr/bin/env bash
# `--html FILE` pages in a real browser: headless Chromium (Debian's chromium, which `./dev
# setup` installs) loads each kind of page kepoch writes over the real fixtures (diff, diff
# over log dirs, predict, plan, metadata history from a whole log and from a snapshot) with no
# console message, and tests/cli/html_readback.py reads the drawn spans and markers back from
# the DOM Chromium built and holds them to the same command's -o json report (timelines:
# every span, the fork, each replica's hw, recovery point and truncation point, legend
# colours one per epoch and distinct; history: each registration's leader and epoch, ISR
# ticks, broker events); and where the timelines put them, as Chromium lays the page out
# (html_readback.py geometry: spans tile each replica's row in offset order, rows apart,
# markers at their offsets' x within a pixel). Also: every SVG is well-formed XML and the page loads nothing
# (no script, no link, no URL); text from the inputs is escaped (a log dir named with markup
# draws as text); the page may not be written into a log dir (exit 2, nothing created); and
# the checks themselves fail on a page with a script error, a span missing, spans moved off
# their offsets or a marker nudged.
. "$(dirname "$0")/common.sh"

command -v chromium >/dev/null || fail "chromium is not installed (./dev setup installs it)"
READBACK="$KEPOCH_SOURCE_DIR/tests/cli/html_readback.py"
D="$DATA/divergence/before"
cd "$SCRATCH"

# load PAGE: Chromium loads PAGE and dumps the DOM it built to PAGE.dom; its console (every
# console message and uncaught error, logged as CONSOLE lines) goes to PAGE.log.
load() {
  local profile
  profile=$(mktemp -d "$SCRATCH/chromium.XXXXXX")
  timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 \
    --dump-dom "file://$SCRATCH/$1" >"$1.dom" 2>"$1.log" || { cat "$1.log"; fail "chromium did not load $1"; }
  rm -rf "$profile"
  grep -q '</svg>' "$1.dom" || fail "$1: chromium's DOM has no picture"
}
no_console() {
  if grep -a 'CONSOLE' "$1.log"; then fail "$1: console messages while loading"; fi
}

# laid_out PAGE: PAGE as Chromium lays it out: a copy with a probe script that writes each
# span's and marker line's box (getBoundingClientRect, CSS pixels) into data-box, loaded, its
# DOM in PAGE.laid.html.dom (the page itself runs no script; the probe is the test's).
laid_out() {
  local probe="for (const e of document.querySelectorAll('rect.span, g.marker > line, g.removed > rect')) { const b = e.getBoundingClientRect(); e.setAttribute('data-box', [b.left, b.top, b.width, b.height].map(v => v.toFixed(3)).join(' ')); }"
  grep -q '</body>' "$1" || fail "$1: no </body> to put the probe before"
  sed "s|</body>|<script>$probe</script></body>|" "$1" >"${1%.html}.laid.html"
  load "${1%.html}.laid.html"
  no_console "${1%.html}.laid.html"
}

# check KIND PAGE JSON: the page loads cleanly and draws what the JSON says; a timeline's
# spans and markers also where their offsets are, as Chromium lays the page out.
check() {
  load "$2"
  no_console "$2"
  python3 "$READBACK" wellformed "$2" || fail "$2: not well-formed"
  python3 "$READBACK" "$1" "$2.dom" "$3" || fail "$2: the picture differs from the JSON"
  if [[ $1 == timeline ]]; then
    laid_out "$2"
    python3 "$READBACK" geometry "${2%.html}.laid.html.dom" || fail "$2: positions do not follow offsets"
  fi
}

expect_exit 1 "$KEPOCH" diff -o json --html diff.html "$D/broker-1/d-0" "$D/broker-2/d-0" "$D/broker-3/d-0"
cp out diff.json
check timeline diff.html diff.json
expect_exit 1 "$KEPOCH" predict -o json --html predict.html --leader "$D/broker-2/d-0" "$D/broker-1/d-0" "$D/broker-3/d-0"
cp out predict.json
check timeline predict.html predict.json
expect_exit 1 "$KEPOCH" plan -o json --html plan.html --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 \
  "$D/broker-1/d-0" "$D/broker-2/d-0" "$D/broker-3/d-0"
cp out plan.json
check timeline plan.html plan.json
expect_exit 0 "$KEPOCH" metadata history -o json --html history.html "$DATA/metadata"
cp out history.json
check history history.html history.json
expect_exit 0 "$KEPOCH" metadata history -o json --html history-snapshot.html "$DATA/metadata-snapshot"
cp out history-snapshot.json
check history history-snapshot.html history-snapshot.json

# The page is the same with the table output: --html does not depend on -o.
expect_exit 1 "$KEPOCH" diff --html diff-table.html "$D/broker-1/d-0" "$D/broker-2/d-0" "$D/broker-3/d-0"
cmp -s diff.html diff-table.html || fail "the page differs between -o json and the table"

# diff over whole log dirs (a section per partition), named with markup: their text is
# escaped, so the names draw as they are.
mkdir -p 'x<i>&"y'
for b in 1 2 3; do cp -r "$D/broker-$b" "x<i>&\"y/b$b"; done
expect_exit 1 "$KEPOCH" diff -o json --html marked.html 'x<i>&"y/b1' 'x<i>&"y/b2' 'x<i>&"y/b3'
cp out marked.json
[[ $(json marked.json "len(d['partitions'])") == 1 ]] || fail "the log dirs share one partition"
check timeline marked.html marked.json
python3 - marked.html.dom <<'PY' || fail "a dir name became markup"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def handle_starttag(self, tag, attrs):
        if tag == "i":
            sys.exit("an <i> element in the DOM")
P().feed(open(sys.argv[1]).read())
PY

# Never into a log dir (nor a partition dir, nor the metadata log's): usage, nothing created.
# Aimed at copies of the fixtures: a broken guard writes into the scratch dir, not tests/data.
mkdir -p refused
cp -r "$D/broker-1" "$D/broker-2" refused/
cp -r "$DATA/metadata" refused/metadata
R="$SCRATCH/refused"
for target in "$R/broker-1/p.html" "$R/broker-1/d-0/p.html" "$R/metadata/__cluster_metadata-0/p.html"; do
  expect_exit 2 "$KEPOCH" diff --html "$target" "$R/broker-1/d-0" "$R/broker-2/d-0"
  expect_in "$SCRATCH/err" "kepoch writes nothing into a log dir"
  [[ ! -e $target ]] || fail "$target was created"
done
expect_exit 2 "$KEPOCH" metadata history --html "$R/metadata/p.html" "$R/metadata"
[[ ! -e $R/metadata/p.html ]] || fail "a page was written into the metadata log dir"
# ... nor into an argument's own dir that holds no checkpoint yet.
mkdir -p fresh && cp -r "$D/broker-1/d-0" fresh/
expect_exit 2 "$KEPOCH" diff --html fresh/p.html fresh/d-0 "$D/broker-2/d-0"
[[ ! -e fresh/p.html ]] || fail "a page was written into an argument's dir"

# The checks can fail: a page with a script error is caught, and so is a span left out.
printf '<!DOCTYPE html><html><body><svg></svg><script>undefined_function()</script></body></html>' >broken.html
load broken.html
grep -q 'CONSOLE.*undefined_function' broken.html.log || fail "chromium's console errors are not seen"
python3 "$READBACK" wellformed broken.html >/dev/null && fail "a page with a script passed"
sed '0,/class="span"/{/class="span"/d}' diff.html.dom >missing.dom
if python3 "$READBACK" timeline missing.dom diff.json >missing.out; then fail "a missing span passed"; fi
expect_in missing.out "span not drawn"
# ... and so are positions unrelated to offsets: every span moved to x=999 y=0 width=0.01
# (the data-* attributes still right), or one marker 3 px off its offset.
sed -E '/class="span"/s/ x="[0-9.]+" y="[0-9.]+" width="[0-9.]+"/ x="999" y="0" width="0.01"/' diff.html >moved.html
load moved.html
python3 "$READBACK" timeline moved.html.dom diff.json >/dev/null ||
  fail "the attribute check already sees moved spans: it no longer shows what the geometry adds"
laid_out moved.html
if python3 "$READBACK" geometry moved.laid.html.dom >moved.out; then fail "spans moved off their offsets passed"; fi
expect_in moved.out "overlap"
expect_in moved.out "drawn at x"
python3 - diff.html >nudged.html <<'PY'
import re, sys
page = open(sys.argv[1]).read()
m = re.search(r'(<g class="marker" data-kind="hw"[^>]*>.*?<line x1=")([0-9.]+)(" y1="[0-9.]+" x2=")([0-9.]+)', page, re.S)
x = float(m.group(2)) + 3
sys.stdout.write(page[:m.start()] + m.group(1) + "%.2f" % x + m.group(3) + "%.2f" % x + page[m.end():])
PY
laid_out nudged.html
if python3 "$READBACK" geometry nudged.laid.html.dom >nudged.out; then fail "a marker 3 px off its offset passed"; fi
expect_in nudged.out "drawn at x"
# The removed spans (issue 38 item 5): predict and plan mark broker 1's 5..7 (3 records, lost,
# committed not ruled out); the checks fail on a page that leaves the mark out or draws it
# 5 px off its offsets.
for page in predict plan; do
  grep -q 'class="removed" data-replica="[^"]*broker-1/d-0" data-start="5" data-end="8" data-records="3" data-lost-records="3" data-committed-loss="unknown"' $page.html ||
    fail "$page.html does not mark broker 1's removed offsets 5..7"
done
grep -q 'class="removed"' diff.html && fail "diff, which forecasts no loss, marks a removed span"
sed -E '/<g class="removed"/,/<\/g>/d' predict.html.dom >no-removed.dom
if python3 "$READBACK" timeline no-removed.dom predict.json >no-removed.out; then fail "a page without its removed span passed"; fi
expect_in no-removed.out "removed span not drawn"
python3 - predict.html >shifted.html <<'PY'
import re, sys
page = open(sys.argv[1]).read()
m = re.search(r'(<g class="removed"[^>]*>.*?<rect x=")([0-9.]+)', page, re.S)
sys.stdout.write(page[:m.start(2)] + "%.2f" % (float(m.group(2)) + 5) + page[m.end(2):])
PY
laid_out shifted.html
if python3 "$READBACK" geometry shifted.laid.html.dom >shifted.out; then fail "a removed span 5 px off its offsets passed"; fi
expect_in shifted.out "removed span"
# The plan's candidates side by side (issue 38 item 5): three rows, and a row left out fails.
[[ $(grep -c '<tr data-topic="d" data-partition="0" data-broker=' plan.html) == 3 ]] ||
  fail "plan.html does not list its three candidates"
sed '0,/<tr data-topic="d"/{/<tr data-topic="d"/d}' plan.html.dom >one-less.dom
if python3 "$READBACK" timeline one-less.dom plan.json >one-less.out; then fail "a plan page missing a candidate passed"; fi
expect_in one-less.out "candidate not listed"
# The history's time axis (issue 38 item 5): a tick whose time is off by a second fails.
grep -q 'class="time-tick"' history.html || fail "history.html has no time axis"
python3 - history.html.dom >retimed.dom <<'PY'
import re, sys
page = open(sys.argv[1]).read()
m = re.search(r'(<g class="time-tick"[^>]*data-timestamp=")([0-9]+)', page)
sys.stdout.write(page[:m.start(2)] + str(int(m.group(2)) + 1000) + page[m.end(2):])
PY
if python3 "$READBACK" history retimed.dom history.json >retimed.out; then fail "a time tick a second off passed"; fi
expect_in retimed.out "time tick"
echo "ok: 6 pages load in chromium with no console message and draw what their JSON says, where their offsets are"
