// Pins what a follower's truncation costs (storage/replica_forecast): which removed records
// the leader holds again, which are lost, which cannot be known, and which were committed,
// on replicas built batch by batch (as a snapshot carries them), against a leader that
// answers as Kafka's does: UnifiedLog.endOffsetForEpoch for the epochs, its log end and log
// start offsets, and its batches read as a consumer reads them (below the high watermark).
#include <catch2/catch.hpp>

#include <filesystem>

#include "kepoch/storage/replica_forecast.hpp"
#include "support/forecast_fixtures.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace test;

namespace {

// The leader's batches as ClusterClient::leader_batches reads them with a consumer Fetch:
// only those below its high watermark (FetchIsolation.HIGH_WATERMARK).
struct ConsumerReads {
  const PartitionReplica& leader;
  int calls = 0;
  BatchRange operator()(std::int64_t from, std::int64_t until) {
    ++calls;
    BatchRange all = batches_from(leader, from, until);
    BatchRange out;
    out.complete_until = from;
    for (const auto& b : all.batches) {
      if (b.last_offset >= leader.loaded.high_watermark) break;
      out.batches.push_back(b);
      out.complete_until = b.last_offset + 1;
    }
    out.batches_complete = out.batches.size() == all.batches.size();
    return out;
  }
};

ReplicaForecast live_forecast(const PartitionReplica& leader, const PartitionReplica& follower,
                              ConsumerReads& reads) {
  const LeaderBatchLookup lookup = [&reads](std::int64_t from, std::int64_t until) {
    return reads(from, until);
  };
  return forecast_replica(answers_of(leader.as_leader, follower.loaded.cache), lookup,
                          "a consumer Fetch did not return", follower, TruncationMode::fetch);
}

// Ten single-record batches of epoch 0 at offsets 0-9: the old leader's log.
std::vector<Batch> old_leader_log(std::int64_t end = 10) {
  std::vector<Batch> v;
  for (std::int64_t o = 0; o < end; ++o)
    v.push_back({o, o, 0, static_cast<std::uint32_t>(1000 + o)});
  return v;
}

}  // namespace

TEST_CASE("Unclean election: records at or past the new leader's log end are lost unread",
          "[storage][replica_forecast]") {
  // The returning replica (epoch 0, offsets 0-9, all committed: HW 10) had more records than
  // the replica elected uncleanly at epoch 1, whose log ends at 5 (LEO = HW = 5). Its fetch
  // asks for epoch 0, the leader answers (0, 5) and it truncates to 5 (UnifiedLog
  // .endOffsetForEpoch; AbstractFetcherThread truncates to min(leader's, own end offset)).
  const PartitionReplica follower = replica_of("f", old_leader_log(), 10);
  PartitionReplica leader = replica_of("l", old_leader_log(5), 5);
  become_leader(leader.as_leader, 1);
  ConsumerReads reads{leader};
  const ReplicaForecast f = live_forecast(leader, follower, reads);
  CHECK(f.prediction.truncate_to == 5);
  CHECK(f.removed_records == 5);
  CHECK(f.lost_records == 5);
  CHECK(f.committed_lost_records == 5);
  CHECK(f.lost_unknown_records == 0);
  CHECK(f.lost_known);
  CHECK(f.committed_loss());
  CHECK(f.first_lost_offset == 5);
  CHECK(reads.calls == 0);  // nothing past the leader's log end is asked for
  // Offline, against the leader's replica read whole, the same counts.
  const ReplicaForecast offline = forecast_replica(leader, follower, TruncationMode::fetch);
  CHECK(offline.lost_records == f.lost_records);
  CHECK(offline.committed_lost_records == f.committed_lost_records);
}

TEST_CASE("A consumer reads the leader only below its high watermark: the rest is unknown",
          "[storage][replica_forecast]") {
  // The new leader wrote other records at 5-7 (epoch 1, LEO 8) but its high watermark is 6.
  std::vector<Batch> led = old_leader_log(5);
  for (std::int64_t o = 5; o < 8; ++o)
    led.push_back({o, o, 1, static_cast<std::uint32_t>(2000 + o)});
  const PartitionReplica leader = replica_of("l", led, 6);

  SECTION("the known part counts; 6-7 are unknown; 8-9 lie past the leader's log end") {
    const PartitionReplica follower = replica_of("f", old_leader_log(), 10);
    ConsumerReads reads{leader};
    const ReplicaForecast f = live_forecast(leader, follower, reads);
    CHECK(f.prediction.truncate_to == 5);
    CHECK(reads.calls == 1);
    CHECK(f.removed_records == 5);
    CHECK(f.lost_records == 3);  // 5 (read, another CRC), 8 and 9 (past the log end)
    CHECK(f.committed_lost_records == 3);
    CHECK(f.lost_unknown_records == 2);
    CHECK(f.lost_unknown_range == std::pair<std::int64_t, std::int64_t>{6, 7});
    CHECK_FALSE(f.lost_known);
    CHECK(f.lost_counted);
    CHECK(f.committed_loss());
    REQUIRE(f.unanswered.size() == 1);
    CHECK_THAT(f.unanswered[0], Catch::Contains("offsets 6 to 7"));
    // The leader's replica read whole shows 6-7 are other records: lost, as live + unknown.
    const ReplicaForecast offline = forecast_replica(leader, follower, TruncationMode::fetch);
    CHECK(offline.lost_known);
    CHECK(offline.lost_records == f.lost_records + f.lost_unknown_records);
  }
}

TEST_CASE("Unknown removed records below the follower's HW: a committed loss is not ruled out",
          "[storage][replica_forecast]") {
  // The new leader holds epoch 0 to offset 5, then wrote 6-7 at epoch 1 (LEO 8, HW 6): the
  // follower (epoch 0 to offset 7) truncates to 6, and neither removed record can be read.
  std::vector<Batch> led = old_leader_log(6);
  led.push_back({6, 6, 1, 2006});
  led.push_back({7, 7, 1, 2007});
  const PartitionReplica leader = replica_of("l", led, 6);
  SECTION("the follower's HW 7: record 6 may be a committed loss") {
    const PartitionReplica follower = replica_of("f", old_leader_log(8), 7);
    ConsumerReads reads{leader};
    const ReplicaForecast f = live_forecast(leader, follower, reads);
    CHECK(f.prediction.truncate_to == 6);
    CHECK(f.lost_records == 0);
    CHECK(f.lost_unknown_records == 2);
    CHECK_FALSE(f.committed_loss());
    CHECK(f.committed_loss_unknown);
    CHECK(f.committed_loss_possible());
  }
  SECTION("the follower's HW 6: nothing unknown was committed") {
    const PartitionReplica follower = replica_of("f", old_leader_log(8), 6);
    ConsumerReads reads{leader};
    const ReplicaForecast f = live_forecast(leader, follower, reads);
    CHECK(f.lost_unknown_records == 2);
    CHECK_FALSE(f.committed_loss_possible());
  }
}

TEST_CASE("AbstractFetcherThread 'Truncate fully and reset fetch offset': the whole log counts",
          "[storage][replica_forecast]") {
  // The follower's log (0-3, HW 2) ends below the leader's log start 5: fetchOffsetAndTruncate
  // calls truncateFullyAndStartAt(leader's log start), deleting every segment.
  const PartitionReplica follower = replica_of("f", old_leader_log(4), 2);
  std::vector<Batch> led;
  for (std::int64_t o = 5; o < 7; ++o)
    led.push_back({o, o, 0, static_cast<std::uint32_t>(1000 + o)});
  const PartitionReplica leader = replica_of("l", led, 7, 5);
  ConsumerReads reads{leader};
  const ReplicaForecast f = live_forecast(leader, follower, reads);
  CHECK(f.prediction.truncated_fully);
  CHECK(f.prediction.truncate_to == 5);
  CHECK(f.removed_records == 4);
  CHECK(f.removed_bytes == 400);
  CHECK(f.removed_range == std::pair<std::int64_t, std::int64_t>{0, 3});
  // The leader deleted those offsets itself: the truncation takes nothing from the cluster.
  CHECK(f.below_leader_start_records == 4);
  CHECK(f.lost_records == 0);
  CHECK(f.lost_known);
  CHECK_FALSE(f.committed_loss_possible());
  CHECK(reads.calls == 0);
}

TEST_CASE("Pre-0.11 rule: the follower's HW above the leader's log end loses an acked record",
          "[storage][replica_forecast]") {
  // The seeds' lost acknowledged message: B (m1 m2, HW 2) returns to A, which truncated to
  // its own HW 1 and leads; B's fetch at 2 is out of range and it truncates to 1
  // (ReplicaFetcherThread.handleOffsetOutOfRange before 0.11): m2, acknowledged, is lost.
  const PartitionReplica b = replica_of("B", old_leader_log(2), 2);
  const PartitionReplica a = replica_of("A", old_leader_log(1), 1);
  const ReplicaForecast f = forecast_replica(a, b, TruncationMode::hw);
  CHECK(f.prediction.truncate_to == 1);
  CHECK(f.removed_records == 1);
  CHECK(f.lost_records == 1);
  CHECK(f.committed_lost_records == 1);
  CHECK(f.committed_loss());
}

TEST_CASE("A snapshot that did not keep the removed batches: a committed loss is not ruled out",
          "[storage][replica_forecast]") {
  PartitionReplica leader = replica_of("l", old_leader_log(5), 5);
  become_leader(leader.as_leader, 1);
  // The follower's snapshot left out batch 6 (ordinal 6) of the removed range 5-9.
  SECTION("removed records below the follower's HW") {
    const PartitionReplica follower = replica_of("f", old_leader_log(), 8, 0, {6});
    const ReplicaForecast f = forecast_replica(leader, follower, TruncationMode::fetch);
    CHECK(f.prediction.truncate_to == 5);
    CHECK_FALSE(f.lost_counted);
    CHECK_FALSE(f.committed_loss());
    CHECK(f.committed_loss_unknown);
    CHECK(f.committed_loss_possible());
  }
  SECTION("every removed record at or above the follower's HW") {
    const PartitionReplica follower = replica_of("f", old_leader_log(), 5, 0, {6});
    const ReplicaForecast f = forecast_replica(leader, follower, TruncationMode::fetch);
    CHECK_FALSE(f.lost_counted);
    CHECK_FALSE(f.committed_loss_possible());
  }
}

TEST_CASE("An exchange the leader did not finish answering rules no committed loss out",
          "[storage][replica_forecast]") {
  // The leader answered for its own epoch only; the follower's fetch needs epoch 0's end.
  const PartitionReplica follower = replica_of("f", old_leader_log(), 10);
  LeaderAnswers partial;
  partial.end_offsets[1] = EpochEntry{1, 8};
  partial.log_end_offset = 8;
  const LeaderBatchLookup none = [](std::int64_t, std::int64_t) { return BatchRange{}; };
  const ReplicaForecast f = forecast_replica(partial, none, "", follower, TruncationMode::fetch);
  REQUIRE(f.prediction.unanswered_epoch == 0);
  CHECK_FALSE(f.lost_counted);
  CHECK(f.committed_loss_possible());
  CHECK_FALSE(f.unanswered.empty());
}

namespace {

// The unclean-election logs of both failure cases: the returning follower wrote 0-4 and
// 5-9 at epoch 0 (and 10-14 in its own batch, when `to` is 15); the new leader, elected
// uncleanly at epoch 1 with 0-4, wrote one batch 5-14.
PartitionReplica returning_follower(std::int64_t to, std::int64_t hw) {
  std::vector<Batch> v{{0, 4, 0, 100}, {5, 9, 0, 201}};
  if (to > 10) v.push_back({10, 14, 0, 202});
  return replica_of("f", v, hw);
}

PartitionReplica unclean_leader(std::int64_t hw, std::int64_t log_start = 0) {
  PartitionReplica l = replica_of("l", {{0, 4, 0, 100}, {5, 14, 1, 300}}, hw, log_start);
  return l;
}

}  // namespace

TEST_CASE("No leader-epoch-checkpoint: the HW inside the leader's batch, UnexpectedAppendOffset",
          "[storage][replica_forecast][follower_append]") {
  // The follower's leader-epoch-checkpoint is missing after a clean shutdown: its cache is
  // empty, so it truncates to its high watermark 10 (Truncating state) and fetches at 10;
  // the leader answers with its batch 5-14, whose base 5 is below the follower's log end:
  // UnifiedLog.appendAsFollower throws, the fetcher marks the partition failed, and the
  // follower keeps its own 5-9, which the leader does not hold.
  PartitionReplica follower = returning_follower(10, 10);
  follower.loaded.cache.clear();
  const PartitionReplica leader = unclean_leader(15);
  const ReplicaForecast offline = forecast_replica(leader, follower, TruncationMode::fetch);
  ConsumerReads reads{leader};
  const ReplicaForecast live = live_forecast(leader, follower, reads);
  for (const ReplicaForecast* f : {&offline, &live}) {
    CHECK(f->prediction.truncate_to == 10);
    CHECK(f->removed_records == 0);
    CHECK(f->fails());
    CHECK(f->leader_batch == std::pair<std::int64_t, std::int64_t>{5, 14});
    CHECK(f->divergent_records == 5u);
    CHECK(f->divergent_range == std::pair<std::int64_t, std::int64_t>{5, 9});
    CHECK_FALSE(f->committed_loss_possible());
    CHECK_THAT(f->action, Catch::Contains("delete f"));
  }
  SECTION("a leader whose HW is below that batch: a consumer cannot read it, not ruled out") {
    const PartitionReplica behind = unclean_leader(5);
    ConsumerReads few{behind};
    const ReplicaForecast f = live_forecast(behind, follower, few);
    CHECK_FALSE(f.first_append_known);
    CHECK(f.fails_possible());
    CHECK_FALSE(f.fails());
  }
  SECTION("the --mode hw rule (pre-0.11) is not judged") {
    CHECK_FALSE(forecast_replica(leader, follower, TruncationMode::hw).fails_possible());
  }
}

TEST_CASE("DeleteRecords inside the leader's batch above the fork: UnexpectedAppendOffset",
          "[storage][replica_forecast][follower_append]") {
  // The leader's log start 10 lies inside its batch 5-14, so its epoch cache starts there
  // (LeaderEpochFileCache.truncateFromStart: 1@10). The follower asks for epoch 0 and hears
  // (0, 10) (endOffsetFor: no entry at or below epoch 0, the first higher starts at 10):
  // it truncates to 10, keeping 5-9, then fetches at 10 and gets the batch 5-14.
  const PartitionReplica follower = returning_follower(15, 15);
  PartitionReplica leader = unclean_leader(15, 10);
  leader.as_leader.cache.clear();
  leader.as_leader.cache.assign({1, 10});
  const ReplicaForecast f = forecast_replica(leader, follower, TruncationMode::fetch);
  CHECK(f.prediction.truncate_to == 10);
  CHECK(f.removed_records == 5);  // 10-14, the follower's own: lost, committed
  CHECK(f.lost_records == 5);
  CHECK(f.committed_lost_records == 5);
  CHECK(f.fails());
  CHECK(f.leader_batch == std::pair<std::int64_t, std::int64_t>{5, 14});
  // Compared from the leader's first batch (5): the follower's 5-9 differ.
  CHECK(f.divergent_compared_from == 5);
  CHECK(f.divergent_records == 5u);
  ConsumerReads reads{leader};
  const ReplicaForecast live = live_forecast(leader, follower, reads);
  CHECK(live.fails());
  CHECK(live.divergent_records == f.divergent_records);
  CHECK(live.lost_records == f.lost_records);
}

TEST_CASE("A follower reset to the leader's log start takes the batch holding it",
          "[storage][replica_forecast][follower_append]") {
  // Its log ends below the leader's log start 10: truncateFullyAndStartAt(10) empties it,
  // and Partition.appendRecordsToFollowerOrFutureReplica restarts it at the batch's base 5.
  const PartitionReplica follower = replica_of("f", {{0, 4, 0, 100}}, 5);
  PartitionReplica leader = unclean_leader(15, 10);
  leader.as_leader.cache.clear();
  leader.as_leader.cache.assign({1, 10});
  const ReplicaForecast f = forecast_replica(leader, follower, TruncationMode::fetch);
  CHECK(f.prediction.truncated_fully);
  CHECK_FALSE(f.fails_possible());
}

TEST_CASE("Transactions as consumers see them: aborted records and markers counted apart",
          "[storage][replica_forecast][transactions]") {
  // Kafka's transactions fixture as the follower: 0-2 committed, 3 COMMIT, 4-5 aborted,
  // 6 ABORT, 7-8 plain; high watermark 9. A leader that ends at `cut` and answers the
  // follower's epochs with it: every record from `cut` on is lost.
  const PartitionReplica follower = load_partition_replica(
      std::filesystem::path(KEPOCH_SOURCE_DIR) / "tests/data/transactions/tx-0",
      ReplicaOverrides{9, 9, 0, true});
  SECTION("the whole log") {
    const ReplicaForecast f = forecast_from(follower, 0);
    CHECK(f.removed_records == 9);
    CHECK(f.lost_records == 5);  // commit-0..2, plain-0..1
    CHECK(f.committed_lost_records == 5);
    CHECK(f.lost_aborted_records == 2);
    CHECK(f.lost_control_records == 2);
    CHECK(f.transactions_known);
  }
  SECTION("from the COMMIT marker on: the committed data stays") {
    const ReplicaForecast f = forecast_from(follower, 3);
    CHECK(f.removed_records == 6);
    CHECK(f.lost_records == 2);
    CHECK(f.lost_aborted_records == 2);
    CHECK(f.lost_control_records == 2);
    CHECK(f.first_lost_offset == 7);
  }
  SECTION("from the aborted transaction on") {
    const ReplicaForecast f = forecast_from(follower, 4);
    CHECK(f.lost_aborted_records == 2);
    CHECK(f.lost_control_records == 1);
    CHECK(f.lost_records == 2);
  }
}

TEST_CASE("A crashed follower's high watermark checkpoint may lag: its loss above it is not safe",
          "[storage][replica_forecast]") {
  // ReplicaManager writes replication-offset-checkpoint every
  // replica.high.watermark.checkpoint.interval.ms and at a clean shutdown: a follower that
  // crashed (the divergence fixture's broker 1: checkpoint 5, Kafka's own log "Non-monotonic
  // update of high watermark from (offset=8 ...)") may have held a higher one. Its records
  // lost above the recorded 5 are not counted committed, and not ruled out either.
  PartitionReplica follower = replica_of("f", old_leader_log(), 5);
  PartitionReplica leader = replica_of("l", old_leader_log(5), 5);
  become_leader(leader.as_leader, 1);
  const ReplicaForecast crashed = forecast_replica(leader, follower, TruncationMode::fetch);
  CHECK(crashed.lost_records == 5);
  CHECK(crashed.committed_lost_records == 0);
  CHECK_FALSE(crashed.committed_loss());
  CHECK(crashed.committed_loss_unknown);
  CHECK(crashed.committed_loss_possible());
  REQUIRE(crashed.unanswered.size() == 1);
  CHECK(crashed.unanswered[0].find("did not shut down cleanly") != std::string::npos);
  // A clean shutdown wrote the checkpoint last: the records above it were not committed.
  follower.clean_shutdown = true;
  const ReplicaForecast clean = forecast_replica(leader, follower, TruncationMode::fetch);
  CHECK(clean.lost_records == 5);
  CHECK_FALSE(clean.committed_loss_possible());
  // A leader elected from the ISR holds every committed record (Kafka's guarantee): a crashed
  // follower's records it lacks were not committed.
  follower.clean_shutdown = false;
  const ReplicaForecast from_isr =
      forecast_replica(leader, follower, TruncationMode::fetch, /*leader_clean=*/true);
  CHECK_FALSE(from_isr.committed_loss_possible());
}

TEST_CASE("A leader that recorded a high watermark above its log end lost committed records",
          "[storage][replica_forecast]") {
  // The leader's checkpoint says 10 but its log ends at 7 (unflushed writes lost in a crash):
  // offsets 7-9 were committed, and the follower holding them (clean shutdown, its own
  // checkpoint 5) loses what was committed there.
  PartitionReplica follower = replica_of("f", old_leader_log(), 5);
  follower.clean_shutdown = true;
  PartitionReplica leader = replica_of("l", old_leader_log(7), 7);
  leader.high_watermark = 10;  // as recorded; loaded, Kafka lowers it to the log end
  const ReplicaForecast f = forecast_replica(leader, follower, TruncationMode::fetch);
  CHECK(f.prediction.truncate_to == 7);
  CHECK(f.lost_records == 3);
  CHECK(f.committed_lost_records == 0);
  CHECK(f.committed_loss_possible());
  REQUIRE_FALSE(f.unanswered.empty());
  CHECK(f.unanswered.back().find("above its log end 7") != std::string::npos);
  // Without that record the follower's loss above its own high watermark is safe.
  leader.high_watermark = 7;
  CHECK_FALSE(forecast_replica(leader, follower, TruncationMode::fetch).committed_loss_possible());
}

TEST_CASE("LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd: a log start past the log end",
          "[storage][replica_forecast]") {
  // A leader whose log-start-offset-checkpoint (100) is past its log end (10): Kafka deletes
  // all of its segments at load, so the followers are emptied, and what they remove below
  // 100 was never deleted on purpose: not counted as lost, and not safe.
  PartitionReplica follower = replica_of("f", old_leader_log(), 10);
  follower.clean_shutdown = true;
  PartitionReplica leader = replica_of("l", old_leader_log(), 10);
  leader.loaded.log_start_offset = leader.as_leader.log_start_offset = 100;
  const ReplicaForecast f = forecast_replica(leader, follower, TruncationMode::fetch);
  CHECK(f.prediction.truncated_fully);
  CHECK(f.below_leader_start_records == 10);
  CHECK_FALSE(f.lost_counted);
  CHECK(f.committed_loss_possible());
  // The same on the follower's side: Kafka empties it when it loads the log, before any
  // truncation counts its records.
  PartitionReplica emptied = replica_of("e", old_leader_log(), 10);
  emptied.clean_shutdown = true;
  emptied.loaded.log_start_offset = 100;
  emptied.segments.push_back(SegmentSummary{"e/00000000000000000000.log", 0, 1000, 10, 10});
  PartitionReplica whole = replica_of("w", old_leader_log(), 10);
  const ReplicaForecast g = forecast_replica(whole, emptied, TruncationMode::fetch);
  CHECK(g.removed_records == 0);
  CHECK(g.committed_loss_possible());
  emptied.loaded.log_start_offset = 0;
  CHECK_FALSE(forecast_replica(whole, emptied, TruncationMode::fetch).committed_loss_possible());
}
