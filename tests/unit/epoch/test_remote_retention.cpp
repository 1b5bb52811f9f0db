// What the leader's remote-log retention deletes and leaks after an unclean election: Kafka's
// RemoteLogManager.RLMExpirationTask.cleanupExpiredRemoteLogSegments
// (isSegmentBreachByLogStartOffset, isRemoteSegmentWithinLeaderEpochs, retention by time/size,
// deleteLogSegmentsDueToLeaderEpochCacheTruncation) over RemoteLogMetadataCache /
// RemoteLogLeaderEpochState (offsetToId, unreferencedSegmentIds). The first case is the unclean
// election of tests/oracle/tiered-unclean-vs-kafka.sh as Kafka 4.4.0 ran it (its server.log: four
// segments "due to retention time", one "due to leader-epoch-cache truncation", one left in remote
// storage).
#include <catch2/catch.hpp>

#include <map>

#include "kepoch/epoch/remote_retention.hpp"

using kepoch::EpochEntry;
using kepoch::RemoteFate;
using kepoch::RemoteLogIndex;
using kepoch::RemoteSegment;
using kepoch::RemoteSegmentState;
using kepoch::RetentionRules;

namespace {
using Epochs = std::vector<EpochEntry>;

void copy(RemoteLogIndex& index, const std::string& id, std::int64_t start, std::int64_t end,
          Epochs epochs) {
  RemoteSegment s;
  s.segment_id = id;
  s.start_offset = start;
  s.end_offset = end;
  s.leader_epochs = std::move(epochs);
  index.add_copy_started(s);
  index.update(id, RemoteSegmentState::copy_segment_finished);
}

std::map<std::string, RemoteFate> fates(const RemoteLogIndex& index, const Epochs& leader,
                                        std::int64_t log_start, std::int64_t log_end,
                                        RetentionRules rules = RetentionRules::kafka_4) {
  std::map<std::string, RemoteFate> out;
  for (const auto& f :
       kepoch::forecast_remote_retention(index, leader, log_start, log_end, rules).segments)
    out[f.segment_id] = f.fate;
  return out;
}

// Broker 1 led epoch 0 and uploaded 0-1023, 1024-2043, 2044-3067; broker 2, elected
// uncleanly at 1500 in epoch 2, uploaded 1024-2043 (epochs 0 and 2), 2044-3067, 3068-4091.
RemoteLogIndex unclean_election() {
  RemoteLogIndex index;
  copy(index, "s0", 0, 1023, {{0, 0}});
  copy(index, "s1", 1024, 2043, {{0, 1024}});
  copy(index, "s2", 2044, 3067, {{0, 2044}});
  copy(index, "t1", 1024, 2043, {{0, 1024}, {2, 1500}});
  copy(index, "t2", 2044, 3067, {{2, 2044}});
  copy(index, "t3", 3068, 4091, {{2, 3068}});
  return index;
}
}  // namespace

TEST_CASE("after an unclean election: retention, epoch-cache truncation, and the leak") {
  const auto index = unclean_election();
  const Epochs leader{{0, 0}, {2, 1500}};
  const auto f = kepoch::forecast_remote_retention(index, leader, 0, 4500, RetentionRules::kafka_4);
  std::map<std::string, kepoch::RemoteSegmentFate> by;
  for (const auto& x : f.segments)
    by[x.segment_id] = x;
  REQUIRE(by.size() == 6);
  for (const char* id : {"s0", "t1", "t2", "t3"}) {
    CHECK(by[id].fate == RemoteFate::retention);
    CHECK(by[id].pass == 1);
  }
  // The log start moves to 4092: epoch 0 leaves the cache, and s2 (epoch 0 only, listed under
  // epoch 0) goes by the truncation path in the same pass.
  CHECK(by["s2"].fate == RemoteFate::epoch_cache_truncation);
  CHECK(by["s2"].pass == 1);
  // t1 replaced s1 in epoch 0's offsetToId at 1024 (put drops the old id): listed nowhere.
  CHECK(by["s1"].fate == RemoteFate::leaked);
  CHECK(f.log_start_after == 4092);
  CHECK(f.epochs_after == Epochs{{2, 4092}});
  // 3.9.1's rules are the same here.
  CHECK(fates(index, leader, 0, 4500, RetentionRules::kafka_3_9) ==
        fates(index, leader, 0, 4500, RetentionRules::kafka_4));
}

TEST_CASE("the losing branch waits for the log start to pass the new leader's first epoch") {
  // Broker 2 has uploaded nothing of epoch 2 yet: retention takes s0 only, the log start
  // stops at 1024, epoch 0 stays the earliest, and s1, s2 wait for the log start to reach 1500.
  RemoteLogIndex index;
  copy(index, "s0", 0, 1023, {{0, 0}});
  copy(index, "s1", 1024, 2043, {{0, 1024}});
  copy(index, "s2", 2044, 3067, {{0, 2044}});
  const auto f = kepoch::forecast_remote_retention(index, {{0, 0}, {2, 1500}}, 0, 1800,
                                                   RetentionRules::kafka_4);
  REQUIRE(f.segments.size() == 3);
  CHECK(f.segments[0].fate == RemoteFate::retention);
  for (int i : {1, 2}) {
    CHECK(f.segments[i].fate == RemoteFate::awaits_truncation);
    CHECK(f.segments[i].truncation_after == 1500);
  }
  CHECK(f.log_start_after == 1024);
}

TEST_CASE("a segment below the log start whose epochs are at or below the first one goes") {
  // isSegmentBreachByLogStartOffset: the leader's cache starts at epoch 3 (5000); a segment
  // of epoch 3 and one of epochs 1..3 ending below 5000 are deleted by that path, not by
  // retention (they are outside the lineage).
  RemoteLogIndex index;
  copy(index, "a", 4000, 4999, {{1, 4000}, {3, 4500}});
  copy(index, "b", 5000, 5999, {{3, 5000}});
  const auto f = fates(index, {{3, 5000}}, 5000, 7000);
  CHECK(f.at("a") == RemoteFate::log_start);
  CHECK(f.at("b") == RemoteFate::retention);
}

TEST_CASE("a delete that had started: 4.x retries it, 3.9 judges it as any other") {
  // Outside the lineage (epoch 0 past the leader's epoch 0 end, 499): 4.x deletes it again in
  // the retention loop; 3.9 skips it there, and takes it by the truncation path once e's
  // deletion moves the log start to 500 and epoch 0 leaves the cache.
  RemoteLogIndex index;
  copy(index, "d", 0, 999, {{0, 0}});
  index.update("d", RemoteSegmentState::delete_segment_started);
  copy(index, "e", 0, 499, {{0, 0}});
  const Epochs leader{{0, 0}, {2, 500}};
  const auto f4 = fates(index, leader, 0, 800, RetentionRules::kafka_4);
  const auto f39 = fates(index, leader, 0, 800, RetentionRules::kafka_3_9);
  CHECK(f4.at("d") == RemoteFate::delete_retried);
  CHECK(f39.at("d") == RemoteFate::epoch_cache_truncation);
  CHECK(f4.at("e") == RemoteFate::retention);
  CHECK(f39.at("e") == RemoteFate::retention);
}

TEST_CASE("a copy displaced by a later one reaching further stays listed") {
  // handleSegmentWithCopySegmentFinishedState's loop: a later copy of epoch 0 from 50 reaching
  // the epoch's highest offset moves the entry at 100 to the unreferenced ids; listed under
  // epoch 0, the truncation path can take it, where the one replaced at the same offset leaks.
  RemoteLogIndex index;
  copy(index, "old", 100, 199, {{0, 100}});
  copy(index, "new", 50, 299, {{0, 50}});
  auto listed = index.segments_of_epoch(0);
  REQUIRE(listed.size() == 2);
  CHECK(listed[0]->segment_id == "new");
  CHECK(listed[1]->segment_id == "old");
  // A copy of epoch 0 from 50 that stops short of the epoch's highest offset (a new leader's
  // segment holding the end of epoch 0 and the start of its own epoch 1): no entry moves, and
  // put(50, "short") drops "new" from epoch 0, which lists it no more.
  copy(index, "short", 50, 120, {{0, 50}, {1, 100}});
  listed = index.segments_of_epoch(0);
  REQUIRE(listed.size() == 2);
  CHECK(listed[0]->segment_id == "short");
  CHECK(listed[1]->segment_id == "old");
  CHECK(index.find("new"));  // still held (listAllRemoteLogSegments), found by no epoch
}

TEST_CASE("RemoteLogSegmentState.isValidTransition") {
  using S = RemoteSegmentState;
  CHECK(kepoch::remote_segment_transition_valid(std::nullopt, S::copy_segment_started));
  CHECK_FALSE(kepoch::remote_segment_transition_valid(std::nullopt, S::copy_segment_finished));
  CHECK(
      kepoch::remote_segment_transition_valid(S::copy_segment_started, S::delete_segment_started));
  CHECK_FALSE(kepoch::remote_segment_transition_valid(S::copy_segment_finished,
                                                      S::delete_segment_finished));
  CHECK(kepoch::remote_segment_transition_valid(S::delete_segment_started,
                                                S::delete_segment_started));
  CHECK_FALSE(
      kepoch::remote_segment_transition_valid(S::delete_segment_finished, S::copy_segment_started));
  // A dropped event changes nothing: the finished copy stays listed.
  RemoteLogIndex index;
  copy(index, "x", 0, 9, {{0, 0}});
  index.update("x", S::delete_segment_finished);
  REQUIRE(index.find("x"));
  CHECK(index.find("x")->state == S::copy_segment_finished);
}
