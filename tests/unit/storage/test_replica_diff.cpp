// Pins where `diff` compares replicas and where a comparison means nothing
// (storage/replica_diff): batches the log cleaner rewrote (LogCleaner keeps a batch's base
// and last offset and drops records, or drops whole batches: offsets missing) are no
// divergence, so batches are compared above them; an empty epoch cache has no epochs to
// compare. The compacted replica is Kafka's own (tests/data/compacted: offsets 0-2 removed,
// an emptied batch kept at 3, 4-7 kept, 8 in the next segment).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "kepoch/storage/replica_diff.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;

namespace {

const std::filesystem::path kCompacted =
    std::filesystem::path(KEPOCH_SOURCE_DIR) / "tests/data/compacted/cmp-0";

// The same log before its cleaner ran, as another replica holds it: one record per batch at
// 0-8, with Kafka's CRCs where the compacted replica kept the batch whole, others below.
PartitionReplica uncompacted(const PartitionReplica& compacted, std::int64_t changed_crc_at = -1) {
  std::map<std::int64_t, BatchSummary> kept;
  walk_batches(compacted, [&](const BatchSummary& b) { kept.emplace(b.base_offset, b); });
  PartitionReplica r;
  r.dir = "uncompacted";
  r.topic = compacted.topic;
  StoredBatches s;
  for (std::int64_t o = 0; o < compacted.log_end_offset; ++o) {
    BatchSummary x;
    x.ordinal = static_cast<std::uint64_t>(o);
    x.base_offset = x.last_offset = o;
    x.records = 1;
    x.size = 80;
    const auto it = kept.find(o);
    x.crc = it != kept.end() && it->second.records == 1 ? it->second.crc
                                                        : static_cast<std::uint32_t>(7000 + o);
    if (o == changed_crc_at) x.crc ^= 1;
    x.epoch = it != kept.end() ? it->second.epoch : 0;
    x.records_before = s.records;
    x.bytes_before = s.bytes;
    s.records += 1;
    s.bytes += x.size;
    s.batches.push_back(x);
  }
  s.batch_count = s.batches.size();
  r.stored = s;
  r.log_end_offset = compacted.log_end_offset;
  r.loaded = compacted.loaded;
  r.as_leader = r.loaded;
  return r;
}

}  // namespace

TEST_CASE("LogCleaner rewrote batches: no fork below them", "[storage][replica_diff]") {
  const PartitionReplica compacted = load_partition_replica(kCompacted);
  REQUIRE(compacted.log_end_offset == 9);
  SECTION("above the cleaned batches the logs agree") {
    const std::vector<PartitionReplica> replicas{compacted, uncompacted(compacted)};
    const ReplicaComparison c = compare_replicas(replicas, 1, 0);
    CHECK_FALSE(c.fork_by_batches);
    CHECK_FALSE(c.only_here);
    CHECK(c.batches_compared_from == 4);  // after the emptied batch at 3
    REQUIRE(c.notes.size() == 1);
    CHECK_THAT(c.notes[0], Catch::Contains("log cleaner"));
    CHECK(c.identical());
  }
  SECTION("a batch that differs above them is still a fork") {
    const std::vector<PartitionReplica> replicas{compacted, uncompacted(compacted, 6)};
    const ReplicaComparison c = compare_replicas(replicas, 1, 0);
    CHECK(c.fork_by_batches == 6);
    CHECK_FALSE(c.identical());
  }
}

TEST_CASE("cleaned_until: records dropped from a batch, or batches removed whole",
          "[storage][replica_diff]") {
  BatchRange r;
  r.batches = {{0, 0, 1, 1}, {1, 1, 1, 2}, {2, 2, 1, 3}};
  CHECK(cleaned_until(r, 0) == 0);  // an uncleaned log: nothing shows
  r.batches = {{0, 4, 2, 1}, {5, 5, 1, 2}};
  CHECK(cleaned_until(r, 0) == 5);  // 0-4 hold 2 records
  r.batches = {{0, 0, 1, 1}, {3, 3, 1, 2}, {4, 4, 1, 3}};
  CHECK(cleaned_until(r, 0) == 4);  // 1-2 removed
  r.batches_complete = false;       // a snapshot's windows: a gap is no evidence
  CHECK(cleaned_until(r, 0) == 0);
}

TEST_CASE("An empty epoch cache is not a fork at the log start", "[storage][replica_diff]") {
  const PartitionReplica compacted = load_partition_replica(kCompacted);
  PartitionReplica no_epochs = compacted;
  no_epochs.dir = "no-epochs";
  no_epochs.loaded.cache.clear();
  const std::vector<PartitionReplica> replicas{compacted, no_epochs};
  const ReplicaComparison c = compare_replicas(replicas, 1, 0);
  CHECK_FALSE(c.fork_by_epochs);
  CHECK_FALSE(c.only_here);
  CHECK_FALSE(c.only_there);
  CHECK(c.identical());
  CHECK_THAT(c.notes.front(), Catch::Contains("no-epochs has no leader epochs"));
}
