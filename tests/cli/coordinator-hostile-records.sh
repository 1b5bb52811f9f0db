#!/usr/bin/env bash
# `segment dump --records` of __consumer_offsets and __transaction_state segments whose records
# are damaged copies of the real ones (Kafka 3.9.1 and 4.4.0 fixtures; made here by
# coordinator_hostile_records.py: cut at every byte, trailing bytes, and lengths, counts,
# compact varints and versions overwritten with 0x7fff, -1, 0x80000000-style and 2^32 - 1
# values at every byte; each in a batch of its own with a right CRC). Every format:
# - exit 1 (a finding: records that do not decode), never 3, a crash, a hang or an internal
#   error; under a 1 GiB `ulimit -v` outside ASan (a huge length or count allocates nothing);
# - each record decoded or refused alone: the table's error lines, one a record, name the
#   file, the batch's byte and the record's byte;
# - the same decode in every format: JSON, JSON lines and YAML (when PyYAML is installed)
#   hold, record by record, the same coordinator value or the same error. A fast path of one
#   format's writer that decodes otherwise than the others fails here.
#   The YAML is read as written: a damaged record's group or transactional id holds invalid
#   UTF-8 and control characters (DEL among them), which YAML must write so that a reader
#   takes them (double-quoted, escaped) and reads JSON's string (U+FFFD for invalid bytes).
. "$(dirname "$0")/common.sh"

ASAN=0
if [[ -n ${ASAN_OPTIONS:-} ]] || ldd "$KEPOCH" 2>/dev/null | grep libasan >/dev/null; then ASAN=1; fi
cd "$SCRATCH"
total=0
for v in 3.9.1 4.4.0; do
  for p in __consumer_offsets-0 __transaction_state-0; do
    mkdir -p "$v/$p"
    seg="$v/$p/00000000000000000000.log"
    n=$(python3 "$KEPOCH_SOURCE_DIR/tests/cli/coordinator_hostile_records.py" \
      "$DATA/coordinator/$v/$p/00000000000000000000.log" "$seg")
    ((n > 500)) || fail "$seg: only $n damaged records made"
    total=$((total + n))
    for f in table json jsonl yaml; do
      got=0
      (
        [[ $ASAN == 1 ]] || ulimit -v $((1024 * 1024))
        exec timeout 300 "$KEPOCH" -o "$f" segment dump --records "$seg"
      ) >"out.$f" 2>"err.$f" || got=$?
      [[ $got == 1 ]] || { head -c 1000 "err.$f"; fail "$seg -o $f: exit $got, expected 1"; }
      if grep -qE "internal error|AddressSanitizer|runtime error" "err.$f"; then
        head -c 1000 "err.$f"
        fail "$seg -o $f: an internal error"
      fi
    done
    # The table's findings: one line each, naming the file, the batch and the record's byte.
    [[ -s err.table ]] || fail "$seg: no finding on stderr"
    if grep -vE "^$v/$p/00000000000000000000\.log: at byte [0-9]+: (error|warning): batch at offset [0-9]+: record at offset [0-9]+: at byte [0-9]+: [^ ]|^\.\.\. and [0-9]+ more" err.table >odd; then
      head -5 odd
      fail "$seg: a finding that is not one line naming the file, the batch and the record's byte"
    fi
    python3 - "$seg" <<'PY' || fail "$seg: the formats decode the damaged records differently"
import datetime, json, sys
seg = sys.argv[1]

def records(batches):
    return {r['offset']: r['coordinator'] for b in batches for r in b.get('records', [])}

doc = json.load(open('out.json'))
by_json = records(doc[0]['batches'])
lines = [json.loads(l) for l in open('out.jsonl')]
by_jsonl = records(l['batch'] for l in lines if 'batch' in l)
errors = sum('error' in c for c in by_json.values())
assert errors > 100 and errors < len(by_json), (seg, errors, len(by_json))
bad = [o for o in by_json if by_json[o] != by_jsonl.get(o)]
assert not bad and len(by_json) == len(by_jsonl), (seg, 'jsonl', bad[:3], len(by_jsonl))
try:
    import yaml
except ImportError:
    print(f'{seg}: PyYAML is not installed: YAML not compared')
    sys.exit(0)

def plain(x):  # YAML's times as their text
    if isinstance(x, dict): return {k: plain(v) for k, v in x.items()}
    if isinstance(x, list): return [plain(v) for v in x]
    if isinstance(x, datetime.datetime):
        return x.strftime('%Y-%m-%dT%H:%M:%S.') + '%03dZ' % (x.microsecond // 1000)
    return x

def as_yaml(x):  # JSON's value as YAML shows it: a time member as its _iso text
    if isinstance(x, dict):
        return {k: x.get(k + '_iso', as_yaml(v)) for k, v in x.items() if not k.endswith('_iso')}
    if isinstance(x, list): return [as_yaml(v) for v in x]
    return x

loader = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
by_yaml = records(plain(yaml.load(open('out.yaml', 'rb'), Loader=loader))[0]['batches'])
bad = [o for o in by_json if as_yaml(by_json[o]) != by_yaml.get(o)]
assert not bad and len(by_yaml) == len(by_json), (seg, 'yaml', bad[:3],
    [(as_yaml(by_json[o]), by_yaml.get(o)) for o in bad[:1]])
print(f'{seg}: {len(by_json)} records, {errors} refused, the same in JSON, JSON lines and YAML')
PY
  done
done
echo "coordinator records: $total damaged copies of real records decoded or refused alike in every format"
