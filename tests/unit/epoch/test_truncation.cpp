// Pins follower truncation as Kafka's AbstractFetcherThread runs it, with the vectors of
// AbstractFetcherThreadTest, ReplicaFetcherThreadTest and UnifiedLogTest (shared/spec
// kafka-formats 4.5 and 4.8, re-derived with the real epoch-cache semantics).
#include <catch2/catch.hpp>

#include "kepoch/epoch/truncation.hpp"

using namespace kepoch;
using Entries = std::vector<EpochEntry>;

namespace {

// A log of single-record batches given as the epoch of each offset.
ReplicaLog log_of(const std::vector<int>& epochs, std::int64_t hw = 0, std::int64_t start = 0) {
  ReplicaLog log;
  for (std::size_t i = 0; i < epochs.size(); ++i)
    log.cache.assign({epochs[i], static_cast<std::int64_t>(i + static_cast<std::size_t>(start))});
  log.log_end_offset = start + static_cast<std::int64_t>(epochs.size());
  log.high_watermark = hw;
  log.log_start_offset = start;
  return log;
}

ReplicaLog cache_log(const Entries& entries, std::int64_t leo, std::int64_t hw = 0) {
  ReplicaLog log;
  for (const auto& e : entries)
    log.cache.assign(e);
  log.log_end_offset = leo;
  log.high_watermark = hw;
  return log;
}

std::string branches(const TruncationPrediction& p) {
  std::string s;
  for (const auto& r : p.rounds)
    s += branch_letter(r.branch);
  return s;
}

}  // namespace

TEST_CASE("AbstractFetcherThreadTest.testTruncation, OffsetsForLeaderEpoch rounds",
          "[epoch][truncation]") {
  const auto follower = log_of({0, 2, 4});
  const auto leader = log_of({1, 3, 5}, 2);
  const auto p = predict_truncation(leader, follower, TruncationMode::ofle);
  REQUIRE(p.rounds.size() == 3);
  CHECK(branches(p) == "DDE");
  CHECK(p.rounds[0].requested_epoch == 4);
  CHECK(p.rounds[0].leader_reply == EpochEntry{3, 2});
  CHECK(p.rounds[0].follower_lookup == EpochEntry{2, 2});
  CHECK(p.rounds[0].truncate_to == 2);
  CHECK(p.rounds[1].leader_reply == EpochEntry{1, 1});
  CHECK(p.rounds[1].truncate_to == 1);
  CHECK(p.rounds[2].leader_reply == EpochEntry{0, 0});
  CHECK(p.rounds[2].truncate_to == 0);
  CHECK(p.truncate_to == 0);
  CHECK(p.after.cache.empty());
}

TEST_CASE("AbstractFetcherThreadTest.testTruncation, fetch divergence", "[epoch][truncation]") {
  const auto p = predict_truncation(log_of({1, 3, 5}, 2), log_of({0, 2, 4}), TruncationMode::fetch);
  CHECK(branches(p) == "DDE");
  CHECK(p.truncate_to == 0);
  CHECK(p.fetch_from == 0);
}

TEST_CASE("AbstractFetcherThreadTest.testDivergingEpochs", "[epoch][truncation]") {
  const auto p = predict_truncation(log_of({0, 2, 5}), log_of({0, 2, 4}), TruncationMode::fetch);
  CHECK(branches(p) == "EN");
  CHECK(p.rounds[0].leader_reply == EpochEntry{2, 2});
  CHECK(p.truncate_to == 2);
  CHECK(p.after.cache.latest_epoch() == 2);  // the next lastFetchedEpoch
}

TEST_CASE("AbstractFetcherThreadTest.testTruncateOnFetchDoesNotProcessPartitionData",
          "[epoch][truncation]") {
  const auto follower = log_of({0, 0, 2, 4, 4, 4}, 1);
  const auto leader = log_of({0, 0, 2, 5, 5}, 4);
  const auto p = predict_truncation(leader, follower, TruncationMode::fetch);
  CHECK(branches(p) == "EN");  // exactly one truncation
  CHECK(p.rounds[0].leader_reply == EpochEntry{2, 3});
  CHECK(p.truncate_to == 3);
  CHECK(p.after.high_watermark == 1);
}

TEST_CASE("truncate to the high watermark without epochs", "[epoch][truncation]") {
  // testTruncateToHighWatermarkIfLeaderEpochInfoNotAvailable
  ReplicaLog follower;
  follower.log_end_offset = 3;
  follower.high_watermark = 2;
  const auto p = predict_truncation(log_of({0, 0, 0}), follower, TruncationMode::fetch);
  CHECK(branches(p) == "H");
  CHECK(p.truncate_to == 2);
  // The pre-0.11 rule always does this, epochs or not.
  const auto hw = predict_truncation(log_of({0, 0, 0}), log_of({0, 0, 0}, 1), TruncationMode::hw);
  CHECK(hw.truncate_to == 1);
}

TEST_CASE("without epochs, the fetch at the high watermark can still be out of range",
          "[epoch][truncation]") {
  // Truncating state (no last fetched epoch) truncates to the HW; the Fetch that follows
  // carries no epoch, so the leader checks only the range (LocalLog.read): OFFSET_OUT_OF_RANGE
  // and fetchOffsetAndTruncate.
  ReplicaLog follower;
  follower.log_end_offset = 6;
  follower.high_watermark = 5;
  SECTION("the HW past the leader's log end: truncate to the leader's end") {
    const auto p = predict_truncation(log_of({0, 0, 0}), follower, TruncationMode::fetch);
    CHECK(branches(p) == "HO");
    CHECK(p.truncate_to == 3);
    CHECK(p.fetch_from == 3);
  }
  SECTION("the HW below the leader's log start: truncate fully") {
    const auto leader = log_of({1, 1}, 8, 7);  // log start 7, LEO 9
    const auto p = predict_truncation(leader, follower, TruncationMode::fetch);
    CHECK(branches(p) == "HO");
    CHECK(p.truncated_fully);
    CHECK(p.fetch_from == 7);
  }
  SECTION("the HW inside the leader's range: fetch from it") {
    const auto p =
        predict_truncation(log_of({0, 0, 0, 0, 0, 0, 0}), follower, TruncationMode::fetch);
    CHECK(branches(p) == "H");
    CHECK(p.fetch_from == 5);
  }
}

TEST_CASE("out of range: testFollowerFetchOutOfRangeHigh and ...Low", "[epoch][truncation]") {
  ReplicaLog cleared;  // the leader's log was emptied
  const auto high = predict_truncation(cleared, log_of({0, 0, 0}), TruncationMode::fetch);
  CHECK(branches(high) == "O");
  CHECK(high.truncate_to == 0);
  const auto leader = log_of({4}, 0, 2);  // [4@2], log start 2, LEO 3
  const auto low = predict_truncation(leader, log_of({0}), TruncationMode::fetch);
  CHECK(low.truncated_fully);
  CHECK(low.truncate_to == 2);
  CHECK(low.after.log_start_offset == 2);
  CHECK(low.after.cache.empty());
}

TEST_CASE("pre-0.11 ReplicaFetcherThread.handleOffsetOutOfRange after truncating to the HW",
          "[epoch][truncation]") {
  // makeFollowers truncates to the high watermark and fetches from there; the leader's
  // Log.read refuses an offset past its log end or below its log start.
  SECTION("the follower's HW is above the leader's log end: truncate to the leader's end") {
    // The seeds' lost acknowledged message, second half: B (LEO 2, HW 2) returns to A,
    // which truncated to its own HW 1 and leads.
    const auto p = predict_truncation(log_of({0}, 1), log_of({0, 0}, 2), TruncationMode::hw);
    CHECK(branches(p) == "HO");
    CHECK(p.rounds[0].truncate_to == 2);  // its high watermark: nothing cut
    CHECK(p.truncate_to == 1);
    CHECK(p.fetch_from == 1);
    CHECK_FALSE(p.truncated_fully);
  }
  SECTION("the follower's HW is below the leader's log start: truncate fully") {
    const auto leader = log_of({3, 3}, 6, 5);  // log start 5, LEO 7
    const auto p = predict_truncation(leader, log_of({0, 0, 0, 0}, 2), TruncationMode::hw);
    CHECK(branches(p) == "HO");
    CHECK(p.truncated_fully);
    CHECK(p.truncate_to == 5);
    CHECK(p.fetch_from == 5);
    CHECK(p.after.log_start_offset == 5);
    CHECK(p.after.cache.empty());
  }
  SECTION("a fetch offset within the leader's log is served: only the HW truncation") {
    const auto p =
        predict_truncation(log_of({0, 0, 0}, 3), log_of({0, 0, 0}, 1), TruncationMode::hw);
    CHECK(branches(p) == "H");
    CHECK(p.truncate_to == 1);
    CHECK(p.fetch_from == 1);
  }
}

TEST_CASE("ReplicaFetcherThreadTest: offset_truncation_state branches", "[epoch][truncation]") {
  // shouldTruncateToOffsetSpecifiedInEpochOffsetResponse: follower EO(5) = (5, 200)
  const auto at200 = cache_log({{5, 100}}, 200);
  CHECK(offset_truncation_state(at200, {5, 156}, 0).truncate_to == 156);
  CHECK(offset_truncation_state(at200, {5, 172}, 0).branch == TruncationBranch::e_same_epoch);
  // ...IfFollowerHasNoMoreEpochs (branch C): the follower does not know epoch 4
  const auto older = cache_log({{3, 0}}, 200);
  CHECK(offset_truncation_state(older, {4, 156}, 0).truncate_to == 156);
  CHECK(offset_truncation_state(older, {4, 202}, 0).truncate_to == 200);
  CHECK(offset_truncation_state(older, {4, 202}, 0).branch ==
        TruncationBranch::c_follower_lacks_epoch);
  // shouldUseLeaderEndOffsetIfInterBrokerVersionBelow20 (branch B)
  CHECK(offset_truncation_state(at200, {-1, 155}, 0).truncate_to == 155);
  CHECK(offset_truncation_state(at200, {-1, 143}, 0).branch ==
        TruncationBranch::b_leader_epoch_undefined);
  // shouldTruncateToInitialFetchOffsetIfLeaderReturnsUndefinedOffset (branch A)
  const auto a = offset_truncation_state(at200, {-1, -1}, 100);
  CHECK(a.branch == TruncationBranch::a_leader_offset_undefined);
  CHECK(a.truncate_to == 100);
}

TEST_CASE("shouldFetchLeaderEpochSecondTimeIfLeaderRepliesWithEpochNotKnownToFollower",
          "[epoch][truncation]") {
  auto follower = cache_log({{3, 50}, {5, 120}}, 200);
  const auto first = offset_truncation_state(follower, {4, 155}, 0);
  CHECK(first.branch == TruncationBranch::d_follower_older_epoch);
  CHECK_FALSE(first.completed);
  CHECK(first.truncate_to == 120);
  truncate_to(follower, first.truncate_to);
  const auto second = offset_truncation_state(follower, {3, 101}, 0);
  CHECK(second.branch == TruncationBranch::e_same_epoch);
  CHECK(second.truncate_to == 101);
}

TEST_CASE("UnifiedLog.truncateTo: at or past the end drops a data-less epoch",
          "[epoch][truncation]") {
  // UnifiedLogTest.testTruncateToEndOffsetClearsEpochCache
  auto log = cache_log({{19, 27}}, 29);
  log.cache.assign({20, 29});
  truncate_to(log, 29);
  CHECK(log.cache.latest_entry() == EpochEntry{19, 27});
  log.cache.assign({24, 29});
  truncate_to(log, 30);
  CHECK(log.cache.latest_entry() == EpochEntry{19, 27});
  CHECK(log.log_end_offset == 29);
  // shouldTruncateLeaderEpochCheckpointFileWhenTruncatingLog
  std::vector<int> epochs(20, 0);
  for (int i = 10; i < 16; ++i)
    epochs[i] = 1;
  for (int i = 16; i < 20; ++i)
    epochs[i] = 2;
  auto l = log_of(epochs, 20);
  truncate_to(l, 20);
  CHECK(l.cache.size() == 3);
  truncate_to(l, 11);
  CHECK(l.cache.size() == 2);
  truncate_to(l, 10);
  CHECK(l.cache.size() == 1);
  truncate_to(l, 0);
  CHECK(l.cache.size() == 0);
  CHECK(l.high_watermark == 0);
}

TEST_CASE("A live leader answers epoch by epoch: the prediction names the epoch it still needs",
          "[epoch][truncation]") {
  // The same exchange as AbstractFetcherThreadTest.testTruncation (OffsetsForLeaderEpoch
  // rounds), with the leader's answers given one round at a time as a live leader gives them.
  const auto follower = log_of({0, 2, 4});
  const auto leader = log_of({1, 3, 5}, 2);
  const LeaderAnswers all = answers_of(leader, follower.cache);
  LeaderAnswers some;
  some.log_end_offset = all.log_end_offset;
  std::vector<std::int32_t> asked;
  TruncationPrediction p;
  for (;;) {
    p = predict_truncation(some, follower, TruncationMode::ofle);
    if (!p.unanswered_epoch) break;
    asked.push_back(*p.unanswered_epoch);
    some.end_offsets.emplace(*p.unanswered_epoch, all.end_offsets.at(*p.unanswered_epoch));
  }
  CHECK(asked == std::vector<std::int32_t>{4, 2, 0});
  CHECK(branches(p) == "DDE");
  CHECK(p.truncate_to == predict_truncation(leader, follower, TruncationMode::ofle).truncate_to);

  // Fetch divergence asks for the follower's latest epoch first; unanswered, nothing is cut.
  const auto fetch = predict_truncation(LeaderAnswers{}, follower, TruncationMode::fetch);
  CHECK(fetch.unanswered_epoch == 4);
  CHECK(fetch.rounds.empty());
  CHECK(fetch.truncate_to == follower.log_end_offset);
}
