#!/usr/bin/env bash
# `segment dump` of __remote_log_metadata segments (tiered storage) written by real Kafka 4.4.0
# and 3.9.1 (tests/data/tiered: copied by the oracle remote-log-metadata-vs-kafka, with
# kafka-dump-log --remote-log-metadata-decoder's output and the LocalTieredStorage files of
# that moment): every record and field equal to Kafka's RemoteLogMetadataSerde decode, the
# storage dir holding the COPY_SEGMENT_FINISHED segments, the same in YAML and the table;
# decoding forced on a file outside such a dir; damaged copies give a problem naming the
# byte offset (exit 1), never a crash, the other records still decoded.
. "$(dirname "$0")/common.sh"
CMP="$KEPOCH_SOURCE_DIR/tests/oracle/remote_log_metadata_compare.py"
for v in 4.4.0 3.9.1; do
  d="$DATA/tiered/kafka-$v"
  files=("$d"/__remote_log_metadata-0/00000000000000000000.log "$d"/__remote_log_metadata-1/00000000000000000000.log)
  expect_exit 0 "$KEPOCH" segment dump -o json "${files[@]}"
  cp "$SCRATCH/out" "$SCRATCH/$v.json"
  python3 "$CMP" "$SCRATCH/$v.json" "$d/dump-log.txt" "$d/remote-storage-files.txt" ||
    fail "Kafka $v: kepoch's decode differs from kafka-dump-log's"
  expect_exit 0 "$KEPOCH" segment dump -o yaml "${files[@]}"
  python3 - "$SCRATCH/$v.json" "$SCRATCH/out" <<'PY' || fail "Kafka $v: YAML and JSON differ"
import json, sys, yaml
j = json.load(open(sys.argv[1])); y = yaml.safe_load(open(sys.argv[2]))
remote = lambda doc: [r.get("remote_log_metadata") for f in doc for b in f["batches"] for r in b["records"]]
assert remote(j) == remote(y) and len(remote(j)) == 18
PY
  expect_exit 0 env COLUMNS=400 "$KEPOCH" segment dump -o wide "${files[@]}"
  expect_in "$SCRATCH/out" "state: DELETE_SEGMENT_FINISHED"
  expect_in "$SCRATCH/out" "segment_leader_epochs: [{leader_epoch: 0, offset: 1024}]"
done
# 4.x writes the tagged TxnIndexEmpty, 3.9 does not (null, Kafka's default false).
[[ $(json "$SCRATCH/4.4.0.json" "d[0]['batches'][0]['records'][0]['remote_log_metadata']['txn_index_empty']") == True ]] ||
  fail "4.4.0 txn_index_empty"
[[ $(json "$SCRATCH/3.9.1.json" "d[0]['batches'][0]['records'][0]['remote_log_metadata']['txn_index_empty']") == None ]] ||
  fail "3.9.1 txn_index_empty"

SRC="$DATA/tiered/kafka-4.4.0/__remote_log_metadata-1/00000000000000000000.log"
# Outside a __remote_log_metadata-N dir the records are not decoded, unless asked.
cp "$SRC" "$SCRATCH/00000000000000000000.log"
expect_exit 0 "$KEPOCH" segment dump -o json "$SCRATCH/00000000000000000000.log"
[[ $(json "$SCRATCH/out" "'records' in d[0]['batches'][0]") == False ]] || fail "decoded without being asked"
expect_exit 0 "$KEPOCH" segment dump -o json --remote-log-metadata-decoder "$SCRATCH/00000000000000000000.log"
[[ $(json "$SCRATCH/out" "d[0]['batches'][1]['records'][0]['remote_log_metadata']['state']") == COPY_SEGMENT_FINISHED ]] ||
  fail "--remote-log-metadata-decoder"

# damage NAME PYTHON MESSAGE: the first record's value patched by PYTHON (v: the value's
# bytearray, i: its file offset) in a copy; kepoch names MESSAGE at the byte PYTHON returns.
damage() {
  local name=$1 code=$2 message=$3 dir="$SCRATCH/$1/__remote_log_metadata-1" at
  mkdir -p "$dir"
  at=$(python3 - "$SRC" "$dir/00000000000000000000.log" "$code" <<'PY'
import sys
src, dst, code = sys.argv[1:4]
b = bytearray(open(src, "rb").read())
i = 61                        # the first record, after the batch header
while b[i] & 0x80: i += 1     # length
i += 1 + 1 + 1 + 1 + 1        # attributes, timestamp delta, offset delta, key length -1
while b[i] & 0x80: i += 1     # value length
i += 1                        # the value: frame version, api key, version, body
at = eval(code, {"b": b, "i": i})
open(dst, "wb").write(bytes(b))
print(at)
PY
)
  expect_exit 1 "$KEPOCH" segment dump -o json "$dir/00000000000000000000.log"
  python3 - "$SCRATCH/out" "$at" "$message" <<'PY' || fail "$name: not reported at byte $at"
import json, sys
d = json.load(open(sys.argv[1]))[0]
at, message = int(sys.argv[2]), sys.argv[3]
probs = [p for p in d["problems"] if p["message"].startswith("record at offset")]
assert len(probs) == 1 and probs[0]["message"] == "record at offset 0: " + message and probs[0]["position"] == at, (at, probs)
recs = [r["remote_log_metadata"] for b in d["batches"] for r in b["records"]]
assert len(recs) >= 2 and recs[0]["error"] == message and all("error" not in r for r in recs[1:]), recs[:2]
PY
  expect_exit 1 "$KEPOCH" segment dump "$dir/00000000000000000000.log"
  expect_in "$SCRATCH/err" "record at offset 0: $message"
}
damage api-key '(b.__setitem__(i + 1, 9), i + 1)[1]' "Unknown metadata id 9"
damage version '(b.__setitem__(i + 2, 1), i + 2)[1]' "Can't read version 1 of RemoteLogSegmentMetadataRecord"
damage frame '(b.__setitem__(i, 0), i + 1)[1]' \
  "Could not deserialize metadata record due to unknown frame version 0(only frame version 1 is supported)"
# The topic name's compact length made 120: longer than what remains of the value.
damage name-length '(b.__setitem__(i + 3, 121), i + 4)[1]' "Name needs 120 bytes, only 104 remain"
# The state (the byte before the 4-byte tagged section of 4.x's record: TxnIndexEmpty):
# RemoteLogSegmentState.forId(9) is null, refused as the update is built.
damage state '(b.__setitem__(i + 108 - 5, 9), i)[1]' "state can not be null"
# The segment_leader_epochs array's compact length (byte 84 of the value) made 126: Kafka's
# own check of a collection against the bytes left, never room allocated for 126 elements.
damage epochs-count '(b.__setitem__(i + 84, 0x7f), i + 85)[1]' \
  "Tried to allocate a collection of size 126, but there are only 23 bytes remaining."
# The start offset (byte 48) made negative: RemoteLogSegmentMetadata's constructor refuses it.
damage start-negative '(b.__setitem__(i + 48, 0xff), i)[1]' \
  "Unexpected start offset = -72057594037927936. StartOffset for a remote segment cannot be negative"
echo "segment-remote-log-metadata: pass"
