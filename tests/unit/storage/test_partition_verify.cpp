// partition verify's recovery model on real Kafka 4.1.1 replica dirs (transactions/tx-0, one
// segment; unit/data/indexes/ix-0, segments 0, 8, 16, 24) and copies damaged at known bytes:
// LogSegment.recover keeps the bytes before the first batch failing ensureValid or a partial
// tail, LogLoader.recoverLog deletes every later segment, a clean-shutdown marker skips
// recovery and the recovery point picks the first recovered segment.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "kepoch/storage/partition_verify.hpp"
#include "support/scratch_files.hpp"

namespace fs = std::filesystem;
using namespace kepoch;

namespace {

const fs::path kTx = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/transactions/tx-0";
const fs::path kIx = fs::path(KEPOCH_SOURCE_DIR) / "tests/unit/data/indexes/ix-0";

using test::ScratchReplica;
using test::slurp;
using test::spit;

std::size_t errors(const PartitionVerification& v) {
  std::size_t n = 0;
  for (const auto& f : v.findings)
    n += f.severity == VerifyFinding::Severity::error;
  return n;
}

const std::string kLog0 = "00000000000000000000.log";

}  // namespace

TEST_CASE("real replica dirs written by Kafka verify clean with nothing to recover") {
  for (const auto& dir : {kTx, kIx}) {
    const auto v = verify_partition(dir);
    CHECK(errors(v) == 0);
    CHECK(v.findings.empty());
    CHECK_FALSE(v.recovery_full);
    CHECK_FALSE(v.recovery_next_start);
  }
  CHECK(verify_partition(kIx).replica.log_end_offset == 31);
}

TEST_CASE("LogSegment.recover stops at the first batch failing ensureValid (CRC)") {
  ScratchReplica r(kTx);
  r.flip(kLog0, 226 + 70);  // a payload byte of the batch at 226 (offsets 4..5)
  const auto v = verify_partition(r.dir);
  REQUIRE(errors(v) == 1);
  CHECK(v.findings[0].file == kLog0);
  CHECK(v.findings[0].position == 226u);
  CHECK(v.findings[0].offset == 4);
  CHECK_THAT(v.findings[0].message, Catch::StartsWith("Record is corrupt (stored crc = "));
  REQUIRE(v.recovery_full);
  CHECK(v.recovery_full->truncated_segment == kLog0);
  CHECK(v.recovery_full->truncate_to_offset == 4);
  CHECK(v.recovery_full->valid_bytes == 226);
  CHECK(v.recovery_full->truncated_bytes == 534 - 226);
  CHECK(v.recovery_full->stop_reason == RecoveryStop::invalid_batch);
  CHECK(v.recovery_full->deleted_segments.empty());
  // No marker, no recovery-point checkpoint (0): the next start recovers the segment.
  REQUIRE(v.recovery_next_start);
  CHECK(v.recovery_next_start->valid_bytes == 226);
  // The replica model of `inspect` agrees on the log end offset.
  CHECK(v.replica.log_end_offset == 4);

  r.clean_shutdown();  // after a clean shutdown LogLoader validates nothing
  const auto clean = verify_partition(r.dir);
  CHECK_FALSE(clean.recovery_next_start);
  REQUIRE(clean.recovery_full);
  CHECK(clean.recovery_full->valid_bytes == 226);
}

TEST_CASE("recoverLog deletes every segment after the one that lost bytes") {
  ScratchReplica r(kIx);
  const std::string seg16 = "00000000000000000016.log";
  r.flip(seg16, 70);  // the first batch of segment 16 (offset 16)
  auto v = verify_partition(r.dir);
  REQUIRE(v.recovery_full);
  CHECK(v.recovery_full->truncated_segment == seg16);
  CHECK(v.recovery_full->truncate_to_offset == 16);  // emptied: readNextOffset = base
  CHECK(v.recovery_full->valid_bytes == 0);
  CHECK(v.recovery_full->truncated_bytes == 638);
  CHECK(v.recovery_full->deleted_segments == std::vector<std::string>{"00000000000000000024.log"});
  CHECK(v.recovery_full->deleted_bytes == 558);
  CHECK(v.recovery_next_start);

  // Recovery point 24: recoverLog starts at segment 24 and never sees segment 16.
  r.recovery_point("ix", 24);
  v = verify_partition(r.dir);
  CHECK_FALSE(v.recovery_next_start);
  CHECK(v.recovery_full);
  // Recovery point 20 lies in segment 16, which is recovered.
  r.recovery_point("ix", 20);
  v = verify_partition(r.dir);
  REQUIRE(v.recovery_next_start);
  CHECK(v.recovery_next_start->truncated_segment == seg16);
  CHECK(v.recovery_next_start->deleted_segments.size() == 1);
}

TEST_CASE("a torn tail in the last segment: recovery keeps the whole batches before it") {
  ScratchReplica r(kIx);
  const std::string seg24 = "00000000000000000024.log";
  fs::resize_file(r.file(seg24), 478 + 40);  // the batch at 478 (offset 30) cut
  const auto v = verify_partition(r.dir);
  REQUIRE(errors(v) >= 1);
  CHECK(v.findings.back().file == seg24);  // the .index entry for offset 30 points past it too
  REQUIRE(v.recovery_next_start);
  CHECK(v.recovery_next_start->truncated_segment == seg24);
  CHECK(v.recovery_next_start->truncate_to_offset == 30);
  CHECK(v.recovery_next_start->valid_bytes == 478);
  CHECK(v.recovery_next_start->truncated_bytes == 40);
  CHECK(v.recovery_next_start->stop_reason == RecoveryStop::partial_batch);
  CHECK(v.recovery_next_start->deleted_segments.empty());
  CHECK(v.replica.log_end_offset == 30);
}

TEST_CASE("a segment without its .index is recovered at open even after a clean shutdown") {
  ScratchReplica r(kIx);
  r.flip("00000000000000000008.log", 160 + 70);  // batch at 160, offset 10
  fs::remove(r.file("00000000000000000008.index"));
  r.clean_shutdown();
  const auto v = verify_partition(r.dir);
  REQUIRE(v.recovery_next_start);
  CHECK(v.recovery_next_start->truncated_segment == "00000000000000000008.log");
  CHECK(v.recovery_next_start->truncate_to_offset == 10);
  CHECK(v.recovery_next_start->valid_bytes == 160);
  // LogLoader.loadSegmentFiles does not delete later segments; recoverLog never runs.
  CHECK(v.recovery_next_start->deleted_segments.empty());
  REQUIRE(v.recovery_full);
  CHECK(v.recovery_full->deleted_segments.size() == 2);
}

TEST_CASE("offsets that go backwards: an error, recovery notices only at an index point") {
  ScratchReplica r(kTx);
  auto bytes = slurp(r.file(kLog0));
  REQUIRE(bytes.size() == 534);
  // Append a copy of the first batch (offsets 0..2; its CRC does not cover the base offset).
  bytes.insert(bytes.end(), bytes.begin(), bytes.begin() + 148);
  spit(r.file(kLog0), bytes);
  auto v = verify_partition(r.dir);
  REQUIRE(errors(v) == 1);
  CHECK(v.findings[0].position == 534u);
  CHECK(v.findings[0].offset == 0);
  // index.interval.bytes 4096: no index entry is written in 682 bytes, nothing is cut.
  CHECK_FALSE(v.recovery_full);
  // index.interval.bytes 0: the index entry for offset 2 after one for offset 8 throws
  // InvalidOffsetException and LogLoader empties the segment.
  v = verify_partition(r.dir, 0);
  REQUIRE(v.recovery_full);
  CHECK(v.recovery_full->stop_reason == RecoveryStop::invalid_offset);
  CHECK(v.recovery_full->valid_bytes == 0);
  CHECK(v.recovery_full->truncate_to_offset == 0);
  CHECK(v.recovery_full->truncated_bytes == 682);
}

namespace {

// verify_partition reads each segment once, feeding its batches to the replica loader; the
// replica must be the one load_partition_replica builds walking the segments itself.
void check_same_replica(const fs::path& dir) {
  const PartitionReplica want = load_partition_replica(dir);
  const PartitionReplica got = verify_partition(dir).replica;
  REQUIRE(got.segments.size() == want.segments.size());
  for (std::size_t i = 0; i < want.segments.size(); ++i) {
    CHECK(got.segments[i].file == want.segments[i].file);
    CHECK(got.segments[i].batches == want.segments[i].batches);
    CHECK(got.segments[i].next_offset == want.segments[i].next_offset);
  }
  CHECK(got.log_end_offset == want.log_end_offset);
  CHECK(got.recovery_truncated_bytes == want.recovery_truncated_bytes);
  REQUIRE(got.recovery_stop.has_value() == want.recovery_stop.has_value());
  if (want.recovery_stop) {
    CHECK(got.recovery_stop->reason == want.recovery_stop->reason);
    CHECK(got.recovery_stop->position == want.recovery_stop->position);
    CHECK(got.recovery_stop->message == want.recovery_stop->message);
  }
  CHECK(got.rebuilt_entries == want.rebuilt_entries);
  CHECK(got.loaded.cache.entries() == want.loaded.cache.entries());
  CHECK(got.as_leader.cache.entries() == want.as_leader.cache.entries());
  CHECK(got.loaded.high_watermark == want.loaded.high_watermark);
  CHECK(got.notes == want.notes);
}

}  // namespace

TEST_CASE("verify reads each segment once: its replica is the one the loader builds alone") {
  check_same_replica(kTx);
  check_same_replica(kIx);
  ScratchReplica r(kIx);
  r.flip("00000000000000000016.log", 70);  // recovery cuts segment 16, deletes 24
  check_same_replica(r.dir);
  fs::resize_file(r.file("00000000000000000024.log"), 478 + 40);  // and a torn tail
  check_same_replica(r.dir);
  r.clean_shutdown();  // nothing recovered
  check_same_replica(r.dir);
  // Two names with offset 8: the loader lists both, the checks one, so each walks alone.
  fs::copy_file(r.file("00000000000000000008.log"), r.file("8.log"));
  check_same_replica(r.dir);
}

TEST_CASE("The log dir's checkpoints against the log: a log start past the end, a HW above it",
          "[storage][partition_verify]") {
  // LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd: a log start checkpoint past the log
  // end deletes every segment at the next start, an error; a high watermark above the log end
  // (UnifiedLog.updateHighWatermark lowers it) names committed offsets this replica lost.
  ScratchReplica r(kTx);
  std::ofstream(r.logdir / "log-start-offset-checkpoint") << "0\n1\ntx 0 1000\n";
  std::ofstream(r.logdir / "replication-offset-checkpoint") << "0\n1\ntx 0 2000\n";
  const PartitionVerification v = verify_partition(r.dir);
  auto has = [&](VerifyFinding::Severity sev, const char* file, const char* text) {
    for (const auto& f : v.findings)
      if (f.severity == sev && f.file == file && f.message.find(text) != std::string::npos)
        return true;
    return false;
  };
  CHECK(has(VerifyFinding::Severity::error, "../log-start-offset-checkpoint",
            "the next start deletes every segment"));
  CHECK(has(VerifyFinding::Severity::warning, "../replication-offset-checkpoint",
            "high watermark 2000 is above the log end"));
  CHECK(v.has_errors());
  // Within the log: neither.
  std::ofstream(r.logdir / "log-start-offset-checkpoint", std::ios::trunc) << "0\n1\ntx 0 0\n";
  std::ofstream(r.logdir / "replication-offset-checkpoint", std::ios::trunc) << "0\n1\ntx 0 1\n";
  const PartitionVerification w = verify_partition(r.dir);
  for (const auto& f : w.findings)
    CHECK(f.file.rfind("../", 0) != 0);
}
