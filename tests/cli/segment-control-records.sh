#!/usr/bin/env bash
# `segment dump --records` decodes the records of control batches into their types
# (ControlRecordType, EndTransactionMarker, ControlRecordUtils) on files real Kafka wrote:
# COMMIT/ABORT markers of a transactional topic, the LeaderChange of the KRaft metadata
# log, SnapshotHeader/KRaftVersion/Voters/SnapshotFooter of a bootstrap snapshot; in JSON,
# YAML and the table. A marker whose key version was damaged is an error naming it (exit 1).
. "$(dirname "$0")/common.sh"
TX="$DATA/transactions/tx-0/00000000000000000000.log"
META="$DATA/metadata/__cluster_metadata-0/00000000000000000000.log"
SNAP="$DATA/kraft-standalone/__cluster_metadata-0/00000000000000000000-0000000000.checkpoint"

expect_exit 0 "$KEPOCH" segment dump -o json --records "$TX"
[[ $(json "$SCRATCH/out" "[r['control'] for b in d[0]['batches'] if b['is_control'] for r in b['records']]") == \
   "[{'type': 'commit', 'type_id': 1, 'key_version': 0, 'version': 0, 'coordinator_epoch': 0}, {'type': 'abort', 'type_id': 0, 'key_version': 0, 'version': 0, 'coordinator_epoch': 0}]" ]] ||
  fail "transaction markers"
[[ $(json "$SCRATCH/out" "sum('control' in r for b in d[0]['batches'] if not b['is_control'] for r in b['records'])") == 0 ]] ||
  fail "data records carry no control object"

expect_exit 0 "$KEPOCH" segment dump -o json --records "$META"
[[ $(json "$SCRATCH/out" "[r['control'] for b in d[0]['batches'] if b['is_control'] for r in b['records']]") == \
   "[{'type': 'leader_change', 'type_id': 2, 'key_version': 0, 'version': 0, 'leader_id': 100, 'voters': [100], 'granting_voters': [100]}]" ]] ||
  fail "leader change of the metadata log"

# A KRaft snapshot is a sequence of batches, dumped as a log (as DumpLogSegments does).
expect_exit 0 "$KEPOCH" segment dump -o json --records "$SNAP"
[[ $(json "$SCRATCH/out" "(d[0]['kind'], d[0]['base_offset'])") == "('log', None)" ]] || fail "snapshot kind"
[[ $(json "$SCRATCH/out" "[r['control']['type'] for b in d[0]['batches'] if b['is_control'] for r in b['records']]") == \
   "['snapshot_header', 'kraft_version', 'kraft_voters', 'snapshot_footer']" ]] || fail "snapshot control types"
[[ $(json "$SCRATCH/out" "d[0]['batches'][0]['records'][1]['control']['kraft_version']") == 1 ]] || fail "kraft.version"
[[ $(json "$SCRATCH/out" "d[0]['batches'][0]['records'][2]['control']['voters']") == \
   "[{'voter_id': 100, 'voter_directory_id': 'B9ZRvAf-SXi4FcPmkl9SPQ', 'endpoints': [{'name': 'CONTROLLER', 'host': '127.0.0.1', 'port': 19093}], 'kraft_version_feature': {'min_supported_version': 0, 'max_supported_version': 1}}]" ]] ||
  fail "voters"
[[ $(json "$SCRATCH/out" "d[0]['batches'][0]['records'][0]['control']['last_contained_log_timestamp']") == 1795949927900 ]] ||
  fail "snapshot header"

# YAML and the table show the same.
expect_exit 0 "$KEPOCH" segment dump -o yaml --records "$META"
expect_in "$SCRATCH/out" "type: leader_change"
expect_in "$SCRATCH/out" "leader_id: 100"
expect_exit 0 "$KEPOCH" segment dump -o wide --records "$TX"
expect_in "$SCRATCH/out" "control: {type: commit, type_id: 1, key_version: 0, version: 0, coordinator_epoch: 0}"
expect_in "$SCRATCH/out" "control: {type: abort"
# Without --records, no record and no control object.
expect_exit 0 "$KEPOCH" segment dump -o json "$TX"
expect_not_in "$SCRATCH/out" '"control"'

# A damaged copy: the commit marker's key version set to -1 (Kafka: InvalidRecordException).
python3 - "$TX" "$SCRATCH/00000000000000000000.log" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
at = b.index(bytes([0x08, 0, 0, 0, 1]), 148 + 61) + 1   # keyLength varint 4, then the key
b[at:at + 2] = b'\xff\xff'
open(sys.argv[2], 'wb').write(b)
PY
expect_exit 1 "$KEPOCH" segment dump -o json --records "$SCRATCH/00000000000000000000.log"
[[ $(json "$SCRATCH/out" "[r['control'].get('error', '') for b in d[0]['batches'] if b['is_control'] for r in b['records']][0]") == \
   "record at offset 3: at byte 214: Invalid version found for control record: -1. May indicate data corruption" ]] ||
  fail "damaged key"
expect_in "$SCRATCH/out" "control batch at offset 3: record at offset 3"
