#!/usr/bin/env bash
# Kafka's own DumpLogSegments as the oracle for `kepoch segment dump` of index files and
# producer snapshots. No cluster: DumpLogSegments only needs the Kafka jars. Over every
# committed real file (tests/data, tests/unit/data/indexes: trimmed, running and crashed
# brokers' files) and over damaged copies made here, kepoch and Kafka agree on
#   - every .index / .timeindex entry Kafka lists (it stops at the first entry after slot 0
#     whose offset is the base offset; kepoch lists the entries before the zero padding and
#     counts the padding),
#   - every .txnindex entry, and the KafkaException reading a bad version throws,
#   - every .snapshot producer entry, and readSnapshot's CorruptSnapshotException message,
#   - OffsetIndex/TimeIndex.sanityCheck (--index-sanity-check): pass, or the exact message.
# Run on Kafka 4.1.1 (KEPOCH_INDEX_KAFKA_VERSION for another): kepoch's transaction index
# reader follows 4.1's AbortedTxn.version(), which reads the version's first byte only; 4.4
# reads the whole short and checks a range ("version 256 ... supported version range is 0
# to 0"), so a damaged version field reads differently there (an open item: the committed
# dumps of tests/unit/data/indexes are 4.1.1's). Every other file agrees with 4.4.0 too.
export KEPOCH_KAFKA_VERSION="${KEPOCH_INDEX_KAFKA_VERSION:-4.1.1}"
. "$(dirname "$0")/common.sh"

IDX="$KEPOCH_SOURCE_DIR/tests/unit/data/indexes"
# The crashed and running brokers' indexes with the .log (and .index) DumpLogSegments
# reads beside them; ix-0.running's .log is ix-0's (tests/unit/data/indexes/README.md).
mkdir -p "$SCRATCH/real"
cp -r "$IDX/ix-0" "$IDX/crash-0.killed" "$IDX/ix-0.running" "$SCRATCH/real/"
cp "$IDX/ix-0/00000000000000000024.log" "$SCRATCH/real/ix-0.running/"

# Damaged copies (make-damaged-oracle's set, and a few more), each in its own dir with the
# siblings DumpLogSegments opens.
python3 - "$IDX/ix-0" "$SCRATCH/damaged" <<'EOF'
import os, sys, struct
src, work = sys.argv[1], sys.argv[2]
def rd(n): return open(os.path.join(src, n), 'rb').read()
def crc32c(b):
    c = 0xFFFFFFFF
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
    return c ^ 0xFFFFFFFF
def fixcrc(b): return b[:2] + struct.pack('>I', crc32c(b[6:])) + b[6:]
def put(case, name, data, siblings=()):
    d = os.path.join(work, case); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name), 'wb').write(data)
    for s in siblings: open(os.path.join(d, s), 'wb').write(rd(s))
I8, L8 = '00000000000000000008.index', '00000000000000000008.log'
T16, I16, L16 = '00000000000000000016.timeindex', '00000000000000000016.index', '00000000000000000016.log'
X24, S16 = '00000000000000000024.txnindex', '00000000000000000016.snapshot'
i8, t16, x24, s16 = rd(I8), rd(T16), rd(X24), rd(S16)
put('index-truncated', I8, i8[:-3], [L8])
put('index-odd-length', I8, i8[:-1], [L8])
put('index-last-below-base', I8, b'\xff\xff\xff\xff' + i8[4:8], [L8])
put('index-zero', I8, bytes(len(i8)), [L8])
put('index-zero-tail', I8, i8 + bytes(40), [L8])
put('timeindex-truncated', T16, t16[:-5], [I16, L16])
put('timeindex-last-below-base', T16, t16[:80] + b'\xff\xff\xff\xfe', [I16, L16])
put('timeindex-zero', T16, bytes(len(t16)), [I16, L16])
put('timeindex-zero-tail', T16, t16 + bytes(36), [I16, L16])
two = x24 + x24[:18] + struct.pack('>q', 27) + x24[26:]
put('txnindex-version-1', X24, two[:34] + b'\x01' + two[35:])
put('txnindex-version-low-byte', X24, two[:35] + b'\x07' + two[36:])
put('txnindex-version-negative', X24, two[:34] + b'\xff' + two[35:])
put('txnindex-partial-tail', X24, two + x24[:20])
put('txnindex-below-base', X24, x24[:18] + struct.pack('>q', 20) + x24[26:])
flip = bytearray(s16); flip[10 + 46 + 20] ^= 1
put('snapshot-bit-flip', S16, bytes(flip))
put('snapshot-version-2', S16, s16[:1] + b'\x02' + s16[2:])
put('snapshot-truncated', S16, s16[:-1])
put('snapshot-zero', S16, bytes(len(s16)))
for n in (0, 1, 5, 9): put('snapshot-first-%d' % n, S16, s16[:n])
put('snapshot-count-negative', S16, s16[:6] + b'\xff\xff\xff\xff' + s16[10:])
put('snapshot-count-1000', S16, s16[:6] + struct.pack('>i', 1000) + s16[10:])
put('snapshot-count-3', S16, fixcrc(s16[:6] + struct.pack('>i', 3) + s16[10:]))
put('snapshot-trailing-stale-crc', S16, s16 + b'\x01\x02\x03')
put('snapshot-trailing', S16, fixcrc(s16 + b'\x01\x02\x03'))
put('snapshot-duplicate-producer', S16, fixcrc(s16[:56] + s16[10:18] + s16[64:]))
EOF

mapfile -t files < <(
  # Not the remote index cache's <offset>_<segment id>.index files: no segment's, and Kafka's
  # DumpLogSegments cannot take them (its base offset is the name before the first '.');
  # logdir scan reads them (tests/cli/logdir-scan-index-cache.sh, remote-index-cache-vs-kafka).
  find "$DATA" "$SCRATCH/real" -type f \( -name '*.index' -o -name '*.timeindex' -o -name '*.txnindex' -o -name '*.snapshot' \) \
    -not -path '*/remote-log-index-cache/*' | sort
  # the damaged file of each case, not its siblings
  for d in "$SCRATCH"/damaged/*/; do
    c="$(basename "$d")"
    case "$c" in
      index-*) echo "$d"00000000000000000008.index ;;
      timeindex-*) echo "$d"00000000000000000016.timeindex ;;
      txnindex-*) echo "$d"00000000000000000024.txnindex ;;
      snapshot-*) echo "$d"00000000000000000016.snapshot ;;
    esac
  done)
[[ ${#files[@]} -ge 100 ]] || fail "expected the real and damaged files, found ${#files[@]}"
printf '%s\n' "${files[@]}" > "$SCRATCH/files"
# 0 or 1: damaged files are findings.
code=0
"$KEPOCH" segment dump -o json "${files[@]}" > "$SCRATCH/kepoch.json" 2> "$SCRATCH/kepoch.err" || code=$?
[[ $code -le 1 ]] || { cat "$SCRATCH/kepoch.err"; fail "kepoch exit $code"; }

python3 - "$SCRATCH/kepoch.json" "$SCRATCH/files" "$KC" <<'EOF'
import json, re, subprocess, sys

ours = {f['file']: f for f in json.load(open(sys.argv[1]))}
files = open(sys.argv[2]).read().split('\n')[:-1]
KC = sys.argv[3]
EXC = re.compile(r'Exception in thread "main" ([\w.$]+): (.*)$')
PAIR = re.compile(r'(\w+): (\S*)')


def kafka(paths, sanity):
    """DumpLogSegments over paths; an uncaught exception ends a run, so the next run starts
    after the file that threw. Returns path -> {"lines", "exception"}."""
    out, rest = {}, list(paths)
    while rest:
        args = [KC, 'dump-log'] + (['--index-sanity-check'] if sanity else []) + ['--files', ','.join(rest)]
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        cur = None
        for line in p.stdout.splitlines():
            if line.startswith('Dumping '):
                cur = line[len('Dumping '):]
                out[cur] = {'lines': [], 'exception': None}
            elif cur is None or line.startswith('\tat ') or line.startswith('\t... '):
                continue
            elif m := EXC.match(line):
                out[cur]['exception'] = (m.group(1), m.group(2))
            else:
                out[cur]['lines'].append(line)
        if cur is None or cur not in rest:
            sys.exit(f'DumpLogSegments printed no file (exit {p.returncode}):\n{p.stdout}')
        if p.returncode != 0 and out[cur]['exception'] is None:
            sys.exit(f'DumpLogSegments failed on {cur} (exit {p.returncode}):\n{p.stdout}')
        rest = rest[rest.index(cur) + 1:]
    return out


diffs, compared = [], {'entries': 0, 'files': 0, 'sanity': 0, 'failures': 0}


def differ(path, what, theirs, mine):
    diffs.append(f'{path}: {what}:\n  Kafka:  {theirs}\n  kepoch: {mine}')


def kafka_view(f, zero):
    """The entries Kafka's dumpIndex/dumpTimeIndex loop prints, from kepoch's report: the
    listed entries, then the counted padding, cut at the first slot > 0 at the base offset."""
    full = f['entries'] + [zero] * f['zero_padding']
    for i, e in enumerate(full):
        if i > 0 and e['offset'] == f['base_offset']:
            return full[:i]
    return full


def compare_entries(path, f, k):
    kind, lines = f['kind'], [l for l in k['lines'] if not l.endswith(' is empty.')]
    if kind == 'index':
        theirs = [dict(PAIR.findall(l)) for l in lines if l.startswith('offset: ')]
        mine = [{'offset': str(e['offset']), 'position': str(e['position'])}
                for e in kafka_view(f, {'offset': f['base_offset'], 'position': 0})]
    elif kind == 'timeindex':
        theirs = [dict(PAIR.findall(l)) for l in lines if l.startswith('timestamp: ')]
        mine = [{'timestamp': str(e['timestamp']), 'offset': str(e['offset'])}
                for e in kafka_view(f, {'timestamp': 0, 'offset': f['base_offset']})]
    elif kind == 'txnindex':
        theirs = [dict(PAIR.findall(l)) for l in lines if l.startswith('version: ')]
        mine = [{'version': str(e['version']), 'producerId': str(e['producer_id']),
                 'firstOffset': str(e['first_offset']), 'lastOffset': str(e['last_offset']),
                 'lastStableOffset': str(e['last_stable_offset'])} for e in f['entries']]
        if k['exception']:  # Kafka stops at the entry whose version it refuses
            mine = mine[:len(theirs)]
    else:
        theirs = [dict(PAIR.findall(l)) for l in lines if l.startswith('producerId: ')]
        mine = []
        if f['sanity_check'] is None:
            for e in f['entries']:
                m = {'producerId': str(e['producer_id']), 'producerEpoch': str(e['producer_epoch']),
                     'coordinatorEpoch': str(e['coordinator_epoch']),
                     'currentTxnFirstOffset': 'OptionalLong.empty' if e['current_txn_first_offset'] < 0
                     else f"OptionalLong[{e['current_txn_first_offset']}]",
                     'lastTimestamp': str(e['timestamp'])}
                if e['last_offset'] >= 0:  # batch metadata (BatchMetadata.firstSeq wraps like Kafka's)
                    first = e['last_sequence'] - e['offset_delta']
                    if first < 0:
                        first += 2**31
                    m.update({'firstSequence': str(first), 'lastSequence': str(e['last_sequence']),
                              'lastOffset': str(e['last_offset']), 'offsetDelta': str(e['offset_delta']),
                              'timestamp': str(e['timestamp'])})
                mine.append(m)
    if theirs != mine:
        differ(path, 'entries', theirs, mine)
    compared['entries'] += len(theirs)
    if kind == 'txnindex':
        if k['exception']:
            compared['failures'] += 1
            if k['exception'][1] != f['sanity_check']:
                differ(path, 'reading the index', k['exception'][1], f['sanity_check'])
        elif f['sanity_check'] is not None and not f['sanity_check'].startswith('Last offset of aborted'):
            differ(path, 'reading the index', 'no exception', f['sanity_check'])
    if kind == 'snapshot':
        said = [l for l in lines if l.startswith('Snapshot ')]
        if said:
            compared['failures'] += 1
        if (said[0] if said else None) != f['sanity_check']:
            differ(path, 'readSnapshot', said, f['sanity_check'])
    if f['entry_count'] == 0 and kind in ('index', 'timeindex'):
        if not any(l.endswith(' is empty.') for l in k['lines']):
            differ(path, 'empty', k['lines'], 'entry_count 0')


def compare_sanity(path, f, k):
    lines = k['lines']
    if k['exception']:
        compared['failures'] += 1
        if k['exception'][1] != f['sanity_check']:
            differ(path, 'sanity check', k['exception'][1], f['sanity_check'])
    elif lines == [f'{path} passed sanity check.'] or lines == [f'{path} is empty.']:
        if f['sanity_check'] is not None:
            differ(path, 'sanity check', lines, f['sanity_check'])
    else:
        differ(path, 'sanity check output', lines, f['sanity_check'])
    compared['sanity'] += 1


missing = [p for p in files if p not in ours]
if missing:
    sys.exit(f'kepoch did not report {missing}')
dumped = kafka(files, False)
for p in files:
    if p not in dumped:
        differ(p, 'dumped', 'not dumped', 'dumped')
        continue
    compare_entries(p, ours[p], dumped[p])
    compared['files'] += 1
indexes = [p for p in files if ours[p]['kind'] in ('index', 'timeindex')]
checked = kafka(indexes, True)
for p in indexes:
    compare_sanity(p, ours[p], checked[p])

print(f"compared {compared['files']} files, {compared['entries']} entries, "
      f"{compared['sanity']} sanity checks, {compared['failures']} Kafka failures")
if diffs:
    print('\n'.join(diffs))
    sys.exit(1)
if compared['entries'] < 200 or compared['sanity'] < 50 or compared['failures'] < 20:
    sys.exit('too little compared to prove anything')
EOF
