#!/usr/bin/env bash
# `logdir scan` over broker 1's real log dir (Kafka 4.1.1): clean, the same JSON whatever the
# number of jobs; a copy with a flipped payload byte names the partition and the file; a
# missing or empty log dir is an input error. Positions come from `segment dump -o json`.
. "$(dirname "$0")/common.sh"

logdir="$DATA/logdir"
mapfile -t pdirs < <(find "$logdir" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
[[ ${#pdirs[@]} -ge 2 ]] || fail "expected the committed logdir fixture, found ${#pdirs[@]} dirs"

# --- The real log dir scans clean, every partition dir counted, root checkpoints valid.
expect_exit 0 "$KEPOCH" logdir scan -o json --all "$logdir"
[[ $(json "$SCRATCH/out" "d['log_dirs'][0]['partitions']") == "${#pdirs[@]}" ]] ||
  fail "expected ${#pdirs[@]} partitions"
[[ $(json "$SCRATCH/out" "(d['log_dirs'][0]['with_errors'], d['log_dirs'][0]['with_warnings'], d['log_dirs'][0]['checkpoints_valid'])") == "(0, 0, True)" ]] ||
  fail "the real log dir should scan clean"
[[ $(json "$SCRATCH/out" "' '.join(p['name'] for p in d['log_dirs'][0]['partitions_report'])") == "${pdirs[*]}" ]] ||
  fail "--all should list every partition dir in name order"
t_leo=$(json "$SCRATCH/out" "[p['log_end_offset'] for p in d['log_dirs'][0]['partitions_report'] if p['name'] == 't-0'][0]")
[[ $t_leo -eq 10 ]] || fail "t-0 log end offset $t_leo, expected 10"
[[ $(json "$SCRATCH/out" "[k for k in ('dir', 'topic', 'partition', 'log_end_offset', 'errors', 'warnings', 'first_error') if k not in d['log_dirs'][0]['partitions_report'][0]]") == "[]" ]] ||
  fail "missing partitions_report fields"
# Without --all only partitions with problems are listed: none here.
expect_exit 0 "$KEPOCH" logdir scan -o json "$logdir"
[[ $(json "$SCRATCH/out" "d['log_dirs'][0]['partitions_report']") == "[]" ]] || fail "nothing to list"
# No progress bar when stderr is not a terminal.
[[ ! -s "$SCRATCH/err" ]] || { cat "$SCRATCH/err"; fail "stderr should be empty"; }
# Table output.
expect_exit 0 "$KEPOCH" logdir scan --all "$logdir"
expect_in "$SCRATCH/out" "checkpoints_valid"
expect_in "$SCRATCH/out" "t-0"
echo "real log dir: ${#pdirs[@]} partitions, clean"

# --- The same JSON with one job and with two, and with the log dir twice (two log dirs).
expect_exit 0 "$KEPOCH" logdir scan -o json --all --jobs 1 "$logdir" "$DATA/metadata"
cp "$SCRATCH/out" "$SCRATCH/jobs1.json"
expect_exit 0 "$KEPOCH" logdir scan -o json --all --jobs 2 "$logdir" "$DATA/metadata"
cmp -s "$SCRATCH/jobs1.json" "$SCRATCH/out" || { diff "$SCRATCH/jobs1.json" "$SCRATCH/out"; fail "--jobs 1 and --jobs 2 differ"; }
[[ $(json "$SCRATCH/out" "[(l['dir'].split('/')[-1], l['partitions']) for l in d['log_dirs']]") == "[('logdir', ${#pdirs[@]}), ('metadata', 1)]" ]] ||
  fail "log dirs out of argument order"
expect_in "$SCRATCH/out" "KRaft metadata log"
expect_exit 2 "$KEPOCH" logdir scan --jobs 0 "$logdir"

# --- A copy with a flipped payload byte in batch 2 of t-0.
seg=00000000000000000000.log
"$KEPOCH" segment dump -o json "$logdir/t-0/$seg" >"$SCRATCH/seg.json"
pos=$(json "$SCRATCH/seg.json" "d[0]['batches'][2]['position']")
size=$(json "$SCRATCH/seg.json" "d[0]['batches'][2]['size']")
[[ $pos -gt 0 && $size -gt 70 ]] || fail "unexpected fixture: batch 2 at $pos, size $size"
cp -a "$logdir" "$SCRATCH/damaged"
python3 - "$SCRATCH/damaged/t-0/$seg" "$((pos + 70))" <<'PY'
import sys
path, at = sys.argv[1], int(sys.argv[2])
b = bytearray(open(path, 'rb').read()); b[at] ^= 0x01; open(path, 'wb').write(b)
PY
expect_exit 1 "$KEPOCH" logdir scan -o json "$SCRATCH/damaged"
[[ $(json "$SCRATCH/out" "(d['log_dirs'][0]['partitions'], d['log_dirs'][0]['with_errors'])") == "(${#pdirs[@]}, 1)" ]] ||
  fail "expected one partition with errors"
[[ $(json "$SCRATCH/out" "[(p['name'], p['first_error_file'], p['first_error_position'], p['recovery_truncate_to_offset']) for p in d['log_dirs'][0]['partitions_report']]") == "[('t-0', '$seg', $pos, 2)]" ]] ||
  fail "expected t-0 $seg at byte $pos, recovery to offset 2"
expect_in "$SCRATCH/out" "Record is corrupt"
expect_exit 1 "$KEPOCH" logdir scan "$SCRATCH/damaged"
expect_in "$SCRATCH/out" "t-0"
expect_in "$SCRATCH/out" "$seg@$pos"
echo "damaged copy: t-0 $seg byte $pos reported"

# --- A damaged root checkpoint makes checkpoints_valid false and the exit 1.
cp -a "$logdir" "$SCRATCH/badcp"
printf '0\nnot-a-number\n' >"$SCRATCH/badcp/recovery-point-offset-checkpoint"
expect_exit 1 "$KEPOCH" logdir scan -o json "$SCRATCH/badcp"
[[ $(json "$SCRATCH/out" "(d['log_dirs'][0]['checkpoints_valid'], d['log_dirs'][0]['with_errors'])") == "(False, 0)" ]] ||
  fail "a bad root checkpoint should be reported"

# --- A partition dir Kafka would not load counts as a partition with errors.
cp -a "$logdir" "$SCRATCH/badpart"
printf 'garbage\n' >"$SCRATCH/badpart/t-0/leader-epoch-checkpoint"
expect_exit 1 "$KEPOCH" logdir scan -o json "$SCRATCH/badpart"
[[ $(json "$SCRATCH/out" "[(p['name'], p['errors'], p['log_end_offset']) for p in d['log_dirs'][0]['partitions_report']]") == "[('t-0', 1, None)]" ]] ||
  fail "an unloadable partition dir should be one error"
expect_in "$SCRATCH/out" "leader-epoch-checkpoint"

# --- LogManager.loadLogs skips remote-log-index-cache (a note); any other directory whose
# name UnifiedLog.parseTopicPartitionName refuses (lost+found) throws a KafkaException that
# stops the broker: an error, exit 1, and not counted as a partition.
cp -a "$logdir" "$SCRATCH/extra"
mkdir "$SCRATCH/extra/remote-log-index-cache"
expect_exit 0 "$KEPOCH" logdir scan -o json "$SCRATCH/extra"
expect_in "$SCRATCH/out" "remote-log-index-cache: skipped"
mkdir "$SCRATCH/extra/lost+found"
expect_exit 1 "$KEPOCH" logdir scan -o json "$SCRATCH/extra"
[[ $(json "$SCRATCH/out" "d['log_dirs'][0]['partitions']") == "${#pdirs[@]}" ]] || fail "extra dirs counted"
[[ $(json "$SCRATCH/out" "d['log_dirs'][0]['problems'][0]['severity']") == error ]] || fail "lost+found not an error"
[[ $(json "$SCRATCH/out" "d['log_dirs'][0]['problems'][0]['kafka_outcome']") == startup-fatal ]] || fail "lost+found not startup-fatal"
expect_in "$SCRATCH/out" "'lost+found' is not in the form of topic-partition"
expect_in "$SCRATCH/out" "Kafka does not start on this log dir"

# --- Missing and empty log dirs: exit 3, one line naming the dir.
mkdir "$SCRATCH/empty"
for bad in "$SCRATCH/missing" "$SCRATCH/empty"; do
  expect_exit 3 "$KEPOCH" logdir scan "$bad"
  [[ $(wc -l <"$SCRATCH/err") -eq 1 ]] || { cat "$SCRATCH/err"; fail "expected a one-line error"; }
  expect_in "$SCRATCH/err" "$bad"
  [[ ! -s "$SCRATCH/out" ]] || fail "nothing on stdout for $bad"
done
# One good and one missing: the good one is reported, the exit is 3.
expect_exit 3 "$KEPOCH" logdir scan -o json "$logdir" "$SCRATCH/missing"
[[ $(json "$SCRATCH/out" "len(d['log_dirs'])") == 1 ]] || fail "the readable log dir should be reported"
echo "missing/empty log dirs: exit 3"
