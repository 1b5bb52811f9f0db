// dump_segment's known_crcs: the CRCs a header walk of the same file computed, taken by the
// printing walk instead of computing them again, only where the batch's stored CRC equals
// the known one (Kafka's DefaultRecordBatch.ensureValid found it valid then).

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <vector>

#include "kepoch/storage/segment_dump.hpp"
#include "support/source_dir.hpp"

namespace fs = std::filesystem;
using namespace kepoch;

namespace {

// Real Kafka's segment: broker 1's two batches (offsets 0-4 and 5-7).
std::string fixture() {
  return std::string(KEPOCH_SOURCE_DIR) +
         "/tests/data/divergence/before/broker-1/d-0/00000000000000000000.log";
}

struct Seen {
  std::vector<std::uint32_t> computed;
  std::vector<bool> valid;
};

Seen walk(const std::string& file, std::span<const std::uint32_t> known) {
  SegmentDumpOptions o;
  o.known_crcs = known;
  Seen s;
  dump_segment(file, o, [&](DumpedBatch& b) {
    s.computed.push_back(b.computed_crc);
    s.valid.push_back(b.crc_valid.value_or(false) && !b.invalid);
  });
  return s;
}

}  // namespace

TEST_CASE("segment dump: a header walk's CRCs are reused only where the stored CRC matches",
          "[storage][segment_dump]") {
  const Seen first = walk(fixture(), {});
  REQUIRE(first.computed.size() == 2);
  CHECK(first.valid == std::vector<bool>{true, true});
  // Reused: the same answers.
  const Seen again = walk(fixture(), first.computed);
  CHECK(again.computed == first.computed);
  CHECK(again.valid == first.valid);

  // The second batch's records changed after the header walk (its stored CRC kept): the
  // known CRC still matches the stored one, so the walk takes it as checked; this is the
  // contract, the caller vouches that the known CRCs are of the same file.
  const fs::path dir = fs::temp_directory_path() / "kepoch-unit-segment-dump";
  fs::create_directories(dir);
  const fs::path copy = dir / "00000000000000000000.log";
  std::vector<char> bytes;
  {
    std::ifstream in(fixture(), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[200] ^= 0x55;  // inside the second batch (it starts at byte 156)
  {
    std::ofstream out(copy, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  CHECK(walk(copy.string(), first.computed).valid == std::vector<bool>{true, true});
  const Seen fresh = walk(copy.string(), {});
  CHECK(fresh.valid == std::vector<bool>{true, false});  // ensureValid fails as computed
  // A known CRC that differs from the stored one (the header walk found the batch invalid,
  // or another batch stood there) is never taken: the CRC is computed.
  const std::vector<std::uint32_t> wrong{first.computed[0], first.computed[1] ^ 1u};
  const Seen computed = walk(copy.string(), wrong);
  CHECK(computed.valid == std::vector<bool>{true, false});
  CHECK(computed.computed == fresh.computed);
  // Fewer known CRCs than batches: the rest are computed.
  const std::vector<std::uint32_t> one{first.computed[0]};
  CHECK(walk(copy.string(), one).valid == std::vector<bool>{true, false});
  fs::remove_all(dir);
}

// KeptBatches and replay_segment: `segment dump` checks every batch for the verdict that
// opens its report, keeping each batch's header facts, and prints the rows from them
// instead of reading the file again; past the budget it reads the rest.
namespace {

// Real Kafka's KRaft metadata log: 596 batches (one control batch), offsets 0..645.
std::string metadata_log() {
  return std::string(KEPOCH_SOURCE_DIR) +
         "/tests/data/metadata/__cluster_metadata-0/00000000000000000000.log";
}

// Everything a headers-only visit hands its visitor, as text.
std::string visited(const DumpedBatch& b) {
  const BatchHeader& h = b.header;
  return fmt::format("{} {} {} {} {} {} {} {} {} {} {} {} {} {} | {} {} {} | {} {} {} {} {} {} {}",
                     h.position, h.base_offset, h.size_field, h.magic, h.partition_leader_epoch,
                     h.crc, h.attributes, h.last_offset_delta, h.base_timestamp, h.max_timestamp,
                     h.producer_id, h.producer_epoch, h.base_sequence, h.records_count,
                     b.crc_valid ? (*b.crc_valid ? "valid" : "invalid") : "unloaded",
                     b.computed_crc, b.invalid.value_or("-"), b.records.size(), b.controls.size(),
                     b.records_error.has_value(), b.records_notes.size(), b.coordinator_error_count,
                     b.unwalked.has_value(), b.coordinator_checked);
}

struct Walked {
  std::vector<std::string> batches;
  SegmentDumpSummary summary;
};

std::string summary_text(const SegmentDumpSummary& s) {
  return fmt::format("{} {} {} {} {} {}", s.batches, s.stopped_early,
                     log_end_reason_name(s.end.reason), s.end.position, s.end.trailing_bytes,
                     s.end.message);
}

// The checking walk (keeping into `kept`), then the printing walk replayed from it.
Walked replayed(const std::string& file, const SegmentDumpOptions& o, KeptBatches& kept,
                Walked& first) {
  first.summary = dump_segment(file, o, [&](DumpedBatch& b) {
    first.batches.push_back(visited(b));
    kept.keep(b);
  });
  Walked again;
  again.summary = replay_segment(file, o, kept, first.summary,
                                 [&](DumpedBatch& b) { again.batches.push_back(visited(b)); });
  return again;
}

Walked reread(const std::string& file, const SegmentDumpOptions& o) {
  Walked w;
  w.summary = dump_segment(file, o, [&](DumpedBatch& b) { w.batches.push_back(visited(b)); });
  return w;
}

void check_same(const Walked& a, const Walked& b) {
  REQUIRE(a.batches.size() == b.batches.size());
  for (std::size_t i = 0; i < a.batches.size(); ++i) {
    INFO("batch " << i);
    CHECK(a.batches[i] == b.batches[i]);
  }
  CHECK(summary_text(a.summary) == summary_text(b.summary));
}

// A copy of the metadata log in a scratch dir, changed by `edit`.
fs::path edited_copy(const fs::path& dir, const std::function<void(std::vector<char>&)>& edit) {
  fs::create_directories(dir);
  std::vector<char> bytes;
  {
    std::ifstream in(metadata_log(), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  edit(bytes);
  const fs::path copy = dir / "00000000000000000000.log";
  std::ofstream out(copy, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return copy;
}

}  // namespace

TEST_CASE("segment dump: the kept batches replay exactly what reading the file again visits",
          "[storage][segment_dump]") {
  SegmentDumpOptions o;
  o.coordinator_checked = true;  // as segment dump's walks set it
  SECTION("the whole file, within the budget") {
    KeptBatches kept;
    Walked first;
    const Walked again = replayed(metadata_log(), o, kept, first);
    CHECK(kept.complete());
    CHECK(kept.size() == 596);
    CHECK(kept.bytes() == 596 * 64);
    CHECK(first.batches.size() == 596);
    check_same(again, first);
    check_same(again, reread(metadata_log(), o));
  }
  SECTION("filters and --max-batches") {
    o.from_offset = 100;
    o.max_batches = 50;
    KeptBatches kept;
    Walked first;
    const Walked again = replayed(metadata_log(), o, kept, first);
    CHECK(again.summary.stopped_early);
    CHECK(again.batches.size() == 50);
    check_same(again, reread(metadata_log(), o));
  }
}

TEST_CASE("segment dump: past the kept batches' budget the rest is read again, the same",
          "[storage][segment_dump]") {
  SegmentDumpOptions o;
  o.coordinator_checked = true;
  const Walked whole = reread(metadata_log(), o);
  REQUIRE(whole.batches.size() == 596);
  // Budgets around the boundary: none kept, one, all but one, exactly all, more than all.
  for (const std::size_t batches : {0u, 1u, 100u, 595u, 596u, 597u}) {
    INFO("a budget of " << batches << " batches");
    KeptBatches kept(batches * sizeof(KeptBatches::Packed));
    Walked first;
    const Walked again = replayed(metadata_log(), o, kept, first);
    CHECK(kept.size() == std::min<std::size_t>(batches, 596));
    CHECK(kept.complete() == (batches >= 596));
    CHECK(kept.bytes() <= batches * sizeof(KeptBatches::Packed));
    check_same(again, whole);
  }
  // With --max-batches and --from-offset the rest continues the count and the filter.
  o.from_offset = 300;
  o.max_batches = 120;
  const Walked selected = reread(metadata_log(), o);
  KeptBatches kept(40 * sizeof(KeptBatches::Packed));
  Walked first;
  check_same(replayed(metadata_log(), o, kept, first), selected);
  CHECK(kept.size() == 40);
  CHECK(selected.summary.stopped_early);
}

TEST_CASE(
    "segment dump: a walk to an entry's position and one from it visit the whole walk, split there",
    "[storage][segment_dump]") {
  SegmentDumpOptions o;
  o.coordinator_checked = true;
  const Walked whole = reread(metadata_log(), o);
  REQUIRE(whole.batches.size() == 596);
  CHECK(!whole.summary.stopped_at);
  std::vector<std::uint64_t> positions;
  dump_segment(metadata_log(), o, [&](DumpedBatch& b) { positions.push_back(b.header.position); });
  for (const std::size_t i : {std::size_t{1}, std::size_t{300}, std::size_t{595}}) {
    INFO("split before batch " << i);
    SegmentDumpOptions first = o;
    first.end_position = positions[i];
    const Walked head = reread(metadata_log(), first);
    CHECK(head.batches.size() == i);
    CHECK(head.summary.stopped_at == positions[i]);
    SegmentDumpOptions second = o;
    second.start_position = positions[i];
    const Walked rest = reread(metadata_log(), second);
    CHECK(!rest.summary.stopped_at);
    Walked joined{head.batches, rest.summary};
    joined.batches.insert(joined.batches.end(), rest.batches.begin(), rest.batches.end());
    joined.summary.batches += head.summary.batches;
    check_same(joined, whole);
  }
  // A position inside an entry: the walk stops before the next entry, and says where.
  SegmentDumpOptions inside = o;
  inside.end_position = positions[300] + 1;
  const Walked head = reread(metadata_log(), inside);
  CHECK(head.batches.size() == 301);
  CHECK(head.summary.stopped_at == positions[301]);
  // Past the last entry: the whole walk, ended by the file, not stopped.
  inside.end_position = positions.back() + 1;
  const Walked all = reread(metadata_log(), inside);
  CHECK(!all.summary.stopped_at);
  check_same(all, whole);
}

TEST_CASE("segment dump: kept batches replay invalid CRCs and a torn tail as read",
          "[storage][segment_dump]") {
  const fs::path dir = fs::temp_directory_path() / "kepoch-unit-kept-batches";
  // Deliberately corrupted copies of real Kafka's log: bytes flipped inside three batches'
  // records (ensureValid fails, each with its computed CRC), then the last batch cut short.
  const fs::path copy = edited_copy(dir, [](std::vector<char>& bytes) {
    for (const std::size_t at : {std::size_t{1000}, std::size_t{20000}, std::size_t{40000}})
      bytes[at] = static_cast<char>(bytes[at] ^ 0x5a);
    bytes.resize(bytes.size() - 7);
  });
  SegmentDumpOptions o;
  o.coordinator_checked = true;
  const Walked fresh = reread(copy.string(), o);
  std::size_t invalid = 0;
  for (const auto& b : fresh.batches)
    invalid += b.find(" invalid ") != std::string::npos;
  CHECK(invalid == 3);
  CHECK(fresh.summary.end.reason != LogEndReason::end_of_file);
  for (const std::size_t batches : {std::size_t{2}, std::size_t{300}, std::size_t{1000}}) {
    INFO("a budget of " << batches << " batches");
    // An invalid batch also keeps its computed CRC (16 bytes more): the budget counts it.
    KeptBatches kept(batches * sizeof(KeptBatches::Packed));
    Walked first;
    check_same(replayed(copy.string(), o, kept, first), fresh);
    CHECK(kept.bytes() <= batches * sizeof(KeptBatches::Packed));
  }
  fs::remove_all(dir);
}
