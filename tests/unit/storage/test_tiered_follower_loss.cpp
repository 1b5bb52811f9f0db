// Pins what a tiered follower loses when it truncates below its own local log start: Kafka's
// UnifiedLog.truncateTo takes truncateFullyAndStartAt(targetOffset) when the first local
// segment starts above the target, so its whole local log goes, and the offsets of its lineage
// between the target and its local start, which only remote segments hold, are forked off (the
// new leader's lineage differs there: RemoteLogManager.read serves the leader's epochs only,
// through RemoteLogMetadataCache.remoteLogSegmentMetadata(epoch, offset)). They were committed:
// RLMCopyTask.copyLogSegmentsToRemote uploads only segments below the last stable offset. Where
// the metadata describes no finished segment of the follower's lineage, the count is unknown.
#include <catch2/catch.hpp>

#include <memory>

#include "kepoch/storage/replica_forecast.hpp"
#include "support/tiered_fixtures.hpp"

using namespace kepoch;

namespace {

using test::index_of;
using test::segment;

// The new leader, elected uncleanly: epochs 0@0, 1@300, 2@400 (it had the old leader's epoch 1
// up to 399), log end 450, not tiered.
PartitionReplica new_leader(std::int64_t log_end = 450) {
  PartitionReplica r;
  r.dir = "b2/t-0";
  r.topic = "t";
  for (const EpochEntry& e : std::vector<EpochEntry>{{0, 0}, {1, 300}, {2, 400}})
    r.loaded.cache.assign(e);
  r.log_end_offset = r.loaded.log_end_offset = log_end;
  r.loaded.high_watermark = log_end;
  r.high_watermark = log_end;
  r.clean_shutdown = true;
  r.as_leader = r.loaded;
  StoredBatches s;
  s.batch_count = 0;
  r.stored = s;
  return r;
}

// The old leader, now a follower: epochs 0@0, 1@300, log end 900; its local log from 700
// (single-record batches of epoch 1), its log-start-offset-checkpoint 0 (LogLoader keeps it
// below the first local segment with remote storage on); high watermark 900, clean shutdown.
PartitionReplica tiered_follower() {
  PartitionReplica r;
  r.dir = "b1/t-0";
  r.topic = "t";
  r.clean_shutdown = true;
  r.high_watermark = 900;
  r.log_start_checkpoint = 0;
  SegmentSummary seg;
  seg.base_offset = 700;
  r.segments.push_back(seg);
  r.stored = test::single_record_batches(700, 900, [](std::int64_t) { return 1; });
  r.loaded.cache.assign({0, 0});
  r.loaded.cache.assign({1, 300});
  r.log_end_offset = r.loaded.log_end_offset = 900;
  r.loaded.high_watermark = 900;
  r.loaded.log_start_offset = 700;  // max(checkpoint, first segment), as loaded
  r.as_leader = r.loaded;
  return r;
}

}  // namespace

TEST_CASE("Tiered follower truncating below its local log start: remote records forked off",
          "[tiered][replica_forecast]") {
  const PartitionReplica l = new_leader();
  PartitionReplica f = tiered_follower();
  SECTION("the metadata describes its lineage: 300 remote records lost, committed") {
    f.remote_tier =
        PartitionReplica::RemoteTier{index_of({segment("s0", 0, 299, 0), segment("s1", 300, 499, 1),
                                               segment("s2", 500, 699, 1)}),
                                     "test"};
    const ReplicaForecast x = forecast_replica(l, f, TruncationMode::fetch);
    CHECK(x.prediction.truncate_to == 400);  // OffsetsForLeaderEpoch(1) -> (1, 400)
    CHECK_FALSE(x.prediction.truncated_fully);
    CHECK(x.removed_records == 200);  // its local log, 700-899
    CHECK(x.lost_records == 200);     // past the leader's log end
    REQUIRE(x.remote_removed_range);
    CHECK(*x.remote_removed_range == std::pair<std::int64_t, std::int64_t>{400, 699});
    CHECK(x.remote_lost_records == 300);
    CHECK(x.remote_lost_ranges == std::vector<std::pair<std::int64_t, std::int64_t>>{{400, 699}});
    CHECK(x.remote_undescribed.empty());
    CHECK(x.lost_known);
    CHECK(x.committed_loss());
  }
  SECTION("a segment missing from the metadata: that range unknown, never safe") {
    f.remote_tier = PartitionReplica::RemoteTier{
        index_of({segment("s0", 0, 299, 0), segment("s1", 300, 499, 1)}), "test"};
    const ReplicaForecast x = forecast_replica(l, f, TruncationMode::fetch);
    CHECK(x.remote_lost_records == 100);
    CHECK(x.remote_undescribed == std::vector<std::pair<std::int64_t, std::int64_t>>{{500, 699}});
    CHECK_FALSE(x.lost_known);
    CHECK(x.committed_loss_possible());
  }
  SECTION("a segment of another lineage over the range is not the follower's") {
    // Epoch 3's leader uploaded 500-699 (a later branch): RemoteLogMetadataCache finds no
    // segment for (epoch 1, 500), the follower's epoch there.
    f.remote_tier = PartitionReplica::RemoteTier{
        index_of({segment("s1", 300, 499, 1), segment("x", 500, 699, 3)}), "test"};
    const ReplicaForecast x = forecast_replica(l, f, TruncationMode::fetch);
    CHECK(x.remote_lost_records == 100);
    CHECK(x.remote_undescribed == std::vector<std::pair<std::int64_t, std::int64_t>>{{500, 699}});
  }
  SECTION("no metadata given: the whole remote range unknown") {
    f.remote_tier = PartitionReplica::RemoteTier{nullptr, "no __remote_log_metadata given"};
    const ReplicaForecast x = forecast_replica(l, f, TruncationMode::fetch);
    CHECK(x.remote_lost_records == 0);
    CHECK(x.remote_undescribed == std::vector<std::pair<std::int64_t, std::int64_t>>{{400, 699}});
    CHECK(x.committed_loss_possible());
    CHECK_FALSE(x.unanswered.empty());
  }
  SECTION("the sign alone (no remote_tier attached) still counts the range as unknown") {
    const ReplicaForecast x = forecast_replica(l, f, TruncationMode::fetch);
    CHECK(x.remote_undescribed == std::vector<std::pair<std::int64_t, std::int64_t>>{{400, 699}});
    CHECK(x.committed_loss_possible());
  }
  SECTION("a truncation at or above its local log start takes nothing remote") {
    PartitionReplica longer = new_leader(800);
    // It kept the old leader's epoch 1 through 749, its own epoch 2 from 750.
    longer.loaded.cache = LeaderEpochCache{};
    longer.loaded.cache.assign({0, 0});
    longer.loaded.cache.assign({1, 300});
    longer.loaded.cache.assign({2, 750});
    longer.as_leader = longer.loaded;
    f.remote_tier = PartitionReplica::RemoteTier{
        index_of({segment("s1", 300, 499, 1), segment("s2", 500, 699, 1)}), "test"};
    const ReplicaForecast x = forecast_replica(longer, f, TruncationMode::fetch);
    CHECK(x.prediction.truncate_to == 750);
    CHECK_FALSE(x.remote_removed_range);
    CHECK(x.remote_lost_records == 0);
  }
}

TEST_CASE("remote_lineage_coverage walks the replica's epochs through the metadata",
          "[tiered][tiered_fetch]") {
  const auto index = index_of({segment("a", 0, 99, 0), segment("b", 150, 199, 1)});
  const std::vector<EpochEntry> entries{{0, 0}, {1, 100}};
  const RemoteCoverage c = remote_lineage_coverage(entries, *index, 50, 200);
  CHECK(c.held_offsets == 100);
  CHECK(c.held == std::vector<std::pair<std::int64_t, std::int64_t>>{{50, 99}, {150, 199}});
  CHECK(c.not_described == std::vector<std::pair<std::int64_t, std::int64_t>>{{100, 149}});
}

TEST_CASE("remote_lineage_coverage counts a segment a later copy displaced from the cache",
          "[tiered][tiered_fetch]") {
  // A new leader re-uploads epoch 0 from offset 0 (its own segment: epoch 0 to 49, its epoch 2
  // from 50): RemoteLogLeaderEpochState's offsetToId.put drops "old" from epoch 0's entries,
  // yet its records of epoch 0 up to 99 are still in remote storage (listAllRemoteLogSegments).
  RemoteSegment mixed = segment("new", 0, 79, 0);
  mixed.leader_epochs = {{0, 0}, {2, 50}};
  const auto index = index_of({segment("old", 0, 99, 0), mixed});
  REQUIRE(index->segment_for(0, 60) == nullptr);  // the cache no longer finds it
  const RemoteCoverage old_lineage = remote_lineage_coverage({{0, 0}}, *index, 0, 100);
  CHECK(old_lineage.held_offsets == 100);
  CHECK(old_lineage.not_described.empty());
  const RemoteCoverage new_lineage = remote_lineage_coverage({{0, 0}, {2, 50}}, *index, 0, 100);
  CHECK(new_lineage.held == std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 79}});
  CHECK(new_lineage.not_described == std::vector<std::pair<std::int64_t, std::int64_t>>{{80, 99}});
}
