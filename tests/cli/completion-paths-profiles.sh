#!/usr/bin/env bash
# Shell completion of paths and profile names (issue 20): completions/kepoch.bash, sourced
# in a plain bash (no bash-completion package: its compgen fallbacks), is asked through
# `complete -p` and its function as bash asks it. Every argument that takes a file or a
# directory offers the paths under the word typed; --cluster and `profile show/use` offer
# the profile names of the config file, read as the user types (kepoch profile list --names)
# from a temporary XDG_CONFIG_HOME with two profiles.
. "$(dirname "$0")/common.sh"

COMP="$KEPOCH_SOURCE_DIR/completions/kepoch.bash"
mkdir -p "$SCRATCH/bin" "$SCRATCH/xdg/kepoch" "$SCRATCH/files/logs.d"
ln -s "$KEPOCH" "$SCRATCH/bin/kepoch"
touch "$SCRATCH/files/leader-epoch-checkpoint" "$SCRATCH/files/00000000000000000000.log"
cat >"$SCRATCH/xdg/kepoch/config.yaml" <<'YAML'
clusters:
  prod-eu:
    bootstrap: "kafka-1.example.com:9093"
  staging:
    bootstrap: "localhost:9092"
YAML

# complete_words WORDS...: what the registered completion offers for the last word, one a
# line, as bash computes it (COMP_WORDS and COMP_CWORD set, the function `complete -p` names
# called with the command, the word and the previous word).
complete_words() {
  (cd "$SCRATCH/files" && PATH="$SCRATCH/bin:$PATH" XDG_CONFIG_HOME="$SCRATCH/xdg" bash -c '
    . "$1"; shift
    spec=$(complete -p kepoch) || exit 9
    func=$(sed -E "s/.*-F ([^ ]+).*/\1/" <<<"$spec")
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
    "$func" kepoch "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$@")
}
offers() {  # offers WORD ARGS...
  local want=$1 got
  shift
  got=$(complete_words "$@")
  grep -qxF -- "$want" <<<"$got" || { echo "--- offered for: $*"; echo "$got"; fail "\"$want\" not offered"; }
}

# The registration itself.
(. "$COMP" && complete -p kepoch) | grep -q -- '-F _kepoch kepoch' || fail "complete -p kepoch: not registered"

# Paths: the positional arguments and the path-valued flags of every kind of command.
offers leader-epoch-checkpoint kepoch checkpoint validate lea
offers leader-epoch-checkpoint kepoch checkpoint dump ""
offers logs.d kepoch metadata dump lo
offers logs.d kepoch metadata history l
offers 00000000000000000000.log kepoch segment dump 0
offers logs.d kepoch logdir scan l
offers logs.d kepoch logdir snapshot l
offers logs.d kepoch partition inspect l
offers logs.d kepoch partition verify l
offers 00000000000000000000.log kepoch diff 0
offers 00000000000000000000.log kepoch predict --leader 0
offers logs.d kepoch predict l
offers 00000000000000000000.log kepoch plan 0
offers logs.d kepoch diff --metadata l
offers logs.d kepoch partition inspect --metadata l
offers leader-epoch-checkpoint kepoch cluster describe --command-config le
# A directory argument offers directories, not files.
[[ -z $(complete_words kepoch logdir scan 00) ]] || fail "logdir scan offers a file"

# Profile names, from the config file.
offers prod-eu kepoch cluster describe --cluster ""
offers staging kepoch cluster describe --cluster st
offers prod-eu kepoch cluster watch --cluster p
offers staging kepoch profile use ""
offers prod-eu kepoch profile show p
[[ $(complete_words kepoch profile use pr) == prod-eu ]] || fail "profile use pr<TAB>: $(complete_words kepoch profile use pr)"
# No config file: no names, and no error text offered.
rm "$SCRATCH/xdg/kepoch/config.yaml"
[[ -z $(complete_words kepoch profile use "") ]] || fail "names offered without a config file"

# zsh and fish are generated from the same tree: they ask for the names the same way.
grep -q 'profile list --names' "$KEPOCH_SOURCE_DIR/completions/_kepoch" || fail "zsh: no profile names"
grep -q "profile list --names" "$KEPOCH_SOURCE_DIR/completions/kepoch.fish" || fail "fish: no profile names"
grep -qF "metadata dump'\\''' -F" "$KEPOCH_SOURCE_DIR/completions/kepoch.fish" ||
  fail "fish: metadata dump completes no paths"
echo ok
