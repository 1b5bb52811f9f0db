#!/usr/bin/env bash
# Verdicts are decided from structure, never from the wording of a message (issues 33, 39):
# the code that writes the verdict sentences (lib/kepoch/report/summary.cpp) may compare
# numbers, booleans, nulls and one-word enum values ("fails", "error"), but never search a
# text for words (find/rfind/starts_with/ends_with/contains/regex with a literal of several
# words or a phrase), which is how a verdict once hung on a sentence written in another file.
# The lint proves it can fail on the pattern it replaced, then holds the file to it.
. "$(dirname "$0")/common.sh"

# A string literal with a space, a colon or an apostrophe in it is wording; a search for one,
# or an equality with one, is a decision by wording.
PATTERN='(\.(find|rfind|starts_with|ends_with|contains|compare)\(|==[[:space:]]*|!=[[:space:]]*)"[^"]*[ :'"'"'][^"]*"|std::regex'

lint() {  # lint FILE: the offending lines, with numbers
  grep -nE "$PATTERN" "$1" || true
}

# It catches what summary.cpp did before (and its variants).
cat >"$SCRATCH/bad.cpp" <<'EOF'
if (scalar_text(u).find("keeps the batches from offset") != std::string::npos)
snapshots = snapshots && scalar_text(u).rfind("how ", 0) != 0;
if (text_at(p, "message") == "no replica can lead") return;
if (std::regex_search(reason, std::regex("fails")))
EOF
[[ $(lint "$SCRATCH/bad.cpp" | grep -c .) == 4 ]] || {
  lint "$SCRATCH/bad.cpp"
  fail "the lint misses a decision by wording"
}
# ... and lets a typed decision through.
cat >"$SCRATCH/good.cpp" <<'EOF'
const bool fails = outcome && scalar_text(*outcome) == "fails";
if (text_at(f, "severity") == "error") {
const auto last = dir.rfind('/');
EOF
[[ -z $(lint "$SCRATCH/good.cpp") ]] || fail "the lint flags a typed decision: $(lint "$SCRATCH/good.cpp")"

found=$(lint "$KEPOCH_SOURCE_DIR/lib/kepoch/report/summary.cpp")
[[ -z $found ]] || {
  echo "$found"
  fail "lib/kepoch/report/summary.cpp decides by the wording of a message (above)"
}
echo "verdict-from-structure: summary.cpp decides from typed fields only"
