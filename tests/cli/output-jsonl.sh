#!/usr/bin/env bash
# `-o jsonl` (JSON lines): every line of every output is one JSON object. Streaming outputs
# write one line per element carrying its item's id ({"file", "batch"} per batch of a
# segment, {"file", "entry"} per index or checkpoint entry, {"dir", "partition"} per partition
# of a log dir) and one closing line per item; the other reports print their document on one
# line.
. "$(dirname "$0")/common.sh"
SEG="$DATA/transactions/tx-0/00000000000000000000"

every_line_json() {  # every_line_json FILE: prints the parsed lines as a Python list
  python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines, "no output"
print([json.loads(l) for l in lines])' "$1" > "$SCRATCH/lines" || fail "a line of $1 is not JSON"
}
lines() {  # lines PYTHON-EXPR (l is the list of parsed lines)
  python3 -c "import json,sys; l=[json.loads(x) for x in open(sys.argv[1]).read().splitlines()]; print($1)" "$SCRATCH/out"
}

# segment dump: one line per batch, each with its file; one closing line per file.
expect_exit 0 "$KEPOCH" segment dump -o jsonl --records "$SEG.log" "$DATA/codecs/codec-zstd-0/00000000000000000000.log" "$SEG.txnindex"
every_line_json "$SCRATCH/out"
expect_exit 0 "$KEPOCH" segment dump -o json --records "$SEG.log"
batches=$(json "$SCRATCH/out" "len(d[0]['batches'])")
expect_exit 0 "$KEPOCH" segment dump -o jsonl --records "$SEG.log" "$DATA/codecs/codec-zstd-0/00000000000000000000.log" "$SEG.txnindex"
[[ $(lines "sum(x['file'] == '$SEG.log' and 'batch' in x for x in l)") == "$batches" ]] || fail "one line per batch"
[[ $(lines "all('file' in x for x in l)") == True ]] || fail "every line names its file"
[[ $(lines "[x['batch']['records'][0]['control']['type'] for x in l if 'batch' in x and x['batch']['is_control']]") == "['commit', 'abort']" ]] ||
  fail "control records in the lines"
[[ $(lines "[(x['kind'], x['end']) for x in l if 'batch_count' in x]") == "[('log', 'end-of-file'), ('log', 'end-of-file')]" ]] ||
  fail "closing lines"
# The txnindex's entries as lines equal the -o json document's, which must hold some (the
# aborted transaction's), or two empty lists would agree.
cp "$SCRATCH/out" "$SCRATCH/lines.jsonl"
expect_exit 0 "$KEPOCH" segment dump -o json "$SEG.txnindex"
[[ $(json "$SCRATCH/out" "len(d[0]['entries'])") -ge 1 ]] || fail "the txnindex has no entries: $(cat "$SCRATCH/out")"
want=$(json "$SCRATCH/out" "d[0]['entries']")
cp "$SCRATCH/lines.jsonl" "$SCRATCH/out"
[[ $(lines "[x['entry'] for x in l if 'entry' in x]") == "$want" ]] || fail "txnindex entries: $want"

# logdir scan: one line per partition (--all), then one line per log dir.
expect_exit 0 "$KEPOCH" logdir scan --all -o jsonl "$DATA/logdir"
every_line_json "$SCRATCH/out"
[[ $(lines "sorted(x['partition']['name'] for x in l if 'partition' in x)") == "['codec-zstd-0', 't-0']" ]] || fail "partition lines"
[[ $(lines "[(x['dir'], x['partitions']) for x in l if 'partition' not in x]") == "[('$DATA/logdir', 2)]" ]] || fail "log dir line"

# checkpoint dump: one line per entry ({"file", "entry"}), one closing line per file (a
# partition.metadata, which has no entries, is that line alone); the entries are -o json's.
expect_exit 0 "$KEPOCH" checkpoint dump -o jsonl "$DATA/logdir"
every_line_json "$SCRATCH/out"
cp "$SCRATCH/out" "$SCRATCH/lines.jsonl"
expect_exit 0 "$KEPOCH" checkpoint dump -o json "$DATA/logdir"
files=$(json "$SCRATCH/out" "len(d)")
want=$(json "$SCRATCH/out" "sorted((f['file'], json.dumps(e, sort_keys=True)) for f in d for e in f.get('entries', []))")
[[ $want != "[]" ]] || fail "the fixture's checkpoints have no entries"
closing=$(json "$SCRATCH/out" "[{k: v for k, v in f.items() if k != 'entries'} for f in d]")
cp "$SCRATCH/lines.jsonl" "$SCRATCH/out"
[[ $(lines "sorted((x['file'], json.dumps(x['entry'], sort_keys=True)) for x in l if 'entry' in x)") == "$want" ]] ||
  fail "checkpoint entries as lines"
[[ $(lines "[x for x in l if 'entry' not in x]") == "$closing" ]] || fail "closing lines: one per file"
[[ $(lines "sum('entry' not in x for x in l)") == "$files" ]] || fail "one closing line per file"
expect_exit 2 "$KEPOCH" segment dump -o ndjson "$SEG.log"
