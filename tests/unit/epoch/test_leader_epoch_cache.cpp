// Pins Kafka's LeaderEpochFileCache semantics with the vectors of Kafka's own
// LeaderEpochFileCacheTest (core/src/test/scala/unit/kafka/server/epoch/); each test is
// named after the Kafka test it restates.
#include <catch2/catch.hpp>

#include "kepoch/epoch/leader_epoch_cache.hpp"

using kepoch::EpochEntry;
using kepoch::LeaderEpochCache;
using Entries = std::vector<EpochEntry>;

namespace {
LeaderEpochCache with(const Entries& entries) {
  LeaderEpochCache cache;
  for (const auto& e : entries)
    cache.assign(e);
  return cache;
}
EpochEntry eo(const LeaderEpochCache& c, int epoch, long leo) {
  return c.end_offset_for(epoch, leo);
}
}  // namespace

TEST_CASE("testPreviousEpoch", "[epoch][LeaderEpochCache]") {
  LeaderEpochCache c;
  CHECK_FALSE(c.previous_epoch());
  c.assign({2, 10});
  CHECK_FALSE(c.previous_epoch());
  c.assign({4, 15});
  CHECK(c.previous_epoch() == 2);
  c.assign({10, 20});
  CHECK(c.previous_epoch() == 4);
  c.truncate_from_end(18);
  CHECK(c.previous_epoch() == 2);
}

TEST_CASE("shouldAddEpochAndMessageOffsetToCache / ReturnLogEndOffsetIfLatestEpochRequested",
          "[epoch][LeaderEpochCache]") {
  auto c = with({{2, 10}});
  CHECK(c.latest_epoch() == 2);
  CHECK(c.entries() == Entries{{2, 10}});
  CHECK(eo(c, 2, 11) == EpochEntry{2, 11});
  auto d = with({{2, 11}, {2, 12}});
  CHECK(eo(d, 2, 14) == EpochEntry{2, 14});
}

TEST_CASE("shouldReturnUndefinedOffsetIfUndefinedEpochRequested", "[epoch][LeaderEpochCache]") {
  CHECK(eo(with({{2, 11}, {3, 12}}), -1, 0) == EpochEntry{-1, -1});
  CHECK(eo(LeaderEpochCache{}, -1, 73) == EpochEntry{-1, -1});
  CHECK(eo(LeaderEpochCache{}, 0, 0) == EpochEntry{-1, -1});
  CHECK(eo(LeaderEpochCache{}, 7, 0) == EpochEntry{-1, -1});
}

TEST_CASE("assign keeps the first offset of an epoch and enforces monotonic entries",
          "[epoch][LeaderEpochCache]") {
  // shouldNotOverwriteLogEndOffsetForALeaderEpochOnceItHasBeenAssigned
  CHECK(with({{2, 9}, {2, 10}}).entries() == Entries{{2, 9}});
  // shouldEnforceMonotonicallyIncreasingStartOffsets
  CHECK(with({{2, 9}, {3, 9}}).entries() == Entries{{3, 9}});
  // shouldNotUpdateEpochAndStartOffsetIfItDidNotChange
  CHECK(with({{2, 6}, {2, 7}}).entries() == Entries{{2, 6}});
  // shouldEnforceOffsetsIncreaseMonotonically
  CHECK(with({{2, 6}, {3, 5}}).entries() == Entries{{3, 5}});
}

TEST_CASE("shouldReturnFirstEpochIfRequestedEpochLessThanFirstEpoch", "[epoch][LeaderEpochCache]") {
  CHECK(eo(with({{5, 11}, {6, 12}, {7, 13}}), 4, 0) == EpochEntry{4, 11});
}

TEST_CASE("shouldTruncateIfMatchingEpochButEarlierStartingOffset", "[epoch][LeaderEpochCache]") {
  auto c = with({{5, 11}, {6, 12}, {7, 13}});
  c.assign({7, 12});
  CHECK(c.entries() == Entries{{5, 11}, {7, 12}});
  CHECK(eo(c, 5, 0) == EpochEntry{5, 12});
  CHECK(eo(c, 6, 0) == EpochEntry{5, 12});
}

TEST_CASE("shouldGetFirstOffsetOfSubsequentEpochWhenOffsetRequestedForPreviousEpoch",
          "[epoch][LeaderEpochCache]") {
  auto c = with({{1, 11}, {1, 12}, {2, 13}, {2, 14}, {3, 15}, {3, 16}});
  CHECK(c.entries() == Entries{{1, 11}, {2, 13}, {3, 15}});
  CHECK(eo(c, 2, 17) == EpochEntry{2, 15});
}

TEST_CASE("shouldReturnNextAvailableEpochIfThereIsNoExactEpochForTheOneRequested",
          "[epoch][LeaderEpochCache]") {
  auto c = with({{0, 10}, {2, 13}, {4, 17}});
  CHECK(eo(c, 1, 0) == EpochEntry{0, 13});
  CHECK(eo(c, 2, 0) == EpochEntry{2, 17});
  CHECK(eo(c, 3, 0) == EpochEntry{2, 17});
}

TEST_CASE("shouldReturnInvalidOffsetIfEpochIsRequestedWhichIsNotCurrentlyTracked",
          "[epoch][LeaderEpochCache]") {
  CHECK(eo(with({{2, 100}}), 3, 100) == EpochEntry{-1, -1});
  CHECK(eo(with({{2, 6}}), 2, 7) == EpochEntry{2, 7});  // shouldSupportEpochsThatDoNotStartFromZero
}

TEST_CASE("shouldEnforceMonotonicallyIncreasingEpochs", "[epoch][LeaderEpochCache]") {
  auto c = with({{1, 5}, {2, 6}});
  c.assign({1, 7});
  CHECK(c.entries() == Entries{{1, 7}});
  CHECK(c.latest_epoch() == 1);
  CHECK(eo(c, 1, 8) == EpochEntry{1, 8});
  CHECK(eo(c, 2, 8) == EpochEntry{-1, -1});
}

TEST_CASE("shouldIncreaseAndTrackEpochsAsLeadersChangeManyTimes", "[epoch][LeaderEpochCache]") {
  auto c = with({{0, 0}, {1, 0}});
  CHECK(c.entries() == Entries{{1, 0}});
  CHECK(eo(c, 1, 0) == EpochEntry{1, 0});
  CHECK(eo(c, 0, 0) == EpochEntry{0, 0});
  CHECK(eo(c, 1, 5) == EpochEntry{1, 5});
  CHECK(eo(c, 0, 5) == EpochEntry{0, 0});
  c.assign({2, 5});
  CHECK(eo(c, 2, 10) == EpochEntry{2, 10});
  CHECK(eo(c, 1, 10) == EpochEntry{1, 5});
  CHECK(eo(c, 0, 10) == EpochEntry{0, 0});
}

TEST_CASE("shouldIncreaseAndTrackEpochsAsFollowerReceivesManyMessages",
          "[epoch][LeaderEpochCache]") {
  auto c = with({{0, 0}, {0, 1}, {0, 2}, {1, 3}, {1, 4}, {1, 5}, {2, 6}, {2, 7}, {2, 8}});
  CHECK(c.entries() == Entries{{0, 0}, {1, 3}, {2, 6}});
  CHECK(eo(c, 2, 9) == EpochEntry{2, 9});
  CHECK(eo(c, 0, 9) == EpochEntry{0, 3});
  CHECK(eo(c, 1, 9) == EpochEntry{1, 6});
}

TEST_CASE("truncateFromEnd and truncateFromStart", "[epoch][LeaderEpochCache]") {
  const Entries three{{2, 6}, {3, 8}, {4, 11}};
  auto run_end = [&](long offset) {
    auto c = with(three);
    c.truncate_from_end(offset);
    return c.entries();
  };
  auto run_start = [&](long offset) {
    auto c = with(three);
    c.truncate_from_start(offset);
    return c.entries();
  };
  CHECK(run_end(8) == Entries{{2, 6}});             // DropEntriesOnEpochBoundary...
  CHECK(run_end(9) == Entries{{2, 6}, {3, 8}});     // DropEntriesBetweenEpochBoundary...
  CHECK(run_end(-1) == three);                      // NotResetEpochHistoryTail...
  CHECK(run_start(8) == Entries{{3, 8}, {4, 11}});  // PreserveResetOffsetOnClearEarliest
  CHECK(run_start(9) == Entries{{3, 9}, {4, 11}});  // UpdateSavedOffsetWhenBetweenEpochs
  CHECK(run_start(1) == three);                     // NotClearAnythingIfOffsetToEarly
  CHECK(run_start(6) == three);                     // NotClearAnythingIfOffsetToFirstOffset
  CHECK(run_start(11) == Entries{{4, 11}});         // RetainLatestEpochOnClearAllEarliest
  CHECK(run_start(15) == Entries{{4, 15}});         // ...AndUpdateItsOffset
  CHECK(run_start(-1) == three);                    // NotResetEpochHistoryHead...
  auto c = with({{0, 0}, {1, 7}, {2, 10}});
  c.truncate_from_start(5);
  CHECK(c.entries() == Entries{{0, 5}, {1, 7}, {2, 10}});  // UpdateOffsetBetweenEpochBoundaries2
  LeaderEpochCache empty;
  CHECK(empty.truncate_from_start(7).empty());  // shouldClearEarliestOnEmptyCache
  CHECK(empty.truncate_from_end(7).empty());    // shouldClearLatestOnEmptyCache
}

TEST_CASE("previous, next and exact lookups", "[epoch][LeaderEpochCache]") {
  auto c = with({{2, 10}, {4, 15}, {10, 20}});
  CHECK(c.previous_entry(4) == EpochEntry{2, 10});
  CHECK(c.previous_entry(10) == EpochEntry{4, 15});
  CHECK_FALSE(c.previous_entry(2));
  auto n = with({{0, 0}, {1, 100}, {2, 200}});  // testFindNextEpoch
  CHECK(n.next_epoch(-1) == 0);
  CHECK(n.next_epoch(0) == 1);
  CHECK(n.next_epoch(1) == 2);
  CHECK_FALSE(n.next_epoch(2));
  CHECK_FALSE(n.next_epoch(100));
  auto g = with({{2, 100}, {3, 500}, {5, 1000}});  // testGetEpochEntry
  CHECK(g.entry_for(3) == EpochEntry{3, 500});
  CHECK_FALSE(g.entry_for(4));
}

TEST_CASE("shouldFetchEpochForGivenOffset", "[epoch][LeaderEpochCache]") {
  auto c = with({{0, 10}, {1, 20}, {5, 30}});
  CHECK(c.epoch_for_offset(25) == 1);
  CHECK(c.epoch_for_offset(20) == 1);
  CHECK(c.epoch_for_offset(30) == 5);
  CHECK(c.epoch_for_offset(50) == 5);
  CHECK_FALSE(c.epoch_for_offset(5));
}

TEST_CASE("LeaderEpochIntegrationTest: leader cache {0:0, 2:1, 4:2}, LEO 3",
          "[epoch][LeaderEpochCache]") {
  auto c = with({{0, 0}, {2, 1}, {4, 2}});
  CHECK(eo(c, 0, 3).start_offset == 1);
  CHECK(eo(c, 1, 3) == EpochEntry{0, 1});
  CHECK(eo(c, 2, 3) == EpochEntry{2, 2});
  CHECK(eo(c, 3, 3).start_offset == 2);
  CHECK(eo(c, 4, 3).start_offset == 3);
  CHECK(eo(c, 5, 3).start_offset == -1);
}

TEST_CASE("assign rejects negative epochs and offsets as Kafka does", "[epoch][LeaderEpochCache]") {
  LeaderEpochCache c;
  CHECK_THROWS_AS(c.assign({-1, 0}), kepoch::InvalidEpochEntry);
  CHECK_THROWS_WITH(c.assign({0, -5}), Catch::Contains("EpochEntry(epoch=0, startOffset=-5)"));
}

// Loading a checkpoint (the LeaderEpochFileCache constructor's assign of each entry in file
// order) on a vector: assign_in_order must give what assign on the map gives, for every
// order of entries, duplicates and conflicts included.
TEST_CASE("assign_in_order equals LeaderEpochCache.assign entry by entry",
          "[epoch][LeaderEpochCache]") {
  std::uint32_t seed = 12345;
  auto next = [&seed](int bound) {
    seed = seed * 1103515245u + 12345u;
    return static_cast<int>((seed >> 16) % static_cast<std::uint32_t>(bound));
  };
  for (int round = 0; round < 2000; ++round) {
    LeaderEpochCache cache;
    Entries in_order;
    const int n = next(12);
    for (int i = 0; i < n; ++i) {
      const EpochEntry e{next(8), next(20)};
      cache.assign(e);
      kepoch::assign_in_order(in_order, e);
    }
    REQUIRE(in_order == cache.entries());
  }
  Entries none;
  CHECK_THROWS_AS(kepoch::assign_in_order(none, {-1, 0}), kepoch::InvalidEpochEntry);
  CHECK_THROWS_AS(kepoch::assign_in_order(none, {0, -1}), kepoch::InvalidEpochEntry);
}
