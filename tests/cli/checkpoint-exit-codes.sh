#!/usr/bin/env bash
# The documented exit codes of `checkpoint validate` and `dump`: 0 valid, 1 invalid
# (--strict: warnings too), 3 cannot be judged; the highest wins.
. "$(dirname "$0")/common.sh"

mkdir -p "$SCRATCH/t-0" "$SCRATCH/empty/t-0" "$SCRATCH/bad/t-0"
printf '0\n2\n0 0\n3 10\n' > "$SCRATCH/t-0/leader-epoch-checkpoint"
printf '0\n2\n0 0\n3 x\n' > "$SCRATCH/bad/t-0/leader-epoch-checkpoint"
printf '0\n1\n0 0   \n' > "$SCRATCH/empty/leader-epoch-checkpoint"
touch "$SCRATCH/empty/t-0/00000000000000000000.log"

expect_exit 0 "$KEPOCH" checkpoint validate "$SCRATCH/t-0"
expect_exit 0 "$KEPOCH" checkpoint dump "$SCRATCH/t-0/leader-epoch-checkpoint"
expect_exit 1 "$KEPOCH" checkpoint validate "$SCRATCH/bad/t-0/leader-epoch-checkpoint"
expect_exit 1 "$KEPOCH" checkpoint dump "$SCRATCH/bad"

# Warnings alone leave the file valid unless --strict.
expect_exit 0 "$KEPOCH" checkpoint validate "$SCRATCH/empty/leader-epoch-checkpoint"
expect_exit 1 "$KEPOCH" checkpoint validate --strict "$SCRATCH/empty/leader-epoch-checkpoint"

# Inputs that cannot be judged: exit 3 with the path in one line.
expect_exit 3 "$KEPOCH" checkpoint validate "$SCRATCH/missing"
expect_in "$SCRATCH/err" "$SCRATCH/missing: no such file or directory"
[[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || fail "expected a one-line error"
expect_exit 3 "$KEPOCH" checkpoint validate "$SCRATCH/empty/t-0"
expect_in "$SCRATCH/err" "no checkpoint files in this directory"
expect_exit 3 "$KEPOCH" checkpoint validate "$SCRATCH/empty/t-0/00000000000000000000.log"
expect_in "$SCRATCH/err" "cannot tell which checkpoint file"
head -c 70000000 /dev/zero > "$SCRATCH/leader-epoch-checkpoint.big"
cp "$SCRATCH/leader-epoch-checkpoint.big" "$SCRATCH/t-0/cleaner-offset-checkpoint"
expect_exit 3 "$KEPOCH" checkpoint validate "$SCRATCH/t-0/cleaner-offset-checkpoint"
expect_in "$SCRATCH/err" "larger than"
rm "$SCRATCH/t-0/cleaner-offset-checkpoint"
mkfifo "$SCRATCH/t-0/replication-offset-checkpoint"
expect_exit 3 timeout 10 "$KEPOCH" checkpoint validate "$SCRATCH/t-0/replication-offset-checkpoint"
expect_in "$SCRATCH/err" "not a regular file"
rm "$SCRATCH/t-0/replication-offset-checkpoint"

# An invalid file and an unreadable one: both reported, exit 3.
expect_exit 3 "$KEPOCH" checkpoint validate "$SCRATCH/bad" "$SCRATCH/missing"
expect_in "$SCRATCH/out" "startup-fatal"
expect_in "$SCRATCH/err" "missing"

# Permission denied. Root reads any file, so as root kepoch runs as nobody (setpriv); the
# scratch dir is opened to others for that, and the same file is first read as that user
# while it is readable, so that the denial comes from the file's mode, not from the path.
as_user=()
if [[ $(id -u) -eq 0 ]]; then
  command -v setpriv >/dev/null || fail "setpriv (util-linux) is needed to test permission denied as root"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  chmod 755 "$SCRATCH" "$SCRATCH/t-0"
fi
chmod 644 "$SCRATCH/t-0/leader-epoch-checkpoint"
expect_exit 0 "${as_user[@]}" "$KEPOCH" checkpoint validate "$SCRATCH/t-0/leader-epoch-checkpoint"
chmod 000 "$SCRATCH/t-0/leader-epoch-checkpoint"
expect_exit 3 "${as_user[@]}" "$KEPOCH" checkpoint validate "$SCRATCH/t-0/leader-epoch-checkpoint"
expect_in "$SCRATCH/err" "$SCRATCH/t-0/leader-epoch-checkpoint: permission denied"
