// Pins what a follower of a tiered leader loses when it takes the remote-tier path
// (TierStateMachine.buildRemoteLogAuxState: Partition.truncateFullyAndStartAt of its whole log):
// the removed records of the leader's lineage that finished remote segments hold are not lost
// (RemoteLogManager.read serves them to consumers), those no segment holds are, and without the
// metadata that is unknown.
#include <catch2/catch.hpp>

#include <memory>

#include "kepoch/storage/replica_forecast.hpp"
#include "support/tiered_fixtures.hpp"

using namespace kepoch;

namespace {

using test::index_of;
using test::segment;

// The leader: epochs 0@0, 1@300, 2@600, log end 900, local log from 700 (its
// log-start-offset-checkpoint says 0: LogLoader with remote storage keeps it).
PartitionReplica leader() {
  PartitionReplica r;
  r.dir = "b3/t-0";
  r.topic = "t";
  SegmentSummary s;
  s.base_offset = 700;
  r.segments.push_back(s);
  r.log_start_checkpoint = 0;
  for (const EpochEntry& e : std::vector<EpochEntry>{{0, 0}, {1, 300}, {2, 600}})
    r.loaded.cache.assign(e);
  r.log_end_offset = r.loaded.log_end_offset = 900;
  r.loaded.high_watermark = 900;
  r.loaded.log_start_offset = 700;  // max(checkpoint, first segment), as loaded
  r.as_leader = r.loaded;
  return r;
}

// The follower, down since offset 450: single-record batches 0-449 (epoch 0, then 1 from 300),
// high watermark 440, clean shutdown.
PartitionReplica follower() {
  PartitionReplica r;
  r.dir = "b1/t-0";
  r.topic = "t";
  r.clean_shutdown = true;
  r.high_watermark = 440;
  r.stored = test::single_record_batches(0, 450, [](std::int64_t o) { return o < 300 ? 0 : 1; });
  r.loaded.cache.assign({0, 0});
  r.loaded.cache.assign({1, 300});
  r.log_end_offset = r.loaded.log_end_offset = 450;
  r.loaded.high_watermark = 440;
  r.as_leader = r.loaded;
  return r;
}

}  // namespace

TEST_CASE("Tiered leader: what the follower removes is held where remote segments hold it",
          "[tiered][replica_forecast]") {
  PartitionReplica l = leader();
  const PartitionReplica f = follower();
  SECTION("every offset it removes is in a finished segment of the lineage: none lost") {
    l.remote_tier =
        PartitionReplica::RemoteTier{index_of({segment("s0", 0, 299, 0), segment("s1", 300, 599, 1),
                                               segment("s2", 600, 699, 2)}),
                                     "test"};
    const ReplicaForecast x = forecast_replica(l, f, TruncationMode::fetch);
    REQUIRE(x.prediction.tier);
    CHECK(x.prediction.tier->outcome == TierOutcome::rebuilt);
    CHECK(x.prediction.truncated_fully);
    CHECK(x.prediction.fetch_from == 700);
    CHECK(x.removed_records == 450);
    CHECK(x.remote_held_records == 450);
    CHECK(x.lost_records == 0);
    CHECK_FALSE(x.committed_loss_possible());
  }
  SECTION("a segment missing from the metadata: its offsets are lost, committed below the HW") {
    l.remote_tier = PartitionReplica::RemoteTier{
        index_of({segment("s0", 0, 299, 0), segment("s2", 600, 699, 2)}), "test"};
    const ReplicaForecast x = forecast_replica(l, f, TruncationMode::fetch);
    CHECK(x.prediction.tier->outcome == TierOutcome::rebuilt);
    CHECK(x.remote_held_records == 300);
    CHECK(x.remote_missing_records == 150);
    CHECK(x.lost_records == 150);
    CHECK(x.committed_lost_records == 140);
    CHECK(x.committed_loss());
  }
  SECTION("no metadata: the full truncation stands, what remote storage holds is unknown") {
    l.remote_tier = PartitionReplica::RemoteTier{nullptr, "none given"};
    const ReplicaForecast x = forecast_replica(l, f, TruncationMode::fetch);
    CHECK(x.prediction.tier->outcome == TierOutcome::remote_unknown);
    CHECK(x.prediction.truncated_fully);
    CHECK(x.lost_unknown_records == 450);
    CHECK_FALSE(x.lost_known);
    CHECK(x.committed_loss_possible());
  }
  SECTION("not known to be tiered: Kafka's non-tiered rule, reset fully to the local start") {
    const ReplicaForecast x = forecast_replica(l, f, TruncationMode::fetch);
    CHECK_FALSE(x.prediction.tier);
    CHECK(x.prediction.truncated_fully);
    CHECK(x.prediction.fetch_from == 700);
    CHECK(x.below_leader_start_records == 450);
  }
}
