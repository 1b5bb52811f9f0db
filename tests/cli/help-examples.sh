#!/usr/bin/env bash
# Every example in `--help` (the whole command tree: kepoch, each subcommand, each nested one)
# and in the man pages runs (issue 38). The test builds the world the examples name, from the
# bundled fixtures (all written by real Kafka; renamed copies where an example names another
# topic or dir), in a scratch dir, and runs each example there as a shell line: absolute paths
# move under the scratch dir, `kepoch` is the built binary, HOME and XDG_CONFIG_HOME are the
# scratch dir's (a profile "prod"), ssh runs its command here.
#   - An example marked "# live" talks to a cluster. It runs with its brokers pointed at a
#     port nothing listens on (127.0.0.1:1, also profile prod's): it must parse (never usage
#     error 2) and fail to connect, exit 4, the documented "cluster cannot be reached".
#   - Every other example exits 0 or 1 (a finding), never 2 (usage), 3 (an input it could
#     not read: the world is wrong, or the example is), 4 or a crash. Its table output opens
#     with a sentence, and with -o json its `summary` says the same words (verdict_agrees,
#     shared with readme-commands.sh); an example written with -o json/yaml is checked as
#     the table it stands for. This holds for every example of a single kepoch command that
#     has a JSON form: the verdicts (checkpoint validate, segment dump, partition verify,
#     logdir scan, diff, predict, plan, salvage, replay, metadata history), the dumps and
#     inspections (checkpoint dump, segment dump of an index or a producer snapshot,
#     partition inspect, metadata dump) and simulate alike: every example of a single
#     kepoch command but those in $no_summary (completion and version have no JSON form),
#     and pipelines, which are held to running. (The live examples exit 4, checked above.)
. "$(dirname "$0")/common.sh"

W="$SCRATCH/world"
mkdir -p "$W"/{tmp,root,data,mnt,var/lib/kafka,config/kepoch}
B="$DATA/divergence/before"
F="$DATA/consumer-fate"

# merge_checkpoints DIR SRC: DIR's log dir checkpoints with SRC's entries added.
merge_checkpoints() {
  python3 - "$1" "$2" <<'PY'
import os, sys
for f in ("replication-offset-checkpoint", "recovery-point-offset-checkpoint", "log-start-offset-checkpoint"):
    dst, src = os.path.join(sys.argv[1], f), os.path.join(sys.argv[2], f)
    if not os.path.exists(src):
        continue
    entries = open(dst).read().splitlines()[2:] + open(src).read().splitlines()[2:]
    open(dst, "w").write("0\n%d\n" % len(entries) + "".join(e + "\n" for e in entries))
PY
}
# b1, b2, b3: the brokers' log dirs of the divergence fixture, topic d renamed orders (the
# partition dir and its checkpoint entries); b1 and b2 also hold the consumer-fate fixture's
# f-0 (b1 with its __consumer_offsets partitions), b3 a transaction coordinator's and a
# tiered cluster's metadata partitions.
for n in 1 2 3; do
  cp -r "$B/broker-$n" "$W/b$n"
  mv "$W/b$n/d-0" "$W/b$n/orders-0"
  sed -i 's/^d 0 /orders 0 /' "$W/b$n"/*-checkpoint
  ln -s "b$n" "$W/broker-$n"
  # A broker's log dir names its broker and cluster (the divergence fixture's copies left
  # them out): the cluster of the controller's log in meta/.
  sed "s/^node.id=.*/node.id=$n/; /^directory.id=/d; s/^cluster.id=.*/$(grep '^cluster.id=' "$DATA/metadata/meta.properties")/" \
    "$F/broker-1/meta.properties" >"$W/b$n/meta.properties"
done
cp -r "$F/broker-1"/{f-0,__consumer_offsets-0,__consumer_offsets-1,__consumer_offsets-2} "$W/b1/"
merge_checkpoints "$W/b1" "$F/broker-1"
cp -r "$F/broker-2/f-0" "$W/b2/"
merge_checkpoints "$W/b2" "$F/broker-2"
cp -r "$DATA/coordinator/4.4.0"/__transaction_state-{0,1} "$DATA/tiered/kafka-4.4.0"/__remote_log_metadata-{0,1} "$W/b3/"
ln -s ../../../b1 "$W/var/lib/kafka/data"
ln -s ../b1 "$W/data/kafka-1"
ln -s ../b2 "$W/data/kafka-2"
mkdir -p "$W/mnt/broker-3" && ln -s ../../b3 "$W/mnt/broker-3/data"
# /data holds partition dirs as an operator's copies (the world's top dir holds none: it
# would be a log dir, and kepoch writes nothing into one).
ln -s ../b1/orders-0 "$W/data/orders-0"
cp -r "$DATA/tiered/kafka-4.4.0/__remote_log_metadata-0" "$W/data/__remote_log_metadata-7"
cp -r "$F/broker-1/__consumer_offsets-0" "$W/data/__consumer_offsets-7"
cp -r "$DATA/coordinator/4.4.0/__transaction_state-0" "$W/data/__transaction_state-0"
# The controller's metadata log: run A's (meta, controller), and one with snapshots
# (/var/lib/kafka/meta).
cp -r "$DATA/metadata" "$W/meta"
ln -s meta "$W/controller"
mkdir -p "$W/var/lib/kafka/meta"
cp -r "$DATA/metadata-snapshot/__cluster_metadata-0" "$W/var/lib/kafka/meta/"
ln -s "$KEPOCH_SOURCE_DIR/examples" "$W/examples"
printf 'clusters:\n  prod:\n    bootstrap: "127.0.0.1:1"\n' >"$W/config/kepoch/config.yaml"
printf 'security.protocol=PLAINTEXT\n' >"$W/admin.properties"
for n in 1 2 3; do
  "$KEPOCH" logdir snapshot "$W/b$n" --file "$W/b$n.snap" >/dev/null 2>&1 || fail "snapshot of b$n"
  ln -s "b$n.snap" "$W/broker-$n.snap"
done
"$KEPOCH" salvage --archive "$W/lost.jsonl" --leader "$W/b2/orders-0" "$W/b1/orders-0" >/dev/null 2>&1 || (($? == 1)) ||
  fail "the salvage archive the replay examples read"

# The command tree, from --help, and each page's examples (the indented lines after
# "Examples:"), then the man pages' EXAMPLES.
subcommands() { "$KEPOCH" "$@" --help | awk '/^Subcommands:/{f=1;next} f&&/^  [a-z]/{print $1} f&&/^$/{f=0}'; }
examples_of() { "$KEPOCH" "$@" --help | awk '/^Examples:/{f=1;next} f&&/^  /{sub(/^  /,""); print; next} {f=0}'; }
pages=("")
for top in $(subcommands); do
  pages+=("$top")
  for sub in $(subcommands "$top"); do pages+=("$top $sub"); done
done
: >"$SCRATCH/examples"
for page in "${pages[@]}"; do
  # shellcheck disable=SC2086
  n=$(examples_of $page | tee -a "$SCRATCH/examples.raw" | while IFS= read -r line; do printf 'kepoch %s --help\t%s\n' "$page" "$line"; done | tee -a "$SCRATCH/examples" | wc -l)
  # Every command has one (a group may show its subcommands' instead).
  # shellcheck disable=SC2086
  ((n > 0)) || [[ -n $(subcommands $page) ]] || fail "kepoch $page --help has no example"
done
for man in "$KEPOCH_SOURCE_DIR"/man/*.1; do
  awk -v m="$(basename "$man")" '/^\.SH EXAMPLES/{f=1;next} f&&/^\.SH/{f=0} f&&!/^\./{print m "\t" $0}' "$man" >>"$SCRATCH/examples"
done
total=$(wc -l <"$SCRATCH/examples")
((total >= 80)) || fail "only $total examples found in --help and the man pages"

kepoch() { "$KEPOCH" "$@"; }
ssh() { shift; "$@"; }  # `ssh HOST CMD`: CMD, here
fpath=("$W/zsh" "$W/zsh")  # zsh's $fpath[1] (bash reads index 1 of the same array)
mkdir -p "$W/zsh" "$W/.config/fish/completions"
export HOME="$W" XDG_CONFIG_HOME="$W/config"
cd "$W"
ran=0 live=0 verdicts=0
no_summary='completion|version'

declare -A seen
while IFS=$'\t' read -r page example; do
  cmd=$example
  marked=0
  if [[ $cmd =~ ^(.*[^ ])\ \ +#\ *(.*)$ ]]; then
    cmd=${BASH_REMATCH[1]}
    [[ ${BASH_REMATCH[2]} == live ]] && marked=1
  fi
  [[ -n ${seen[$cmd]:-} ]] && continue
  seen[$cmd]=1
  # Absolute paths into the world; brokers to a port nothing listens on.
  run=$(sed -E "s#(^| |=|\\()/(var|data|mnt|root|tmp)/#\\1$W/\\2/#g; s#[a-z0-9.-]+:909[0-9]#127.0.0.1:1#g" <<<"$cmd")
  if [[ $run == jq\ * ]] && ! command -v jq >/dev/null; then echo "skipped (no jq): $cmd"; continue; fi
  rm -f "$W"/*.progress  # each example starts afresh (a replay's progress file ties it to its target)
  rc=0
  (set -o pipefail; eval "$run") >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null || rc=$?
  if ((marked)); then
    if ((rc != 4)); then
      echo "--- stderr"; head -5 "$SCRATCH/err"
      fail "$page: a live example should parse and find no cluster (exit 4), exit $rc: $cmd"
    fi
    # The failure is said on stderr (or, by replay, in its report: nothing delivered).
    # Files given to grep, not piped from cat: with pipefail, grep -q leaving at the first
    # match while cat still writes the second file would fail the check (SIGPIPE).
    grep -qiE "cannot connect|connection refused|cannot be reached|could not be delivered" \
      "$SCRATCH/err" "$SCRATCH/out" ||
      { cat "$SCRATCH/err"; fail "$page: exit 4 without the connection failure: $cmd"; }
    live=$((live + 1))
    echo "ok (live, exit 4): $page: $cmd"
  else
    if ((rc > 1)); then
      echo "--- stdout"; head -5 "$SCRATCH/out"; echo "--- stderr"; head -5 "$SCRATCH/err"
      fail "$page: example exited $rc: $cmd"
    fi
    echo "ok ($rc): $page: $cmd"
    # The verdict: the table a single kepoch command prints (an example written with -o
    # json/yaml is checked as its table).
    table=$(sed -E 's/ -o (json|yaml|jsonl)( |$)/\2/' <<<"$run")
    # Every single kepoch command but those that print no report with a summary yet.
    if [[ $table =~ ^kepoch\  && ! $table =~ ^kepoch\ ($no_summary)(\ |$) &&
          $table != *"|"* && $table != *">"* && $table != *"&&"* ]]; then
      if [[ $table != "$run" ]]; then
        (eval "$table") >"$SCRATCH/out" 2>/dev/null || (($? <= 1)) || fail "$page: the table form failed: $table"
      fi
      verdict_agrees "$page" "$table"
      verdicts=$((verdicts + 1))
    fi
  fi
  ran=$((ran + 1))
done <"$SCRATCH/examples"
((live >= 15)) || fail "only $live live examples checked"
((verdicts >= 55)) || fail "only $verdicts examples' verdicts checked"
echo "ok: $ran examples of --help and the man pages ran ($live live ones parsed and found no cluster); $verdicts open with a verdict that -o json's summary repeats"
