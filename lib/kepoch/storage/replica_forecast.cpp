#include "kepoch/storage/replica_forecast.hpp"

#include <fmt/format.h>

#include <map>

namespace kepoch {

ReplicaForecast forecast_replica(const PartitionReplica& leader, const PartitionReplica& follower,
                                 TruncationMode mode) {
  const LeaderBatchLookup batches = [&leader](std::int64_t from, std::int64_t until) {
    return batches_from(leader, from, until);
  };
  return forecast_replica(answers_of(leader.as_leader, follower.loaded.cache), batches,
                          "the snapshot of " + leader.dir.string() + " did not keep", follower,
                          mode);
}

ReplicaForecast forecast_replica(const LeaderAnswers& answers,
                                 const LeaderBatchLookup& leader_batches,
                                 std::string_view leader_source, const PartitionReplica& follower,
                                 TruncationMode mode) {
  ReplicaForecast f;
  f.mode = mode;
  f.prediction = predict_truncation(answers, follower.loaded, mode);
  const std::int64_t cut = f.prediction.truncate_to;
  if (f.prediction.unanswered_epoch || cut >= follower.log_end_offset) return f;

  const BatchRange removed = batches_from(follower, cut);
  f.removed_records = removed.records;
  f.removed_bytes = removed.bytes;
  if (!removed.counts_known) {
    f.removed_known = false;
    f.unanswered.push_back(fmt::format(
        "records and bytes removed from offset {}: the snapshot of {} did not keep the batch "
        "holding it",
        cut, follower.dir.string()));
  }
  if (removed.counts_known && !removed.batches.empty()) {
    f.removed_range = {std::max(cut, removed.batches.front().base_offset),
                       follower.log_end_offset - 1};
  }
  // A removed batch is fetched again when the leader holds the very same batch (same
  // offsets, same CRC) at that offset; otherwise its records are gone from this replica.
  const BatchRange at_leader = leader_batches(cut, follower.log_end_offset);
  std::map<std::int64_t, BatchRange::Batch> held;
  for (const auto& b : at_leader.batches)
    held.emplace(b.base_offset, b);
  if (!removed.batches_complete || !at_leader.batches_complete) {
    f.lost_known = false;
    f.unanswered.push_back(fmt::format(
        "which removed records are lost: {} every batch from offset {} to {}",
        removed.batches_complete ? std::string(leader_source)
                                 : "the snapshot of " + follower.dir.string() + " did not keep",
        cut, follower.log_end_offset));
    return f;
  }
  const std::int64_t committed_below = follower.loaded.high_watermark;
  for (const auto& b : removed.batches) {
    const auto it = held.find(b.base_offset);
    const bool same =
        it != held.end() && it->second.last_offset == b.last_offset && it->second.crc == b.crc;
    if (same) continue;
    f.lost_records += static_cast<std::uint64_t>(b.records);
    if (!f.first_lost_offset) f.first_lost_offset = b.base_offset;
    if (b.base_offset < committed_below) {
      // Records of the batch below the high watermark were acknowledged to acks=all
      // producers and may have been consumed.
      const std::int64_t below = std::min(b.last_offset + 1, committed_below) - b.base_offset;
      f.committed_lost_records +=
          static_cast<std::uint64_t>(std::min<std::int64_t>(below, b.records));
    }
  }
  return f;
}

}  // namespace kepoch
