#!/usr/bin/env bash
# Kafka as the oracle for the protocol codec's vectors: regenerates
# tests/data/protocol/vectors.jsonl and error-codes.json with Kafka's own serializers and
# Errors enum (tests/protocol/gen-vectors: only the jars, no cluster) and diffs them against
# the committed copies, which the unit tests hold kepoch's codec and error table to. A Kafka
# version bump (KEPOCH_KAFKA_VERSION) that changes a message's bytes, adds a version, or
# adds an error code fails here with the diff; then rerun gen-vectors and update the schema
# tables (lib/kepoch/cluster/protocol/schema_*.cpp) and error_codes.cpp until the unit tests
# pass again.
# The committed vectors are Kafka 4.1.1's, and so are the versions kepoch's codec offers:
# a newer broker (4.4 adds ApiVersions v5, DescribeLogDirs v5, ListOffsets v11 and error
# codes 134-136) agrees on them through ApiVersions, so this oracle runs the Kafka that wrote
# them (KEPOCH_PROTOCOL_KAFKA_VERSION to try another), not the tests' default.
export KEPOCH_KAFKA_VERSION="${KEPOCH_PROTOCOL_KAFKA_VERSION:-4.1.1}"
. "$(dirname "$0")/common.sh"
. "$KEPOCH_SOURCE_DIR/tests/kafka/kafka-version"

out="$SCRATCH/protocol"
if ! "$KEPOCH_SOURCE_DIR/tests/protocol/gen-vectors" "$out" 2>"$SCRATCH/gen.err"; then
  cat "$SCRATCH/gen.err"
  fail "gen-vectors failed"
fi

for f in vectors.jsonl error-codes.json; do
  if ! diff -u "$DATA/protocol/$f" "$out/$f" >"$SCRATCH/$f.diff"; then
    head -n 60 "$SCRATCH/$f.diff"
    fail "$f: Kafka $KEPOCH_KAFKA_VERSION writes what the committed copy does not (see the diff)"
  fi
done
[[ $(wc -l <"$out/vectors.jsonl") -ge 300 ]] || fail "expected at least 300 vectors"
echo "Kafka $KEPOCH_KAFKA_VERSION: $(wc -l <"$out/vectors.jsonl") vectors and" \
  "$(grep -c '"code"' "$out/error-codes.json") error codes, identical to tests/data/protocol"
