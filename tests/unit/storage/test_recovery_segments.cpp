// The recovery vectors of shared/spec kafka-formats 11.4 that concern segment bytes, run on
// real Kafka 4.1.1 segments (Kafka 4 writes only v2 batches, so the v1 vectors run on v2
// batches: same stop rule, FileLogInputStream + ensureValid). Each test names the Kafka test
// it mirrors.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/partition_verify.hpp"
#include "support/scratch_files.hpp"

namespace fs = std::filesystem;
using namespace kepoch;

namespace {

const fs::path kTx = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/transactions/tx-0";
const fs::path kCompacted = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/compacted/cmp-0";
const std::string kLog0 = "00000000000000000000.log";

using test::ScratchReplica;
using test::slurp;
using test::spit;

struct Batch {
  std::uint64_t position;
  std::int64_t base_offset;
  std::int64_t last_offset;
};

std::vector<Batch> batches_of(const fs::path& log) {
  std::vector<Batch> out;
  LogSegmentReader reader(log, /*load_batches=*/false);
  while (auto e = reader.next())
    out.push_back({e->header.position, e->header.base_offset, e->header.last_offset()});
  return out;
}

}  // namespace

TEST_CASE("LogSegmentTest.testRecoveryWithCorruptMessage", "[recovery][11.4]") {
  // Garbage from (start of batch k + r), r in 0..14, to the end of the file: recovery keeps
  // exactly the batches before k, whatever the garbage makes of batch k's header (a size
  // below the minimum, a size past the end, or a CRC mismatch).
  const auto original = slurp(kTx / kLog0);
  const auto batches = batches_of(kTx / kLog0);
  REQUIRE(batches.size() >= 4);
  std::mt19937 random(11);
  for (std::size_t k = 0; k < batches.size(); ++k) {
    const std::size_t r = random() % 15;
    ScratchReplica copy(kTx);
    auto bytes = original;
    for (std::size_t i = batches[k].position + r; i < bytes.size(); ++i)
      bytes[i] = static_cast<std::uint8_t>(random());
    spit(copy.dir / kLog0, bytes);
    INFO("garbage from byte " << batches[k].position + r << " (batch " << k << ")");
    const auto v = verify_partition(copy.dir);
    REQUIRE(v.recovery_full);
    CHECK(v.recovery_full->truncate_to_offset == batches[k].base_offset);
    CHECK(v.recovery_full->valid_bytes == batches[k].position);
    CHECK(v.replica.log_end_offset == batches[k].base_offset);
  }
}

TEST_CASE("LogLoaderTest.testCorruptLog", "[recovery][11.4]") {
  // Garbage appended to the active segment and its .index; an unclean start recovers the
  // segment: every record stays, the log end offset is unchanged, the garbage is cut.
  ScratchReplica copy(kTx);
  const auto intact = verify_partition(kTx);
  std::mt19937 random(50);
  for (const char* name : {"00000000000000000000.log", "00000000000000000000.index"}) {
    auto bytes = slurp(copy.dir / name);
    for (int i = 0; i < 37; ++i)
      bytes.push_back(static_cast<std::uint8_t>(random()));
    spit(copy.dir / name, bytes);
  }
  const auto v = verify_partition(copy.dir);
  CHECK(v.replica.log_end_offset == intact.replica.log_end_offset);
  REQUIRE(v.recovery_next_start);
  CHECK(v.recovery_next_start->truncate_to_offset == intact.replica.log_end_offset);
  CHECK(v.recovery_next_start->valid_bytes == fs::file_size(kTx / kLog0));
  CHECK(v.recovery_next_start->truncated_bytes == 37);
}

TEST_CASE("LogSegmentTest.shouldTruncateEvenIfOffsetPointsToAGapInTheLog", "[recovery][11.4]") {
  // truncateTo(x) cuts at the first batch whose last offset >= x, so an x inside a gap (here
  // the offsets the cleaner removed below the first batch of a compacted log) keeps
  // everything below the gap and drops the batch after it. batches_from follows that rule:
  // it is what predict counts as removed.
  const PartitionReplica replica = load_partition_replica(kCompacted);
  const auto batches = batches_of(kCompacted / kLog0);
  REQUIRE(batches.size() >= 2);
  REQUIRE(batches[0].base_offset > 0);  // a gap at the start: offsets 0..base-1 are gone
  const BatchRange from_gap = batches_from(replica, batches[0].base_offset - 1);
  REQUIRE_FALSE(from_gap.batches.empty());
  CHECK(from_gap.batches.front().base_offset == batches[0].base_offset);
  // An offset inside a batch drops that whole batch.
  const BatchRange inside = batches_from(replica, batches[1].last_offset);
  REQUIRE_FALSE(inside.batches.empty());
  CHECK(inside.batches.front().base_offset == batches[1].base_offset);
}

namespace {

const fs::path kIx = fs::path(KEPOCH_SOURCE_DIR) / "tests/unit/data/indexes/ix-0";

// Garbage over an index file from byte `from` on; then what verify says and what recovery
// keeps. LogSegment.recover resets the indexes and rebuilds them from the batches, so no
// record may be lost; kepoch must still report the damaged file.
void check_index_garbage(const std::string& name, std::size_t from) {
  ScratchReplica copy(kIx);
  auto bytes = slurp(copy.dir / name);
  REQUIRE(bytes.size() > from);
  std::mt19937 random(5);
  for (std::size_t i = from; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(random());
  spit(copy.dir / name, bytes);
  const auto intact = verify_partition(kIx);
  const auto v = verify_partition(copy.dir);
  bool reported = false;
  for (const auto& f : v.findings)
    reported = reported || (f.file == name && f.severity == VerifyFinding::Severity::error);
  CHECK(reported);
  CHECK_FALSE(v.recovery_full);  // nothing to cut: every offset stays readable
  CHECK(v.replica.log_end_offset == intact.replica.log_end_offset);
}

}  // namespace

TEST_CASE("LogSegmentTest.testRecoveryFixesCorruptIndex", "[recovery][11.4]") {
  check_index_garbage("00000000000000000024.index", 5);
}

TEST_CASE("LogSegmentTest.testRecoveryFixesCorruptTimeIndex", "[recovery][11.4]") {
  check_index_garbage("00000000000000000024.timeindex", 0);
}

TEST_CASE("LogLoader.loadSegmentFiles: a segment without an offset index is recovered at open",
          "[storage][recovery]") {
  // After a clean shutdown recoverLog is skipped, but LogSegment.sanityCheck throws
  // NoSuchFileException for a missing .index and recoverSegment runs anyway: a corrupt batch
  // (offsets 6-8 of lc-0, one byte flipped) cuts the log there. predict and diff load the
  // replica as Kafka will hold it, so its log end is 6, not 17.
  const fs::path lc0 = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/leader-changes/broker-2/lc-0";
  ScratchReplica r(lc0);
  r.clean_shutdown();
  r.flip(kLog0, 248 + 100);
  CHECK(load_partition_replica(r.dir).log_end_offset == 17);  // the index is there: not read
  fs::remove(r.file("00000000000000000000.index"));
  for (const LoadDepth depth : {LoadDepth::whole, LoadDepth::tail}) {
    const PartitionReplica loaded = load_partition_replica(r.dir, {}, depth);
    CHECK(loaded.log_end_offset == 6);
    CHECK(loaded.recovery_stop.has_value());
    CHECK(loaded.recovery_truncated_bytes > 0);
  }
}

namespace {

// One AbortedTxn entry (34 bytes, TransactionIndex.java): version, producerId, firstOffset,
// lastOffset, lastStableOffset, big-endian.
std::vector<std::uint8_t> aborted_txn(std::int16_t version, std::int64_t first, std::int64_t last) {
  std::vector<std::uint8_t> out;
  auto put = [&](std::uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i)
      out.push_back(static_cast<std::uint8_t>((v >> (8 * i)) & 0xFF));
  };
  put(static_cast<std::uint16_t>(version), 2);
  put(7, 8);
  put(static_cast<std::uint64_t>(first), 8);
  put(static_cast<std::uint64_t>(last), 8);
  put(static_cast<std::uint64_t>(last + 1), 8);
  return out;
}

}  // namespace

TEST_CASE(
    "LogLoader.loadSegmentFiles: a .txnindex failing TransactionIndex.sanityCheck is recovered at "
    "open",
    "[storage][recovery]") {
  // LogSegment.sanityCheck runs TransactionIndex.sanityCheck on every segment LogLoader
  // opens, clean shutdown or not; an aborted transaction whose lastOffset is below the
  // segment's base offset throws CorruptIndexException, and loadSegmentFiles recovers the
  // segment: a corrupt batch (offsets 6-8 of lc-0, one byte flipped) cuts the log there.
  const fs::path lc0 = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/leader-changes/broker-2/lc-0";
  ScratchReplica r(lc0);
  r.clean_shutdown();
  r.flip(kLog0, 248 + 100);
  const std::string txn = "00000000000000000000.txnindex";
  spit(r.file(txn), aborted_txn(0, 0, 5));  // lastOffset 5 >= base offset 0: sane
  CHECK(load_partition_replica(r.dir).log_end_offset == 17);
  spit(r.file(txn), aborted_txn(0, -3, -1));  // lastOffset -1 < base offset 0
  for (const LoadDepth depth : {LoadDepth::whole, LoadDepth::tail}) {
    const PartitionReplica loaded = load_partition_replica(r.dir, {}, depth);
    CHECK(loaded.log_end_offset == 6);
    CHECK(loaded.recovery_stop.has_value());
    CHECK(loaded.recovery_truncated_bytes > 0);
  }
  // The version byte above 0: the index's iterator throws KafkaException, not a
  // CorruptIndexException; it escapes LogLoader and the broker exits: no load to tell.
  spit(r.file(txn), aborted_txn(0x0100, 0, 5));
  CHECK_THROWS_AS(load_partition_replica(r.dir), InputError);
}
