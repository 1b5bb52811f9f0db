// Pins storage/committed_offsets: the committed offsets a group coordinator loads from
// __consumer_offsets (OffsetMetadataManager.replay and replayEndTransactionMarker), on the
// coordinator fixtures Kafka 4.4.0 and 3.9.1 wrote (tests/data/coordinator) and on records made
// here for the transaction branches the fixtures do not show.
#include <catch2/catch.hpp>

#include <string>

#include "kepoch/base/crc32c.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/storage/committed_offsets.hpp"
#include "support/scratch_files.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;

namespace {

std::string fixture(const std::string& version) {
  return std::string(KEPOCH_SOURCE_DIR) + "/tests/data/coordinator/" + version;
}

SchemaValue text(std::string s) {
  SchemaValue v;
  v.kind = SchemaValue::Kind::text;
  v.text = std::move(s);
  return v;
}

SchemaValue integer(std::int64_t i) {
  SchemaValue v;
  v.kind = SchemaValue::Kind::integer;
  v.integer = i;
  return v;
}

// An OffsetCommit record (type 1) as decode_coordinator_record returns it; a tombstone
// without `offset`.
CoordinatorRecord commit(const std::string& group, std::int32_t partition,
                         std::optional<std::int64_t> offset, std::int32_t epoch = -1) {
  CoordinatorRecord r;
  r.type = coordinator_record_type(CoordinatorLog::offsets, 1);
  r.key.kind = SchemaValue::Kind::object;
  r.key.members = {{"group", text(group)}, {"topic", text("t")}, {"partition", integer(partition)}};
  if (offset) {
    r.value_version = 3;
    r.value.kind = SchemaValue::Kind::object;
    r.value.members = {{"offset", integer(*offset)},
                       {"leader_epoch", integer(epoch)},
                       {"metadata", text("")},
                       {"commit_timestamp", integer(0)}};
  }
  return r;
}

const GroupTopicPartition kKey{"g", "t", 0};

}  // namespace

TEST_CASE(
    "committed offsets of Kafka 4.4.0's __consumer_offsets: last commit wins, offset "
    "tombstones delete, a committed transaction's offset applies",
    "[committed_offsets]") {
  const CommittedOffsets c = read_committed_offsets(fixture("4.4.0"));
  CHECK(c.partitions.size() == 2);
  for (const std::string group : {"classic-group", "kip848-group", "kip848-regex"})
    for (int p = 0; p < 3; ++p) {
      const auto it = c.offsets.find({group, "orders", p});
      REQUIRE(it != c.offsets.end());
      CHECK(it->second.offset == 10);
      CHECK(it->second.leader_epoch == 0);
    }
  // manual-group: three commits, then DeleteGroups' offset tombstones and group tombstone.
  for (int p = 0; p < 3; ++p)
    CHECK(c.offsets.count({"manual-group", "orders", p}) == 0);
  // txn-group: TxnOffsetCommit (no epoch) in producer 1's transaction, then its COMMIT.
  const auto txn = c.offsets.find({"txn-group", "orders", 0});
  REQUIRE(txn != c.offsets.end());
  CHECK(txn->second.offset == 5);
  CHECK_FALSE(txn->second.leader_epoch);
  CHECK(txn->second.metadata == "txn-meta");
  CHECK(c.pending_transactional == 0);
  CHECK(c.offsets.size() == 10);
}

TEST_CASE("committed offsets of Kafka 3.9.1's __consumer_offsets, one partition dir",
          "[committed_offsets]") {
  const CommittedOffsets c = read_committed_offsets(fixture("3.9.1") + "/__consumer_offsets-1");
  CHECK(c.offsets.size() == 1);
  CHECK(c.offsets.begin()->first == GroupTopicPartition{"txn-group", "orders", 0});
  CHECK(c.offsets.begin()->second.offset == 5);
}

TEST_CASE("a dir without __consumer_offsets is refused with its path", "[committed_offsets]") {
  CHECK_THROWS_AS(read_committed_offsets(std::string(KEPOCH_SOURCE_DIR) +
                                         "/tests/data/divergence/before/broker-1"),
                  InputError);
}

TEST_CASE("an aborted transaction's offsets are dropped (replayEndTransactionMarker ABORT)",
          "[committed_offsets]") {
  CommittedOffsetsFold fold;
  fold.apply(commit("g", 0, 10, 2), 0, std::nullopt);
  fold.apply(commit("g", 0, 20), 1, 7);
  CHECK(fold.pending() == 1);
  CHECK(fold.offsets().at(kKey).offset == 10);
  fold.end_transaction(7, false);
  CHECK(fold.pending() == 0);
  CHECK(fold.offsets().at(kKey).offset == 10);
  CHECK(fold.offsets().at(kKey).leader_epoch == 2);
}

TEST_CASE("a committed transaction's offset does not replace a commit written after it",
          "[committed_offsets]") {
  CommittedOffsetsFold fold;
  fold.apply(commit("g", 0, 20), 1, 7);                // transactional, record offset 1
  fold.apply(commit("g", 0, 30, 4), 2, std::nullopt);  // plain commit, record offset 2
  fold.end_transaction(7, true);
  CHECK(fold.offsets().at(kKey).offset == 30);
  // The other order: the transaction's commit was written last, and wins.
  CommittedOffsetsFold later;
  later.apply(commit("g", 0, 30, 4), 1, std::nullopt);
  later.apply(commit("g", 0, 20), 2, 7);
  later.end_transaction(7, true);
  CHECK(later.offsets().at(kKey).offset == 20);
  CHECK_FALSE(later.offsets().at(kKey).leader_epoch);
}

TEST_CASE("a tombstone deletes the offset and pending transactional ones (replay, value null)",
          "[committed_offsets]") {
  CommittedOffsetsFold fold;
  fold.apply(commit("g", 0, 10), 0, std::nullopt);
  fold.apply(commit("g", 0, 20), 1, 7);
  fold.apply(commit("g", 0, std::nullopt), 2, std::nullopt);
  CHECK(fold.offsets().empty());
  fold.end_transaction(7, true);
  CHECK(fold.offsets().empty());
}

namespace {

// A zig-zag varint at `at` (Kafka's ByteUtils.readVarint): its value, `at` moved past it.
std::int64_t read_varint(const std::vector<std::uint8_t>& b, std::size_t& at) {
  std::uint64_t raw = 0;
  for (int shift = 0;; shift += 7) {
    const std::uint8_t byte = b[at++];
    raw |= std::uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) break;
  }
  return static_cast<std::int64_t>(raw >> 1) ^ -static_cast<std::int64_t>(raw & 1);
}

}  // namespace

TEST_CASE(
    "a record type Kafka does not know is skipped, as CoordinatorLoaderImpl skips "
    "UnknownRecordTypeException and a record that does not decode fails the read",
    "[committed_offsets]") {
  // The first batch of a Kafka-written __consumer_offsets segment (uncompressed, one
  // OffsetCommit), its record changed and the batch's CRC made right again.
  test::ScratchReplica scratch(std::string(KEPOCH_SOURCE_DIR) +
                               "/tests/data/consumer-fate/broker-1/__consumer_offsets-0");
  const auto log = scratch.file("00000000000000000000.log");
  std::vector<std::uint8_t> bytes = test::slurp(log);
  const auto before = read_committed_offsets(scratch.dir);
  REQUIRE((bytes[22] & 0x07) == 0);  // attributes: no compression
  std::size_t at = 61;               // the first record: length, attributes, deltas
  read_varint(bytes, at);
  at += 1;
  read_varint(bytes, at);
  read_varint(bytes, at);
  const auto key_length = read_varint(bytes, at);
  const std::size_t key = at;
  std::size_t value = key + static_cast<std::size_t>(key_length);
  read_varint(bytes, value);  // the value's length; `value` is at its version now
  REQUIRE(bytes[key] == 0);
  REQUIRE(bytes[key + 1] == 1);  // OffsetCommit
  const auto patch_crc = [&] {
    const std::uint32_t batch_length = (std::uint32_t(bytes[8]) << 24) |
                                       (std::uint32_t(bytes[9]) << 16) |
                                       (std::uint32_t(bytes[10]) << 8) | bytes[11];
    const std::uint32_t crc =
        crc32c(std::span<const std::uint8_t>(bytes.data() + 21, 12 + batch_length - 21));
    for (int i = 0; i < 4; ++i)
      bytes[17 + i] = static_cast<std::uint8_t>(crc >> (24 - 8 * i));
    test::spit(log, bytes);
  };
  bytes[key + 1] = 0x63;  // type 99: no Kafka writes it
  patch_crc();
  CHECK(read_committed_offsets(scratch.dir).offsets.size() + 1 == before.offsets.size());
  // An OffsetCommit again, at a value version it does not have: the read fails, naming the
  // file and the batch.
  bytes[key + 1] = 1;
  bytes[value] = 0x7f;
  patch_crc();
  try {
    read_committed_offsets(scratch.dir);
    FAIL("an undecodable OffsetCommit was read");
  } catch (const InputError& e) {
    CHECK(e.path() == log.string());
    CHECK(e.byte_offset() == 0u);
  }
}
