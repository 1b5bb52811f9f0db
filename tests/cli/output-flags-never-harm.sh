#!/usr/bin/env bash
# Every output flag of every command (diff/predict/plan/metadata history --html, plan
# --out-dir, logdir snapshot --file, the config `profile use` edits) pointed at each of the
# command's own inputs (the file, a symbolic link to it, a hard link to it), into a log dir
# and a partition dir, over a file kepoch did not write, and at a FIFO: refused with exit 2
# and one line naming the flag, or written where it may be; afterwards the sha256 of every
# input file and the listing of every input tree are what they were (storage/output_target's
# rule, through apps/kepoch/output_file.cpp).
. "$(dirname "$0")/common.sh"
cd "$SCRATCH"

cp -r "$DATA/divergence/before" in
cp -r "$DATA/metadata" m
chmod -R u+w in m
for b in 1 2 3; do "$KEPOCH" logdir snapshot "in/broker-$b" --file "s$b.snap" >/dev/null; done
ln -s s1.snap soft.snap
ln s1.snap hard.snap
ln -s in/broker-1/replication-offset-checkpoint cp-link
printf 'my notes\n' >notes.txt

inputs() {  # the listing and hashes of everything a run reads
  find in m s1.snap s2.snap s3.snap notes.txt -printf '%p %y %s %m\n' | LC_ALL=C sort
  find in m s1.snap s2.snap s3.snap notes.txt -type f -exec sha256sum {} + | LC_ALL=C sort -k2
}
inputs >before

refused=0
# refuse WHY CMD...: exit 2, one line on stderr naming the refusal, nothing on stdout.
refuse() {
  local why=$1
  shift
  expect_exit 2 "$KEPOCH" "$@"
  expect_in "$SCRATCH/err" "$why"
  [[ $(grep -c . "$SCRATCH/err") == 1 ]] || fail "more than one line on stderr: kepoch $*"
  refused=$((refused + 1))
}

D=(in/broker-1/d-0 in/broker-2/d-0 in/broker-3/d-0)
S=(s1.snap s2.snap s3.snap)
PLAN=(--ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3)
# Each command with its inputs; the output flag goes in front of them.
cmds=(
  "diff ${D[*]}"
  "diff ${S[*]}"
  "predict --leader ${D[1]} ${D[0]} ${D[2]}"
  "predict --leader s2.snap s1.snap s3.snap"
  "predict --elect --ids 1,2,3 --isr 1 --alive 2,3 ${D[*]}"
  "plan ${PLAN[*]} in/broker-1 in/broker-2 in/broker-3"
  "plan ${PLAN[*]} ${S[*]}"
  "metadata history m"
)
for c in "${cmds[@]}"; do
  read -ra argv <<<"$c"
  sub=("${argv[@]:0:1}")
  [[ ${argv[0]} == metadata ]] && sub=(metadata history) && argv=("${argv[@]:1}")
  args=("${argv[@]:1}")
  # The command's own inputs: each file, links to one, a file inside each dir.
  for a in "${args[@]}"; do
    [[ $a == -* || $a =~ ^[0-9,]+$ ]] && continue
    if [[ -f $a ]]; then
      refuse "an input of this run" "${sub[@]}" --html "$a" "${args[@]}"
    elif [[ -d $a ]]; then
      refuse "is inside" "${sub[@]}" --html "$a/p.html" "${args[@]}"
    fi
  done
  [[ " ${args[*]} " == *" s1.snap "* ]] && {
    refuse "the same file as s1.snap" "${sub[@]}" --html soft.snap "${args[@]}"
    refuse "the same file as s1.snap" "${sub[@]}" --overwrite --html hard.snap "${args[@]}"
  }
  # Into a log dir and a partition dir none of the inputs is in; through a link into one.
  refuse "is inside the log dir" "${sub[@]}" --html "$DATA/logdir/p.html" "${args[@]}"
  refuse "is inside the log dir" "${sub[@]}" --html "$DATA/logdir/t-0/p.html" "${args[@]}"
  refuse "is inside the log dir" "${sub[@]}" --html m/__cluster_metadata-0/p.html "${args[@]}"
  refuse "is inside the log dir" "${sub[@]}" --overwrite --html cp-link "${args[@]}"
  # Over a file kepoch did not write (issue 33: `diff --html b1.snap b2.snap b3.snap`).
  refuse "exists and is not an HTML page kepoch wrote" "${sub[@]}" --html notes.txt "${args[@]}"
  # A page goes where it may; the next run replaces the page kepoch wrote, without asking.
  rm -f page.html
  for pass in 1 2; do
    got=0
    "$KEPOCH" "${sub[@]}" --html page.html "${args[@]}" >/dev/null 2>err || got=$?
    ((got <= 1)) || { cat err; fail "exit $got writing page.html: kepoch ${sub[*]} --html page.html ${args[*]}"; }
    expect_in page.html "Drawn by kepoch"
  done
done
# The issue's case itself: the page's name forgotten, the first snapshot taken for it.
refuse "exists and is not an HTML page kepoch wrote" diff --html s1.snap s2.snap s3.snap

# plan --out-dir: at a log dir, a partition dir, a dir the run reads, over files not a plan's.
refuse "is inside the log dir" plan "${PLAN[@]}" --out-dir in/broker-1 in/broker-1 in/broker-2 in/broker-3
refuse "is inside the log dir" plan "${PLAN[@]}" --out-dir in/broker-1/d-0 "${S[@]}"
refuse "is inside the log dir" plan "${PLAN[@]}" --out-dir "$DATA/logdir/steps" "${S[@]}"
mkdir mine && printf 'echo mine\n' >mine/steps.sh
refuse "exists and is not a plan" plan "${PLAN[@]}" --out-dir mine "${S[@]}"
expect_in mine/steps.sh "echo mine"
expect_exit 1 "$KEPOCH" plan "${PLAN[@]}" --out-dir steps "${S[@]}"
expect_exit 1 "$KEPOCH" plan "${PLAN[@]}" --out-dir steps "${S[@]}"  # its own: replaced
expect_in steps/steps.sh "# kepoch plan:"

# logdir snapshot --file: into its log dir, at its own files, through a link into it.
refuse "is inside the log dir" logdir snapshot in/broker-1 --file in/broker-1/x.snap
refuse "is inside the log dir" logdir snapshot in/broker-1 --file in/broker-1/replication-offset-checkpoint
refuse "is inside the log dir" logdir snapshot in/broker-1 --overwrite --file cp-link
refuse "is inside the log dir" logdir snapshot in/broker-1 --file in/broker-2/x.snap
refuse "exists and is not a log dir snapshot kepoch wrote" logdir snapshot in/broker-1 --file notes.txt
expect_exit 0 "$KEPOCH" logdir snapshot in/broker-1 --file s9.snap
expect_exit 0 "$KEPOCH" logdir snapshot in/broker-1 --file s9.snap  # its own: replaced
# A symbolic link to a new file: the link stays, its target is written.
ln -s target.snap link.snap
expect_exit 0 "$KEPOCH" logdir snapshot in/broker-1 --file link.snap
[[ -L link.snap && -s target.snap ]] || fail "the link was replaced, not written through"

# A FIFO as the output: said on stderr, written once a reader comes (no silent hang).
mkfifo out.fifo
( sleep 1; cat out.fifo >fifo.got ) &
reader=$!
expect_exit 0 timeout 20 "$KEPOCH" logdir snapshot in/broker-1 --file out.fifo
wait "$reader"
expect_in "$SCRATCH/err" "out.fifo: a FIFO nobody reads yet: waiting for a reader"
expect_in fifo.got '"format":"kepoch-logdir-snapshot"'

# An open descriptor named as a file (/dev/stdout: a pipe, or the file the shell redirects
# to): written in place, the table after the page.
{ "$KEPOCH" diff --html /dev/stdout "${D[@]}" || true; } | cat >stdout.page
expect_in stdout.page "Drawn by kepoch"
expect_in stdout.page "have diverged"
{ "$KEPOCH" diff --html /dev/stdout "${D[@]}" || true; } >stdout.file
expect_in stdout.file "Drawn by kepoch"
expect_in stdout.file "have diverged"

# --overwrite replaces a file kepoch did not write (never an input: above).
cp notes.txt other.txt
expect_exit 0 "$KEPOCH" --overwrite logdir snapshot in/broker-1 --file other.txt
expect_in other.txt "kepoch-logdir-snapshot"

# profile use: a symbolic link to the config (a dotfiles repo) is edited through its target.
mkdir -p xdg/kepoch dotfiles
printf 'clusters:\n  a:\n    bootstrap: "h1:9092"\n  b:\n    bootstrap: "h2:9092"\n' >dotfiles/config.yaml
chmod 600 dotfiles/config.yaml
ln -s ../../dotfiles/config.yaml xdg/kepoch/config.yaml
XDG_CONFIG_HOME="$SCRATCH/xdg" expect_exit 0 "$KEPOCH" profile use b
[[ -L xdg/kepoch/config.yaml ]] || fail "profile use replaced the symbolic link with a file"
expect_in dotfiles/config.yaml "current_profile: b"
[[ $(stat -c %a dotfiles/config.yaml) == 600 ]] || fail "profile use changed the config's mode"
# ... and never into a log dir.
mkdir -p bad/kepoch && cp -r "$DATA/logdir/." bad/kepoch/ && chmod -R u+w bad
cp dotfiles/config.yaml bad/kepoch/config.yaml
XDG_CONFIG_HOME="$SCRATCH/bad" expect_exit 2 "$KEPOCH" profile use a
expect_in "$SCRATCH/err" "is inside the log dir"

# salvage --archive and replay --progress go through the same rule.
SALV=(--leader in/broker-2/d-0 in/broker-1/d-0)
refuse "is inside" salvage --archive in/broker-1/d-0/00000000000000000000.log "${SALV[@]}"
refuse "is inside" salvage --archive in/broker-1/replication-offset-checkpoint "${SALV[@]}"
refuse "is inside" salvage --archive in/broker-2/x.jsonl "${SALV[@]}"
refuse "is inside the log dir" salvage --archive "$DATA/logdir/x.jsonl" "${SALV[@]}"
refuse "is inside the log dir" salvage --overwrite --archive cp-link "${SALV[@]}"
refuse "exists and is not a salvage archive kepoch wrote" salvage --archive notes.txt "${SALV[@]}"
expect_exit 1 "$KEPOCH" salvage --archive lost.jsonl "${SALV[@]}"
expect_exit 1 "$KEPOCH" salvage --archive lost.jsonl "${SALV[@]}"  # its own: replaced
refuse "exists and is not a replay progress file kepoch wrote" replay --progress notes.txt -b 127.0.0.1:1 lost.jsonl
refuse "is inside the log dir" replay --progress "$DATA/logdir/p" -b 127.0.0.1:1 lost.jsonl
refuse "an input of this run" replay --progress lost.jsonl -b 127.0.0.1:1 lost.jsonl
inputs >after
if ! cmp -s before after; then
  diff before after | head -20
  fail "an input changed"
fi
((refused >= 60)) || fail "only $refused refusals ran"
echo "output flags: $refused refusals, every input unchanged ($(grep -c . before) lines of listing and hashes)"
