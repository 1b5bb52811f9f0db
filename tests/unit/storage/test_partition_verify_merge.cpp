// PartitionVerifier: a partition's segments verified apart (on other threads, before the
// segments ahead of them) and merged give what verify_partition gives walking them in order:
// the same findings in the same order, the same recovery cuts, the same loaded replica. The
// fixture is a real Kafka 4.1.1 replica dir of four segments (unit/data/indexes/ix-0: 0, 8,
// 16, 24), and copies damaged across a segment boundary, where the rules that carry state
// from one segment to the next (offsets never go backwards, partition leader epochs never
// decrease, LogLoader's epoch caches and recovery cut) decide.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/partition_verify.hpp"
#include "support/scratch_files.hpp"

namespace fs = std::filesystem;
using namespace kepoch;

namespace {

const fs::path kIx = fs::path(KEPOCH_SOURCE_DIR) / "tests/unit/data/indexes/ix-0";
const std::string kSeg8 = "00000000000000000008.log";
const std::string kSeg16 = "00000000000000000016.log";
const std::string kSeg24 = "00000000000000000024.log";

using test::ScratchReplica;
using test::slurp;
using test::spit;

// The byte positions of a segment's batches.
std::vector<std::uint64_t> batch_positions(const fs::path& log) {
  std::vector<std::uint64_t> out;
  LogSegmentReader reader(log, /*load_batches=*/false);
  while (const auto* e = reader.next())
    out.push_back(e->header.position);
  return out;
}

void put_be(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i, v >>= 8)
    b.at(at + static_cast<std::size_t>(i)) = static_cast<std::uint8_t>(v & 0xff);
}

// Sets the partition leader epoch (bytes 12..15 of a v2 batch, outside its CRC) of the
// segment's batches `which` (all when empty).
void set_epoch(const ScratchReplica& r, const std::string& seg, std::int32_t epoch,
               const std::vector<std::size_t>& which = {}) {
  auto bytes = slurp(r.file(seg));
  const auto positions = batch_positions(r.file(seg));
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (!which.empty() && std::find(which.begin(), which.end(), i) == which.end()) continue;
    put_be(bytes, positions[i] + 12, static_cast<std::uint32_t>(epoch), 4);
  }
  spit(r.file(seg), bytes);
}

// Sets the base offset (bytes 0..7, outside the CRC) of the segment's first batch.
void set_first_base_offset(const ScratchReplica& r, const std::string& seg, std::int64_t base) {
  auto bytes = slurp(r.file(seg));
  put_be(bytes, 0, static_cast<std::uint64_t>(base), 8);
  spit(r.file(seg), bytes);
}

// Sets the base offset (bytes 0..7, outside the CRC) of the segment's last batch.
void set_last_base_offset(const ScratchReplica& r, const std::string& seg, std::int64_t base) {
  auto bytes = slurp(r.file(seg));
  put_be(bytes, batch_positions(r.file(seg)).back(), static_cast<std::uint64_t>(base), 8);
  spit(r.file(seg), bytes);
}

// The segments verified last to first: every segment but the first is walked before the
// ones ahead of it, from an empty cross-segment state, and merged by finish().
PartitionVerification verify_backwards(const fs::path& dir) {
  PartitionVerifier v(dir);
  for (std::size_t i = v.segment_count(); i-- > 0;)
    v.verify_segment(i);
  return v.finish();
}

void check_same_truncation(const std::optional<RecoveryTruncation>& a,
                           const std::optional<RecoveryTruncation>& b) {
  REQUIRE(a.has_value() == b.has_value());
  if (!a) return;
  CHECK(a->truncate_to_offset == b->truncate_to_offset);
  CHECK(a->truncated_segment == b->truncated_segment);
  CHECK(a->valid_bytes == b->valid_bytes);
  CHECK(a->truncated_bytes == b->truncated_bytes);
  CHECK(a->stop_reason == b->stop_reason);
  CHECK(a->position == b->position);
  CHECK(a->message == b->message);
  CHECK(a->deleted_segments == b->deleted_segments);
  CHECK(a->deleted_bytes == b->deleted_bytes);
}

// Everything `partition verify` and `logdir scan` report from a verification.
void check_same(const PartitionVerification& a, const PartitionVerification& b) {
  REQUIRE(a.findings.size() == b.findings.size());
  for (std::size_t i = 0; i < a.findings.size(); ++i) {
    INFO("finding " << i << ": " << a.findings[i].message);
    CHECK(a.findings[i].severity == b.findings[i].severity);
    CHECK(a.findings[i].file == b.findings[i].file);
    CHECK(a.findings[i].position == b.findings[i].position);
    CHECK(a.findings[i].offset == b.findings[i].offset);
    CHECK(a.findings[i].message == b.findings[i].message);
  }
  check_same_truncation(a.recovery_full, b.recovery_full);
  check_same_truncation(a.recovery_next_start, b.recovery_next_start);
  CHECK(a.next_start_failure.has_value() == b.next_start_failure.has_value());
  const PartitionReplica& x = a.replica;
  const PartitionReplica& y = b.replica;
  REQUIRE(x.segments.size() == y.segments.size());
  for (std::size_t i = 0; i < x.segments.size(); ++i) {
    CHECK(x.segments[i].file == y.segments[i].file);
    CHECK(x.segments[i].batches == y.segments[i].batches);
    CHECK(x.segments[i].next_offset == y.segments[i].next_offset);
  }
  CHECK(x.log_end_offset == y.log_end_offset);
  CHECK(x.recovery_truncated_bytes == y.recovery_truncated_bytes);
  CHECK(x.recovery_stop.has_value() == y.recovery_stop.has_value());
  CHECK(x.rebuilt_entries == y.rebuilt_entries);
  CHECK(x.loaded.cache.entries() == y.loaded.cache.entries());
  CHECK(x.as_leader.cache.entries() == y.as_leader.cache.entries());
  CHECK(x.notes == y.notes);
}

std::size_t count_containing(const PartitionVerification& v, const std::string& text) {
  std::size_t n = 0;
  for (const auto& f : v.findings)
    n += f.message.find(text) != std::string::npos;
  return n;
}

// `logdir scan` of the replica's scratch log dir with one worker and with two that split
// every partition (split_bytes 0): the same summary.
void check_scan_jobs_agree(const ScratchReplica& r) {
  LogDirScanOptions one;
  one.jobs = 1;
  LogDirScanOptions two;
  two.jobs = 2;
  two.split_bytes = 0;
  const auto a = scan_log_dirs({r.logdir}, one);
  const auto b = scan_log_dirs({r.logdir}, two);
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  REQUIRE(a[0].partitions.size() == 1);
  REQUIRE(b[0].partitions.size() == 1);
  const PartitionScan& x = a[0].partitions[0];
  const PartitionScan& y = b[0].partitions[0];
  CHECK(x.errors == y.errors);
  CHECK(x.warnings == y.warnings);
  CHECK(x.batches == y.batches);
  CHECK(x.log_end_offset == y.log_end_offset);
  REQUIRE(x.first_error.has_value() == y.first_error.has_value());
  if (x.first_error) {
    CHECK(x.first_error->message == y.first_error->message);
    CHECK(x.first_error->position == y.first_error->position);
  }
  CHECK(x.recovery_full.has_value() == y.recovery_full.has_value());
  CHECK(x.recovery_next_start.has_value() == y.recovery_next_start.has_value());
}

}  // namespace

TEST_CASE("segments verified apart and merged: Kafka's clean replica dir", "[PartitionVerifier]") {
  const auto in_order = verify_partition(kIx);
  REQUIRE(in_order.replica.segments.size() == 4);
  CHECK(in_order.findings.empty());
  check_same(verify_backwards(kIx), in_order);
}

TEST_CASE("segments verified apart: offsets going backwards across a segment boundary",
          "[PartitionVerifier]") {
  ScratchReplica r(kIx);
  // Segment 8's last batch claims offset 20 (inside the segment's own range, as recovery's
  // LogSegment.ensureOffsetInRange asks), so segment 16's first batch, at 16, goes backwards.
  set_last_base_offset(r, kSeg8, 20);
  const auto in_order = verify_partition(r.dir);
  // Segment 16's batches at 16..20 each start at or below the 20 before them.
  REQUIRE(count_containing(in_order, "offsets go backwards") == 5);
  check_same(verify_backwards(r.dir), in_order);
  check_scan_jobs_agree(r);
}

TEST_CASE("segments verified apart: a batch below its recovered segment's base is refused alike",
          "[PartitionVerifier]") {
  ScratchReplica r(kIx);
  // Segment 16's first batch claims offset 12: LogSegment.recover's ensureOffsetInRange throws
  // LogSegmentOffsetOverflowException (Kafka then splits the segment), which kepoch does not
  // predict: in order or apart, the same one-line refusal naming the file and byte.
  set_first_base_offset(r, kSeg16, 12);
  REQUIRE_THROWS_WITH(verify_partition(r.dir),
                      Catch::Contains("00000000000000000016.log") &&
                          Catch::Contains("do not fit a segment at base offset 16"));
  REQUIRE_THROWS_WITH(verify_backwards(r.dir),
                      Catch::Contains("do not fit a segment at base offset 16"));
}

TEST_CASE("segments verified apart: a gap between segments is no finding", "[PartitionVerifier]") {
  ScratchReplica r(kIx);
  // Segment 24's first batch at offset 40: a gap after segment 16 (normal after compaction),
  // and the batches after it in segment 24 then go backwards within the segment.
  set_first_base_offset(r, kSeg24, 40);
  const auto in_order = verify_partition(r.dir);
  CHECK(count_containing(in_order, "offsets go backwards") >= 1);
  check_same(verify_backwards(r.dir), in_order);
  check_scan_jobs_agree(r);
}

TEST_CASE("segments verified apart: the epoch goes backwards at a segment boundary",
          "[PartitionVerifier]") {
  ScratchReplica r(kIx);
  // Segment 8 written at epoch 5, segments 16 and 24 at the fixture's lower epoch: every
  // batch after the boundary is an error naming segment 8's first batch, and the epoch
  // caches LogLoader rebuilds follow.
  set_epoch(r, kSeg8, 5);
  const auto in_order = verify_partition(r.dir);
  CHECK(count_containing(in_order, "is below epoch 5 of the batch at offset 8") >= 2);
  check_same(verify_backwards(r.dir), in_order);
  check_scan_jobs_agree(r);
}

TEST_CASE("segments verified apart: a segment starting at the epoch before it, then lower",
          "[PartitionVerifier]") {
  ScratchReplica r(kIx);
  // Segments 8 and 16 at epoch 5, then segment 16's second batch at epoch 3: the finding
  // names the batch where epoch 5 began (offset 8, in segment 8), which segment 16's own
  // walk cannot know.
  set_epoch(r, kSeg8, 5);
  set_epoch(r, kSeg16, 5);
  set_epoch(r, kSeg16, 3, {1});
  const auto in_order = verify_partition(r.dir);
  CHECK(count_containing(in_order,
                         "partition leader epoch 3 is below epoch 5 of the batch at "
                         "offset 8") == 1);
  check_same(verify_backwards(r.dir), in_order);
  check_scan_jobs_agree(r);
}

TEST_CASE("segments verified apart: recovery cuts an earlier segment, later ones are not loaded",
          "[PartitionVerifier]") {
  ScratchReplica r(kIx);
  r.flip(kSeg8, 70);        // the first batch of segment 8 fails its CRC: recovery cuts there
  set_epoch(r, kSeg24, 7);  // a newer epoch the loader must not take from a deleted segment
  const auto in_order = verify_partition(r.dir);
  REQUIRE(in_order.recovery_full);
  CHECK(in_order.recovery_full->truncated_segment == kSeg8);
  check_same(verify_backwards(r.dir), in_order);
  check_scan_jobs_agree(r);
}
