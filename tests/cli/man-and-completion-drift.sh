#!/usr/bin/env bash
# The completion scripts are exactly what the command tree generates; the man page renders
# without groff warnings and names every subcommand and every long flag that `--help` lists.
# The bash completion is then loaded and asked for a few prefixes.
. "$(dirname "$0")/common.sh"

MAN="$KEPOCH_SOURCE_DIR/man/kepoch.1"
COMP="$KEPOCH_SOURCE_DIR/completions/kepoch.bash"

# The committed completions are what `kepoch completion` generates from the command tree now
# (regenerate: cmake --build --preset dev --target completions).
for shell in bash zsh fish; do
  file=$KEPOCH_SOURCE_DIR/completions/$([[ $shell == zsh ]] && echo _kepoch || echo "kepoch.$shell")
  "$KEPOCH" completion "$shell" >"$SCRATCH/completion.$shell"
  diff -u "$file" "$SCRATCH/completion.$shell" >"$SCRATCH/drift" ||
    { head -40 "$SCRATCH/drift"; fail "$file differs from \`kepoch completion $shell\`"; }
done
bash -n "$COMP" || fail "kepoch.bash is not valid bash"

groff -man -Tutf8 -ww -z "$MAN" 2>"$SCRATCH/groff" || fail "groff failed on kepoch.1"
[[ ! -s $SCRATCH/groff ]] || { cat "$SCRATCH/groff"; fail "groff warnings in kepoch.1"; }
if command -v man >/dev/null; then
  MANWIDTH=100 man -l "$MAN" >"$SCRATCH/man.txt" 2>/dev/null || fail "man -l failed"
else
  groff -man -Tutf8 "$MAN" >"$SCRATCH/man.txt"
fi
# `man kepoch-<group>` opens the same page: one stub per top-level subcommand.
for top in $("$KEPOCH" --help | awk '/^Subcommands:/{f=1;next} f&&/^  [a-z]/{print $1} f&&/^$/{f=0}'); do
  [[ $(cat "$KEPOCH_SOURCE_DIR/man/kepoch-$top.1" 2>/dev/null) == ".so man1/kepoch.1" ]] ||
    fail "man/kepoch-$top.1 missing (a .so stub to kepoch.1)"
done
for code in 0 1 2 3; do grep -qE "^ +$code " "$SCRATCH/man.txt" || fail "exit code $code not in the man page"; done

# The command tree, from --help: groups with subcommands, then leaves.
subcommands() { "$KEPOCH" "$@" --help | awk '/^Subcommands:/{f=1;next} f&&/^  [a-z]/{print $1} f&&/^$/{f=0}'; }
leaves=()
for top in $(subcommands); do
  grep -q "$top" "$SCRATCH/man.txt" || fail "subcommand $top not in the man page"
  grep -qw "$top" "$COMP" || fail "subcommand $top not in the bash completion"
  subs=$(subcommands "$top")
  if [[ -z $subs ]]; then leaves+=("$top"); else for s in $subs; do leaves+=("$top $s"); done; fi
done
(( ${#leaves[@]} >= 10 )) || fail "only ${#leaves[@]} commands found: ${leaves[*]}"
for leaf in "${leaves[@]}"; do
  # shellcheck disable=SC2086
  flags=$("$KEPOCH" $leaf --help | grep -oE '^ +(-[a-zA-Z],)?--[a-z][a-z-]+' | sed 's/.*--/--/' | sort -u)
  for flag in $flags; do
    [[ $flag == --help ]] && continue
    grep -qF -- "${flag#--}" "$SCRATCH/man.txt" || fail "kepoch $leaf $flag is not in the man page"
    grep -qF -- "$flag" "$COMP" || fail "kepoch $leaf $flag is not in the bash completion"
  done
  [[ $("$KEPOCH" $leaf --help) == *"Example"* ]] || fail "kepoch $leaf --help has no example"
done

# What the completion offers, as bash would ask for it.
complete_words() {
  bash -c '
    _filedir() { :; }
    # bash-completion'"'"'s helper, reduced to what kepoch.bash reads.
    _init_completion() {
      words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
      cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
    }
    . "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
    _kepoch kepoch "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$@"
}
# offers WORD ARGS...: the completion of ARGS includes WORD (captured first: grep -q closing
# the pipe early would kill the writer under pipefail).
offers() { local want=$1; shift; local got; got=$(complete_words "$@"); grep -qxF -- "$want" <<<"$got"; }
[[ $(complete_words kepoch pre) == predict ]] || fail "kepoch pre<TAB>: $(complete_words kepoch pre)"
[[ $(complete_words kepoch sim) == simulate ]] || fail "kepoch sim<TAB>"
offers jsonl kepoch -o "" || fail "-o <TAB> does not offer jsonl"
offers --elect kepoch predict --el || fail "predict --el<TAB>"
offers ofle kepoch predict --mode "" || fail "predict --mode <TAB>"
offers timeindex kepoch segment dump --kind "" || fail "segment dump --kind <TAB>"
offers leader-epoch kepoch checkpoint dump --kind "" || fail "checkpoint --kind <TAB>"
offers --alive kepoch -o json predict --isr 1 -- || fail "flags after a valued flag"
[[ -z $(complete_words kepoch segment dump --max-batches "") ]] || fail "--max-batches offers words"
offers validate kepoch checkpoint v || fail "checkpoint v<TAB>"
echo ok
