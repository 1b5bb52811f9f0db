// Pins the open transactions kepoch rebuilds from a replica (storage/producer_transactions)
// to Kafka's rules: ProducerAppendInfo's replay (a transactional batch opens its producer's
// transaction at its first offset unless one is open, updateCurrentTxnFirstOffset; COMMIT
// and ABORT markers alike close it, appendEndTxnMarker; idempotent batches and batches
// without a producer id open nothing), ProducerStateManager.loadFromSnapshot (the latest
// snapshot in (log start, log end], a CorruptSnapshotException skips to the next older one,
// an entry's currentTxnFirstOffset is an ongoing transaction) and
// UnifiedLog.rebuildProducerState (no snapshot after a clean shutdown: no state; otherwise a
// replay from the log start). Files: copies of the real Kafka fixture tests/data/transactions
// (a committed transaction 0-2 and its COMMIT at 3, an aborted one 4-5 and its ABORT at 6,
// two idempotent records 7-8, a producer snapshot at 9), cut where a test needs a marker gone.
#include <catch2/catch.hpp>

#include "kepoch/base/crc32c.hpp"
#include "kepoch/storage/producer_transactions.hpp"
#include "support/log_batches.hpp"
#include "support/scratch_files.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;

namespace {

TransactionBatch batch(std::int64_t base, std::int64_t pid, bool transactional, bool control,
                       std::int16_t epoch = 0) {
  TransactionBatch b;
  b.base_offset = b.last_offset = base;
  b.records = 1;
  b.transactional = transactional;
  b.control = control;
  b.producer_id = pid;
  b.producer_epoch = epoch;
  b.max_timestamp = 1000 + base;
  return b;
}

const std::filesystem::path kTx =
    std::filesystem::path(KEPOCH_SOURCE_DIR) / "tests/data/transactions/tx-0";
const char* kLog = "00000000000000000000.log";
const char* kSnapshot = "00000000000000000009.snapshot";

// The fixture's log cut before the batch whose base offset is `offset`.
void cut_before(const test::ScratchReplica& s, std::int64_t offset) {
  auto bytes = test::slurp(s.file(kLog));
  std::size_t pos = 0;
  for (const auto& h : test::log_batch_headers(bytes)) {
    if (h.base_offset == offset) break;
    pos += static_cast<std::size_t>(h.size_in_bytes());
  }
  bytes.resize(pos);
  test::spit(s.file(kLog), bytes);
}

std::vector<BatchHeader> fixture_headers() {
  return test::log_batch_headers(test::slurp(kTx / kLog));
}

// A producer snapshot (format/producer_snapshot.hpp's layout) with one entry.
std::vector<std::uint8_t> snapshot_with(std::int64_t pid, std::int16_t epoch,
                                        std::int64_t txn_first_offset) {
  std::vector<std::uint8_t> b;
  auto put = [&b](std::uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i)
      b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  put(1, 2);  // version
  put(0, 4);  // crc, set below
  put(1, 4);  // one entry
  put(static_cast<std::uint64_t>(pid), 8);
  put(static_cast<std::uint16_t>(epoch), 2);
  put(0, 4);   // lastSequence
  put(8, 8);   // lastOffset
  put(0, 4);   // offsetDelta
  put(77, 8);  // timestamp
  put(5, 4);   // coordinatorEpoch
  put(static_cast<std::uint64_t>(txn_first_offset), 8);
  const std::uint32_t crc = crc32c(std::span<const std::uint8_t>(b).subspan(6));
  for (int i = 0; i < 4; ++i)
    b[static_cast<std::size_t>(2 + i)] = static_cast<std::uint8_t>(crc >> (8 * (3 - i)));
  return b;
}

}  // namespace

TEST_CASE("ProducerAppendInfo: a transactional batch opens at its first offset and a marker closes",
          "[storage][producer_transactions]") {
  const auto open = replay_open_transactions(
      {}, {batch(0, 1, true, false), batch(1, 1, true, false, 2), batch(2, 2, true, false),
           batch(3, 2, false, true), batch(4, 3, false, false), batch(5, -1, true, false),
           batch(6, 4, true, false), batch(7, 4, false, true), batch(8, 4, true, false)});
  REQUIRE(open.size() == 2);
  // Producer 1: opened at 0, its second batch does not move the first offset; epoch and
  // timestamp are the latest batch's.
  CHECK(open[0].producer_id == 1);
  CHECK(open[0].first_offset == 0);
  CHECK(open[0].producer_epoch == 2);
  CHECK(open[0].last_timestamp == 1001);
  // Producer 2 closed by its marker; 3 idempotent; -1 has no producer state; 4 reopened at 8.
  CHECK(open[1].producer_id == 4);
  CHECK(open[1].first_offset == 8);
}

TEST_CASE("ProducerAppendInfo: ABORT closes as COMMIT does and and closes a seeded transaction",
          "[storage][producer_transactions]") {
  ProducerSnapshotEntry seeded;
  seeded.producer_id = 9;
  seeded.epoch = 3;
  seeded.current_txn_first_offset = 40;
  ProducerSnapshotEntry idle;
  idle.producer_id = 10;
  idle.current_txn_first_offset = -1;
  ProducerSnapshotEntry kept;
  kept.producer_id = 11;
  kept.current_txn_first_offset = 45;
  const auto open = replay_open_transactions(
      {seeded, idle, kept}, {batch(50, 9, false, true), batch(51, 11, true, false)});
  REQUIRE(open.size() == 1);
  CHECK(open[0].producer_id == 11);
  CHECK(open[0].first_offset == 45);  // a batch of an open transaction does not restart it
}

TEST_CASE("Open transactions in first-offset order", "[storage][producer_transactions]") {
  const auto open = replay_open_transactions(
      {}, {batch(0, 7, true, false), batch(1, 5, true, false), batch(2, 6, true, false)});
  REQUIRE(open.size() == 3);
  CHECK(open[0].first_offset == 0);
  CHECK(open[1].first_offset == 1);
  CHECK(open[2].first_offset == 2);
}

TEST_CASE("Kafka's fixture whole: the snapshot at the log end and every transaction ended",
          "[storage][producer_transactions]") {
  const PartitionReplica r = load_partition_replica(kTx, ReplicaOverrides{9, 9, 0, true});
  const auto got = replica_open_transactions(r);
  REQUIRE(got.open);
  CHECK(got.open->empty());
  CHECK(got.source.find(kSnapshot) != std::string::npos);
}

TEST_CASE("COMMIT marker gone and no snapshot in range: the replay from the log start opens it",
          "[storage][producer_transactions]") {
  const auto headers = fixture_headers();
  test::ScratchReplica s(kTx);
  cut_before(s, 3);  // the snapshot at 9 is past the log end now: truncateAndReload drops it
  const PartitionReplica r = load_partition_replica(s.dir);
  REQUIRE(r.log_end_offset == 3);
  const auto got = replica_open_transactions(r);
  REQUIRE(got.open);
  REQUIRE(got.open->size() == 1);
  CHECK(got.open->front().producer_id == headers.front().producer_id);
  CHECK(got.open->front().producer_epoch == headers.front().producer_epoch);
  CHECK(got.open->front().first_offset == 0);
  CHECK(got.source.find("replayed from its start") != std::string::npos);
}

TEST_CASE("ABORT marker gone: the committed transaction is closed and the aborted one open",
          "[storage][producer_transactions]") {
  test::ScratchReplica s(kTx);
  cut_before(s, 6);
  const auto got = replica_open_transactions(load_partition_replica(s.dir));
  REQUIRE(got.open);
  REQUIRE(got.open->size() == 1);
  CHECK(got.open->front().first_offset == 4);
}

TEST_CASE("No snapshot after a clean shutdown: Kafka assumes no producer state",
          "[storage][producer_transactions]") {
  test::ScratchReplica s(kTx);
  cut_before(s, 3);
  s.clean_shutdown();
  const auto got = replica_open_transactions(load_partition_replica(s.dir));
  REQUIRE(got.open);
  CHECK(got.open->empty());
  CHECK(got.source.find("clean shutdown") != std::string::npos);
}

TEST_CASE("A snapshot's ongoing transaction is open and a corrupt snapshot is skipped",
          "[storage][producer_transactions]") {
  test::ScratchReplica s(kTx);
  test::spit(s.file(kSnapshot), snapshot_with(99, 4, 7));
  {
    const auto got = replica_open_transactions(load_partition_replica(s.dir));
    REQUIRE(got.open);
    REQUIRE(got.open->size() == 1);
    CHECK(got.open->front().producer_id == 99);
    CHECK(got.open->front().producer_epoch == 4);
    CHECK(got.open->front().first_offset == 7);
    CHECK(got.open->front().last_timestamp == 77);
  }
  // CorruptSnapshotException (a CRC mismatch): skipped, no older one: replay from the start.
  s.flip(kSnapshot, 20);
  const auto got = replica_open_transactions(load_partition_replica(s.dir));
  REQUIRE(got.open);
  CHECK(got.open->empty());
  CHECK(got.source.find("replayed from its start") != std::string::npos);
}
