// Pins the follower's first append after its truncation (epoch/follower_append) as
// UnifiedLog.append (validateAndAssignOffsets = false) and
// Partition.appendRecordsToFollowerOrFutureReplica decide it: a first batch below the log
// end throws UnexpectedAppendOffsetException, which only an empty log survives, and only
// when the batch reaches its log end (truncateFullyAndStartAt the batch's base offset);
// otherwise AbstractFetcherThread marks the partition failed. The vectors are those of
// PartitionTest.testAppendRecordsAsFollowerBelowLogStartOffset.
#include <catch2/catch.hpp>

#include "kepoch/epoch/follower_append.hpp"

using namespace kepoch;

namespace {

ReplicaLog follower_at(std::int64_t log_start, std::int64_t log_end) {
  ReplicaLog log;
  log.log_start_offset = log_start;
  log.log_end_offset = log_end;
  log.high_watermark = log_end;
  return log;
}

}  // namespace

TEST_CASE("PartitionTest.testAppendRecordsAsFollowerBelowLogStartOffset",
          "[epoch][follower_append]") {
  // truncateFullyAndStartAt(5): an empty log at 5. A batch [3, 3] does not reach 5: throws.
  CHECK(first_append(follower_at(5, 5), 3, 3) == FollowerAppend::fails);
  // A batch [4, 6] holding 5: the log starts over at 4 and takes it.
  CHECK(first_append(follower_at(5, 5), 4, 6) == FollowerAppend::restarts_log);
  // Then [7, 7] at log end 7 appends.
  CHECK(first_append(follower_at(4, 7), 7, 7) == FollowerAppend::appends);
  // A log that is not empty (4-7, end 8) refuses [3, 4]: throws.
  CHECK(first_append(follower_at(4, 8), 3, 4) == FollowerAppend::fails);
  // The next offset, 8, still appends.
  CHECK(first_append(follower_at(4, 8), 8, 8) == FollowerAppend::appends);
}

TEST_CASE("UnexpectedAppendOffsetException: a follower that fetches inside a leader's batch",
          "[epoch][follower_append]") {
  // The follower truncated to its high watermark 10; the leader's batch holding 10 is 5-14
  // (a leader elected uncleanly wrote one longer batch from 5).
  CHECK(first_append(follower_at(0, 10), 5, 14) == FollowerAppend::fails);
  // A batch starting at or above the fetch offset appends.
  CHECK(first_append(follower_at(0, 10), 10, 14) == FollowerAppend::appends);
  CHECK(first_append(follower_at(0, 10), 12, 14) == FollowerAppend::appends);
}
