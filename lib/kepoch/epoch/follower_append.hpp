#pragma once
// The follower's first append after its truncation, as Kafka runs it: the leader answers a
// Fetch at offset X with whole batches, from the one holding X (LocalLog.read looks the
// offset up in the segment and returns from that batch's position), so the first batch may
// begin below X when X lies inside it. The follower appends the leader's batches with the
// offsets they carry (UnifiedLog.appendAsFollower, validateAndAssignOffsets = false), which
// refuses a first offset below its log end offset:
//
//   UnifiedLog.append:  firstOrLastOffsetOfFirstBatch < logEndOffset
//                         -> UnexpectedAppendOffsetException(firstOffset, lastOffset)
//   Partition.appendRecordsToFollowerOrFutureReplica catches it:
//     logEndOffset == logStartOffset (an empty log) and firstOffset < logEndOffset <=
//     lastOffset -> truncateFullyAndStartAt(firstOffset), append again (the log restarts at
//     the batch's base offset: how a follower reset to a leader's log start inside a batch
//     takes that batch)
//     otherwise rethrow
//   AbstractFetcherThread.processFetchRequest: any other Throwable from
//     processPartitionData -> markPartitionFailed: the partition joins FailedPartitions and
//     leaves the fetcher; it never fetches again (so never rejoins the ISR) until the broker
//     restarts or the replica is reassigned, and it keeps the records it has.
//
// Two ways to get there: a follower without a leader epoch (a missing
// leader-epoch-checkpoint after a clean shutdown) truncates to its high watermark, which a
// leader elected uncleanly may hold inside a newer, longer batch; and DeleteRecords moving
// the leader's log start inside a batch, whose epoch cache then starts at that offset
// (LeaderEpochFileCache.truncateFromStart), so a follower asking for an older epoch is told
// to truncate to an offset inside that batch. Pure.

#include <cstdint>

#include "kepoch/epoch/truncation.hpp"

namespace kepoch {

enum class FollowerAppend {
  appends,       // the first batch starts at the fetch offset (or no batch holds it)
  restarts_log,  // an empty log restarts at the batch's base offset, then appends
  fails,         // UnexpectedAppendOffsetException: the partition is marked failed
};

// `follower` is the replica after its truncation (log end = the fetch offset); the leader's
// batch holding the fetch offset is [batch_base, batch_last].
FollowerAppend first_append(const ReplicaLog& follower, std::int64_t batch_base,
                            std::int64_t batch_last);

}  // namespace kepoch
