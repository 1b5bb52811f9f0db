#!/usr/bin/env bash
# `segment dump` tells each file's kind from its name as Kafka's loader does (leftovers
# .deleted/.cleaned/.swap included), mixes kinds in one call, refuses names of no segment
# kind with a one-line error naming the file (exit 3) unless --kind says, refuses files over
# its size cap, and renders every kind as a table, JSON and YAML.
. "$(dirname "$0")/common.sh"
IX="$KEPOCH_SOURCE_DIR/tests/unit/data/indexes/ix-0"
B=00000000000000000024

# Mixed kinds, one array, in argument order.
expect_exit 0 "$KEPOCH" segment dump -o json "$IX/$B.log" "$IX/$B.index" "$IX/$B.timeindex" "$IX/$B.txnindex" "$IX/$B.snapshot"
[[ $(json "$SCRATCH/out" "[(f['kind'], f['base_offset'], 'batches' in f, len(f.get('entries', f.get('batches'))) ) for f in d]") == "[('log', 24, True, 7), ('index', 24, False, 6), ('timeindex', 24, False, 6), ('txnindex', 24, False, 1), ('snapshot', 24, False, 5)]" ]] ||
  fail "mixed kinds in one call"
cp "$SCRATCH/out" "$SCRATCH/mixed.json"

# Leftovers keep their kind and offset.
mkdir "$SCRATCH/l"
cp "$IX/$B.index" "$SCRATCH/l/$B.index.deleted"
cp "$IX/$B.timeindex" "$SCRATCH/l/$B.timeindex.swap"
cp "$IX/$B.txnindex" "$SCRATCH/l/$B.txnindex.cleaned"
cp "$IX/$B.snapshot" "$SCRATCH/l/$B.snapshot.deleted"
cp "$IX/$B.log" "$SCRATCH/l/$B.log.swap"
expect_exit 0 "$KEPOCH" segment dump -o json "$SCRATCH/l/$B.log.swap" "$SCRATCH/l/$B.index.deleted" "$SCRATCH/l/$B.timeindex.swap" "$SCRATCH/l/$B.txnindex.cleaned" "$SCRATCH/l/$B.snapshot.deleted"
[[ $(json "$SCRATCH/out" "[(f['kind'], f['base_offset']) for f in d]") == "[('log', 24), ('index', 24), ('timeindex', 24), ('txnindex', 24), ('snapshot', 24)]" ]] ||
  fail "leftover names"
[[ $(json "$SCRATCH/out" "[f.get('entries', f.get('batches')) for f in d]") == "$(json "$SCRATCH/mixed.json" "[f.get('entries', f.get('batches')) for f in d]")" ]] ||
  fail "a leftover lists other entries than the file it copies"

# A name of no segment kind: one line naming the file, exit 3, the other files still dumped.
cp "$IX/$B.index" "$SCRATCH/copy.bin"
expect_exit 3 "$KEPOCH" segment dump -o json "$IX/$B.index" "$SCRATCH/copy.bin"
[[ $(json "$SCRATCH/out" "[f['kind'] for f in d]") == "['index']" ]] || fail "the readable file is still dumped"
[[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || fail "expected one line on stderr"
expect_in "$SCRATCH/err" "$SCRATCH/copy.bin: cannot tell the kind of segment file from its name"
expect_in "$SCRATCH/err" "use --kind"
# --kind forces it; an index kind also needs the base offset the name does not give.
expect_exit 3 "$KEPOCH" segment dump --kind index "$SCRATCH/copy.bin"
expect_in "$SCRATCH/err" "$SCRATCH/copy.bin: cannot tell the segment base offset from the name"
expect_exit 0 "$KEPOCH" segment dump -o json --kind index --base-offset 24 "$SCRATCH/copy.bin"
[[ $(json "$SCRATCH/out" "(d[0]['kind'], d[0]['entries'])") == "$(json "$SCRATCH/mixed.json" "('index', d[1]['entries'])")" ]] ||
  fail "--kind index --base-offset 24"
# Forced to the wrong kind, an index is judged as that kind (an index is no snapshot).
expect_exit 1 "$KEPOCH" segment dump -o json --kind snapshot "$SCRATCH/copy.bin"
[[ $(json "$SCRATCH/out" "(d[0]['kind'], d[0]['base_offset'], d[0]['sanity_check'])") == "('snapshot', None, 'Snapshot failed schema validation: Snapshot contained an unknown file version 0')" ]] ||
  fail "--kind snapshot"
# --base-offset moves every offset of an index.
expect_exit 0 "$KEPOCH" segment dump -o json --base-offset 1000 "$IX/$B.index"
[[ $(json "$SCRATCH/out" "d[0]['entries'][0]") == "{'offset': 1001, 'position': 80}" ]] || fail "--base-offset"
expect_exit 2 "$KEPOCH" segment dump --kind nosuchkind "$IX/$B.index"

# Checkpoints are not segment files.
expect_exit 3 "$KEPOCH" segment dump "$DATA/logdir/t-0/leader-epoch-checkpoint"
expect_in "$SCRATCH/err" "leader-epoch-checkpoint: a leader-epoch-checkpoint file, not a segment file (use \`kepoch checkpoint dump\`)"
# Missing file, a directory.
expect_exit 3 "$KEPOCH" segment dump "$SCRATCH/00000000000000000000.index"
expect_in "$SCRATCH/err" "$SCRATCH/00000000000000000000.index"
mkdir "$SCRATCH/00000000000000000000.timeindex"
expect_exit 3 "$KEPOCH" segment dump "$SCRATCH/00000000000000000000.timeindex"
# Over the 1 GiB cap (a sparse file: nothing is allocated): refused before reading.
truncate -s 1025M "$SCRATCH/00000000000000000000.index"
expect_exit 3 "$KEPOCH" segment dump -o json "$SCRATCH/00000000000000000000.index"
expect_in "$SCRATCH/err" "$SCRATCH/00000000000000000000.index: file is 1074790400 bytes, larger than the 1073741824 bytes"
[[ $(cat "$SCRATCH/out") == "[]" ]] || fail "no partial item for a refused file"
rm "$SCRATCH/00000000000000000000.index"
# A preallocated 10 MiB index of zeros (Kafka's default segment.index.bytes): padding only.
truncate -s 10M "$SCRATCH/00000000000000000000.index"
expect_exit 0 "$KEPOCH" segment dump -o json "$SCRATCH/00000000000000000000.index"
[[ $(json "$SCRATCH/out" "(d[0]['entries'], d[0]['entry_count'], d[0]['zero_padding'])") == "([], 1310720, 1310720)" ]] ||
  fail "10 MiB of preallocated index"

# Table form: readable columns per kind, the fields and the trailer (-o wide: every column
# in full; the default table fits 120 columns, table-width.sh).
expect_exit 0 "$KEPOCH" segment dump -o wide "$IX/$B.index" "$IX/$B.timeindex" "$IX/$B.txnindex" "$IX/$B.snapshot"
for head in "OFFSET  POSITION" "TIMESTAMP                 OFFSET" "VERSION  PRODUCER_ID  FIRST_OFFSET  LAST_OFFSET  LAST_STABLE_OFFSET" \
  "PRODUCER_ID  PRODUCER_EPOCH  LAST_SEQUENCE  LAST_OFFSET  OFFSET_DELTA  TIMESTAMP                 COORDINATOR_EPOCH  CURRENT_TXN_FIRST_OFFSET" \
  "  25      80" "  2026-11-29T08:18:40.584Z  25" "  0        2001         23            25           26" \
  "kind            snapshot" "crc_valid       true" "entry_count     6" "zero_padding    0" "sanity_check    -" "problems        none"; do
  expect_in "$SCRATCH/out" "$head"
done
[[ ! -s "$SCRATCH/err" ]] || fail "clean files print nothing on stderr"

# YAML is the same document, its times in ISO 8601 (a YAML timestamp) where JSON has the
# epoch milliseconds and, beside them, <name>_iso.
expect_exit 0 "$KEPOCH" segment dump -o yaml "$IX/$B.log" "$IX/$B.index" "$IX/$B.snapshot"
python3 - "$SCRATCH/out" "$SCRATCH/mixed.json" <<'PY' || fail "YAML and JSON differ"
import datetime, json, sys, yaml
def as_yaml(v):
    if isinstance(v, list):
        return [as_yaml(e) for e in v]
    if not isinstance(v, dict):
        return v
    out = {}
    for k, e in v.items():
        if k.endswith("_iso"):
            continue
        if (k == "timestamp" or k.endswith("_timestamp")) and isinstance(e, int):
            iso = v[k + "_iso"]
            e = None if iso is None else datetime.datetime.fromisoformat(iso.replace("Z", "+00:00"))
        out[k] = as_yaml(e)
    return out
y = yaml.safe_load(open(sys.argv[1]))
j = json.load(open(sys.argv[2]))
sys.exit(y != as_yaml([j[0], j[1], j[4]]))
PY

# --help shows an index example.
expect_exit 0 "$KEPOCH" segment dump --help
expect_in "$SCRATCH/out" "kepoch segment dump /data/orders-0/00000000000000000000.index"
expect_in "$SCRATCH/out" "--kind"
