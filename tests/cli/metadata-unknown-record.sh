#!/usr/bin/env bash
# A record kepoch cannot decode is a finding of every answer built on the metadata log, never
# a silently thinner history: copies of the controller's metadata log of run A
# (tests/data/metadata, Kafka 4.1.1) with one record's api key set to 30 (a type no Kafka
# through 4.4 writes) or one PartitionChangeRecord's version set to 9 (newer than Kafka 4.4
# writes), batch CRCs recomputed. `metadata history` and `metadata dump` name the record, its
# offset and why, and exit 1 (findings); the untouched log exits 0.
. "$(dirname "$0")/common.sh"
META="$DATA/metadata/__cluster_metadata-0"
PATCH="$(dirname "$0")/metadata_patch_record.py"

expect_exit 0 "$KEPOCH" metadata history -o json "$META"

check() {  # check NAME API_KEY FIELD NEW TEXT
  local dir="$SCRATCH/$1/__cluster_metadata-0" offset
  mkdir -p "$dir"
  cp "$META"/00000000000000000000.log "$dir/"
  offset=$(python3 "$PATCH" "$dir/00000000000000000000.log" "$2" "$3" "$4")
  for cmd in history dump; do
    expect_exit 1 "$KEPOCH" metadata "$cmd" -o json "$dir"
    json "$SCRATCH/out" "d['problems'] if isinstance(d, dict) else d[0]['problems']" > "$SCRATCH/problems"
    expect_in "$SCRATCH/problems" "record at offset $offset: $5"
    expect_in "$SCRATCH/problems" "does not include it"
    # The table says so too (its problems on stderr, counted at its end).
    expect_exit 1 "$KEPOCH" metadata "$cmd" "$dir"
    expect_in "$SCRATCH/err" "record at offset $offset: $5"
  done
  echo "$1: record at offset $offset, metadata history and dump exit 1"
}
check unknown-type 0 type 30 "UNKNOWN(30): a record type kepoch does not know"
check newer-version 5 version 9 "version 9 of PARTITION_CHANGE_RECORD is newer than kepoch reads (0-2)"
