// Reading only the divergent tail (LoadDepth::tail, segment_seek, batch_cursor, batch_merge):
// on every real Kafka replica of the fixtures the answers equal those of reading every batch,
// and an offset index kepoch cannot check is not used.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/partition_dir.hpp"
#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/replica_diff.hpp"
#include "kepoch/storage/segment_seek.hpp"
#include "support/same_reads.hpp"
#include "support/scratch_files.hpp"

namespace fs = std::filesystem;
using namespace kepoch;
using test::same_log;
using test::same_range;

namespace {

const fs::path kSource(KEPOCH_SOURCE_DIR);
const fs::path kIndexes = kSource / "tests/unit/data/indexes";

struct Walked {
  std::uint64_t position;
  std::int64_t base_offset;
  std::int64_t last_offset;
  bool operator==(const Walked&) const = default;
};

std::vector<Walked> walk_from(const fs::path& log, std::uint64_t position) {
  std::vector<Walked> out;
  LogSegmentReader reader(log, /*load_batches=*/false);
  reader.seek(position);
  while (auto e = reader.next())
    out.push_back({e->header.position, e->header.base_offset, e->header.last_offset()});
  return out;
}

// Every partition dir (a dir holding a .log) under the fixture trees.
std::vector<fs::path> fixture_replicas() {
  std::vector<fs::path> dirs;
  for (const fs::path& root : {kSource / "tests/data", kIndexes}) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (!e.is_directory()) continue;
      bool has_log = false;
      for (const auto& f : fs::directory_iterator(e.path()))
        has_log = has_log || f.path().extension() == ".log";
      if (has_log && partition_dir_name_of(e.path()).name) dirs.push_back(e.path());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

void same_comparison(const ReplicaComparison& a, const ReplicaComparison& b) {
  CHECK(a.fork_by_epochs == b.fork_by_epochs);
  CHECK(a.fork_by_batches == b.fork_by_batches);
  REQUIRE(a.differing_batches.size() == b.differing_batches.size());
  for (std::size_t i = 0; i < a.differing_batches.size(); ++i) {
    CHECK(a.differing_batches[i].base_offset == b.differing_batches[i].base_offset);
    CHECK(a.differing_batches[i].last_offset == b.differing_batches[i].last_offset);
    CHECK(a.differing_batches[i].crc == b.differing_batches[i].crc);
    CHECK(a.differing_batches[i].other_crc == b.differing_batches[i].other_crc);
  }
  CHECK(a.only_here.has_value() == b.only_here.has_value());
  if (a.only_here && b.only_here) {
    CHECK(a.only_here->first == b.only_here->first);
    CHECK(a.only_here->last == b.only_here->last);
  }
  CHECK(a.only_there.has_value() == b.only_there.has_value());
  if (a.only_there && b.only_there) {
    CHECK(a.only_there->first == b.only_there->first);
    CHECK(a.only_there->last == b.only_there->last);
  }
  CHECK(a.unanswered == b.unanswered);
  CHECK(a.identical() == b.identical());
}

}  // namespace

TEST_CASE("OffsetIndex.lookup then a scan: every batch ending at or after the target is found",
          "[tail][segment_seek]") {
  bool skipped_some = false;
  for (const auto* dir : {"ix-0", "ix-0.running", "crash-0.killed"}) {
    for (const auto& seg : live_segments(kIndexes / dir)) {
      const auto all = walk_from(seg.path, 0);
      REQUIRE(!all.empty());
      for (std::int64_t target = seg.base_offset - 1; target <= all.back().last_offset + 1;
           ++target) {
        INFO(seg.path.string() << " target " << target);
        const std::uint64_t p = seek_position(seg.path, seg.base_offset, target);
        std::vector<Walked> want, got;
        for (const auto& b : all)
          if (b.last_offset >= target) want.push_back(b);
        for (const auto& b : walk_from(seg.path, p))
          if (b.last_offset >= target) got.push_back(b);
        CHECK(got == want);
        // Kafka's lookup: the batches skipped all end below the target.
        CHECK(std::all_of(all.begin(), all.end(), [&](const Walked& b) {
          return b.position >= p || b.last_offset < target;
        }));
        skipped_some = skipped_some || p > 0;
      }
    }
  }
  CHECK(skipped_some);  // the fixtures' indexes are used, not only read from the start
}

TEST_CASE("An offset index kepoch cannot check is not used: the segment is read from its start",
          "[tail][segment_seek]") {
  const fs::path source = kIndexes / "ix-0";
  const std::string log = "00000000000000000000.log";
  const std::string index = "00000000000000000000.index";
  const auto entries = test::slurp(source / index);
  REQUIRE(entries.size() >= 16);
  const std::int64_t last_offset = walk_from(source / log, 0).back().last_offset;
  REQUIRE(seek_position(source / log, 0, last_offset) > 0);

  SECTION("an entry's position one byte into a batch") {
    test::ScratchReplica copy(source);
    auto bytes = entries;
    for (std::size_t at = 0; at + 8 <= bytes.size(); at += 8)
      bytes[at + 7] = static_cast<std::uint8_t>(bytes[at + 7] + 1);
    test::spit(copy.file(index), bytes);
    CHECK(seek_position(copy.file(log), 0, last_offset) == 0);
  }
  SECTION("entries whose offsets lie below the batches they point at") {
    test::ScratchReplica copy(source);
    auto bytes = entries;
    for (std::size_t at = 0; at + 8 <= bytes.size(); at += 8)
      bytes[at + 3] = 1;  // relative offset 1
    test::spit(copy.file(index), bytes);
    CHECK(seek_position(copy.file(log), 0, last_offset) == 0);
  }
  SECTION("a position past the end of the .log") {
    test::ScratchReplica copy(source);
    auto bytes = entries;
    bytes[bytes.size() - 3] = 0x7f;
    test::spit(copy.file(index), bytes);
    CHECK(seek_position(copy.file(log), 0, last_offset) == 0);
  }
  SECTION("the batch at the entry fails its CRC") {
    test::ScratchReplica copy(source);
    const std::uint64_t p = seek_position(source / log, 0, last_offset);
    copy.flip(log, static_cast<std::size_t>(p) + 70);  // a byte the CRC covers
    CHECK(seek_position(copy.file(log), 0, last_offset) == 0);
  }
  SECTION("no index") {
    test::ScratchReplica copy(source);
    fs::remove(copy.file(index));
    CHECK(seek_position(copy.file(log), 0, last_offset) == 0);
  }
}

TEST_CASE("A replica loaded to its tail equals the replica loaded whole, on every fixture",
          "[tail][partition_replica]") {
  const auto dirs = fixture_replicas();
  REQUIRE(dirs.size() >= 20);
  for (const auto& dir : dirs) {
    INFO(dir.string());
    std::optional<PartitionReplica> whole, tail;
    std::string whole_error, tail_error;
    try {
      whole = load_partition_replica(dir);
    } catch (const InputError& e) {
      whole_error = e.what();
    }
    try {
      tail = load_partition_replica(dir, {}, LoadDepth::tail);
    } catch (const InputError& e) {
      tail_error = e.what();
    }
    CHECK(whole_error == tail_error);
    if (!whole || !tail) continue;
    CHECK(tail->depth == LoadDepth::tail);
    CHECK(tail->log_end_offset == whole->log_end_offset);
    same_log(tail->loaded, whole->loaded);
    same_log(tail->as_leader, whole->as_leader);
    CHECK(tail->notes == whole->notes);
    CHECK(tail->segments.size() == whole->segments.size());
    CHECK(tail->recovery_truncated_bytes == whole->recovery_truncated_bytes);
    CHECK(tail->recovery_stop.has_value() == whole->recovery_stop.has_value());
    if (tail->recovery_stop && whole->recovery_stop)
      CHECK(tail->recovery_stop->position == whole->recovery_stop->position);
    for (std::int64_t from = whole->loaded.log_start_offset - 1; from <= whole->log_end_offset + 1;
         ++from) {
      INFO("from " << from);
      same_range(batches_from(*tail, from), batches_from(*whole, from));
      same_range(batches_from(*tail, from, from + 3), batches_from(*whole, from, from + 3));
    }
  }
}

TEST_CASE("diff from the epoch fork on equals diff over every batch, on every fixture pair",
          "[tail][replica_diff]") {
  // Replicas of one partition: the same topic-partition dir name under one fixture tree.
  std::map<std::string, std::vector<fs::path>> groups;
  for (const auto& dir : fixture_replicas()) {
    const fs::path rel = fs::relative(dir, kSource);
    groups[(*rel.begin()).string() + "/" + std::next(rel.begin())->string() + "/" +
           dir.filename().string()]
        .push_back(dir);
  }
  std::size_t pairs = 0, skipped = 0;
  for (const auto& [key, dirs] : groups) {
    std::vector<PartitionReplica> whole, tail;
    try {
      for (const auto& d : dirs) {
        whole.push_back(load_partition_replica(d));
        tail.push_back(load_partition_replica(d, {}, LoadDepth::tail));
      }
    } catch (const InputError&) {
      continue;
    }
    for (std::size_t i = 0; i < whole.size(); ++i) {
      for (std::size_t j = 0; j < whole.size(); ++j) {
        if (i == j) continue;
        INFO(dirs[i].string() << " against " << dirs[j].string());
        const ReplicaComparison w = compare_replicas(whole, i, j);
        const ReplicaComparison t = compare_replicas(tail, i, j);
        same_comparison(t, w);
        CHECK(w.read_whole);  // loaded whole: said so
        ++pairs;
        skipped += t.read_whole ? 0 : 1;
      }
    }
  }
  CHECK(pairs >= 12);
  CHECK(skipped > 0);  // some comparisons started at the epoch fork
}

TEST_CASE("diff: batches differing where the epoch caches agree are compared whole",
          "[tail][replica_diff]") {
  // The anchor (the batch before the epoch fork) must be identical on both sides; a replica
  // whose anchor batch differs (here its CRC field, after a clean shutdown so the loader
  // does not check it) is compared batch by batch from the start, and the report says why.
  const fs::path before = kSource / "tests/data/divergence/before";
  std::optional<std::pair<std::string, std::string>> pair;
  for (const auto* a : {"broker-1", "broker-2", "broker-3"}) {
    for (const auto* b : {"broker-1", "broker-2", "broker-3"}) {
      if (pair || std::string(a) == b) continue;
      const std::vector<PartitionReplica> rs{
          load_partition_replica(before / a / "d-0", {}, LoadDepth::tail),
          load_partition_replica(before / b / "d-0", {}, LoadDepth::tail)};
      const auto c = compare_replicas(rs, 0, 1);
      if (c.fork_by_epochs && *c.fork_by_epochs > rs[0].loaded.log_start_offset + 1 &&
          !c.read_whole)
        pair = {a, b};
    }
  }
  REQUIRE(pair);
  test::ScratchReplica mine(before / pair->first / "d-0");
  test::ScratchReplica theirs(before / pair->second / "d-0");
  mine.clean_shutdown();
  theirs.clean_shutdown();
  const std::vector<PartitionReplica> intact{
      load_partition_replica(mine.dir, {}, LoadDepth::tail),
      load_partition_replica(theirs.dir, {}, LoadDepth::tail)};
  const auto fork = compare_replicas(intact, 0, 1).fork_by_epochs;
  REQUIRE(fork);
  // The batch holding the offset before the fork, in `mine`.
  std::optional<std::uint64_t> anchor;
  for (const auto& b : walk_from(mine.file("00000000000000000000.log"), 0))
    if (!anchor && b.last_offset >= *fork - 1) anchor = b.position;
  REQUIRE(anchor);
  mine.flip("00000000000000000000.log", static_cast<std::size_t>(*anchor) + 17);  // its CRC
  const std::vector<PartitionReplica> tail{load_partition_replica(mine.dir, {}, LoadDepth::tail),
                                           load_partition_replica(theirs.dir, {}, LoadDepth::tail)};
  const std::vector<PartitionReplica> whole{load_partition_replica(mine.dir),
                                            load_partition_replica(theirs.dir)};
  const auto t = compare_replicas(tail, 0, 1);
  same_comparison(t, compare_replicas(whole, 0, 1));
  REQUIRE(t.read_whole);
  CHECK(t.read_whole->find("differ although the epoch caches agree") != std::string::npos);
  REQUIRE(t.fork_by_batches);
  CHECK(*t.fork_by_batches < *fork);
}
