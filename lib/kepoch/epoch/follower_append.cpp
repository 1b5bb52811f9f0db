#include "kepoch/epoch/follower_append.hpp"

namespace kepoch {

FollowerAppend first_append(const ReplicaLog& follower, std::int64_t batch_base,
                            std::int64_t batch_last) {
  const std::int64_t log_end = follower.log_end_offset;
  // UnifiedLog.append: the first batch's base offset (v2 batches carry it) below the next
  // offset the follower expects.
  if (batch_base >= log_end) return FollowerAppend::appends;
  // Partition.appendRecordsToFollowerOrFutureReplica: only an empty log may start over.
  if (log_end == follower.log_start_offset && batch_last >= log_end)
    return FollowerAppend::restarts_log;
  return FollowerAppend::fails;
}

}  // namespace kepoch
