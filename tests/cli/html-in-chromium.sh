#!/usr/bin/env bash
# `--html FILE` pages in a real browser: headless Chromium (Debian's chromium, which `./dev
# setup` installs) loads each kind of page kepoch writes over the real fixtures (diff, diff
# over log dirs, predict, plan, metadata history from a whole log and from a snapshot) with no
# console message, and tests/cli/html_readback.py reads the drawn spans and markers back from
# the DOM Chromium built and holds them to the same command's -o json report (timelines:
# every span, the fork, each replica's hw, recovery point and truncation point, legend
# colours one per epoch and distinct; history: each registration's leader and epoch, ISR
# ticks, broker events). Also: every SVG is well-formed XML and the page loads nothing
# (no script, no link, no URL); text from the inputs is escaped (a log dir named with markup
# draws as text); the page may not be written into a log dir (exit 2, nothing created); and
# the checks themselves fail on a page with a script error or a span missing.
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

# check KIND PAGE JSON: the page loads cleanly and draws what the JSON says.
check() {
  load "$2"
  no_console "$2"
  python3 "$READBACK" wellformed "$2" || fail "$2: not well-formed"
  python3 "$READBACK" "$1" "$2.dom" "$3" || fail "$2: the picture differs from the JSON"
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
for target in "$D/broker-1/p.html" "$D/broker-1/d-0/p.html" "$DATA/metadata/__cluster_metadata-0/p.html"; do
  expect_exit 2 "$KEPOCH" diff --html "$target" "$D/broker-1/d-0" "$D/broker-2/d-0"
  expect_in "$SCRATCH/err" "kepoch writes nothing into a log dir"
  [[ ! -e $target ]] || fail "$target was created"
done
expect_exit 2 "$KEPOCH" metadata history --html "$DATA/metadata/p.html" "$DATA/metadata"
[[ ! -e $DATA/metadata/p.html ]] || fail "a page was written into the metadata log dir"
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
echo "ok: 6 pages load in chromium with no console message and draw what their JSON says"
