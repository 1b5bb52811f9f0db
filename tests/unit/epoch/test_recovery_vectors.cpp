// The recovery vectors of shared/spec kafka-formats 11.4 that concern the epoch cache and
// offset ranges, each named after the Kafka test it mirrors. (The vectors about segment
// bytes run on real Kafka-written segments in tests/unit/storage/test_recovery_segments.cpp.)
// Not mirrored: LogSegmentTest.testRecoverTransactionIndex (kepoch checks a .txnindex, with
// Kafka's sanity check, but does not rebuild one) and
// LogLoaderTest.testLeaderEpochCacheClearedAfterStaticMessageFormatDowngrade (Kafka 4 has no
// message.format.version to downgrade: it writes v2 batches only).
#include <catch2/catch.hpp>

#include <climits>

#include "kepoch/epoch/leader_epoch_cache.hpp"
#include "kepoch/format/offset_index.hpp"

using namespace kepoch;
using Entries = std::vector<EpochEntry>;

TEST_CASE("LogSegmentTest.testRecoveryRebuildsEpochCache", "[recovery][11.4]") {
  // v2 batches of two records at 104 (epoch 0), 106 (1), 108 (1), 110 (2); empty cache.
  LeaderEpochCache cache;
  for (const EpochEntry batch : Entries{{0, 104}, {1, 106}, {1, 108}, {2, 110}})
    cache.assign_if_newer(batch);
  CHECK(cache.entries() == Entries{{0, 104}, {1, 106}, {2, 110}});
}

TEST_CASE("LogLoaderTest.testLogRecoversForLeaderEpoch", "[recovery][11.4]") {
  // A follower appended 1@0, 2@1, 2@2, 3@3; the cache was truncated in memory to end offset 2
  // ([(1,0),(2,1)] reached the file); the log kept its four records. Reopened uncleanly from
  // recovery point 0, the replayed batches bring epoch 3 back.
  const Entries batches{{1, 0}, {2, 1}, {2, 2}, {3, 3}};
  LeaderEpochCache cache;
  for (const auto& b : batches)
    cache.assign(b);
  CHECK(cache.entries() == Entries{{1, 0}, {2, 1}, {3, 3}});
  cache.truncate_from_end(2);
  CHECK(cache.entries() == Entries{{1, 0}, {2, 1}});
  LeaderEpochCache reopened = LeaderEpochCache::load(cache.entries());
  for (const auto& b : batches)
    reopened.assign_if_newer(b);
  reopened.truncate_from_end(4);  // LogLoader: truncateFromEnd(LEO)
  reopened.truncate_from_start(0);
  CHECK(reopened.entries() == Entries{{1, 0}, {2, 1}, {3, 3}});
}

TEST_CASE("LogSegment.recover never corrects an entry, only appends newer epochs",
          "[recovery][11.4]") {
  LeaderEpochCache cache = LeaderEpochCache::load({{0, 0}, {2, 10}});
  CHECK_FALSE(cache.assign_if_newer({1, 5}));    // older than the latest: ignored
  CHECK_FALSE(cache.assign_if_newer({2, 7}));    // same epoch, earlier offset: ignored
  CHECK_FALSE(cache.assign_if_newer({-1, 12}));  // no epoch (pre-v2 producers)
  CHECK(cache.assign_if_newer({3, 12}));
  CHECK(cache.entries() == Entries{{0, 0}, {2, 10}, {3, 12}});
}

TEST_CASE("UnifiedLogTest.shouldTruncateLeaderEpochsWhenDeletingSegments", "[recovery][11.4]") {
  LeaderEpochCache cache = LeaderEpochCache::load({{0, 0}, {1, 5}, {2, 10}});
  cache.truncate_from_start(5);  // retention deleted the first segment: log start 5
  CHECK(cache.entries() == Entries{{1, 5}, {2, 10}});
}

TEST_CASE("UnifiedLogTest.shouldUpdateOffsetForLeaderEpochsWhenDeletingSegments",
          "[recovery][11.4]") {
  LeaderEpochCache cache = LeaderEpochCache::load({{0, 0}, {1, 7}, {2, 10}});
  cache.truncate_from_start(5);
  CHECK(cache.entries() == Entries{{0, 5}, {1, 7}, {2, 10}});
}

TEST_CASE("LogSegmentTest.testAppendForLogSegmentOffsetOverflowException", "[recovery][11.4]") {
  const std::int64_t two31 = std::int64_t{1} << 31;
  const std::vector<std::pair<std::int64_t, std::int64_t>> overflowing{
      {0, -two31}, {0, two31}, {1, 0}, {100, 10}, {two31, 0}, {-two31, 0}, {two31, 2 * two31}};
  for (const auto& [base, largest] : overflowing) {
    INFO("base " << base << ", largest offset " << largest);
    CHECK_FALSE(fits_relative_offset(base, largest));
  }
  CHECK(fits_relative_offset(0, 0));
  CHECK(fits_relative_offset(100, 100 + std::int64_t{INT32_MAX}));
  CHECK_FALSE(fits_relative_offset(100, 101 + std::int64_t{INT32_MAX}));
  CHECK_FALSE(fits_relative_offset(INT64_MIN, INT64_MAX));
}
