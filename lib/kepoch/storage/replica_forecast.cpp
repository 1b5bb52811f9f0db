#include "kepoch/storage/replica_forecast.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
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
                                 TruncationMode mode,
                                 std::optional<std::int64_t> committed_below_override) {
  ReplicaForecast f;
  f.mode = mode;
  f.prediction = predict_truncation(answers, follower.loaded, mode);
  if (f.prediction.unanswered_epoch) {
    // The exchange stopped before its end: where the follower truncates is not known, so
    // nothing it holds below its high watermark is safe.
    f.removed_known = f.lost_counted = f.lost_known = false;
    f.committed_loss_unknown = committed_below_override.value_or(follower.loaded.high_watermark) >
                               follower.loaded.log_start_offset;
    f.unanswered.push_back(f.prediction.note);
    return f;
  }
  // UnifiedLog.truncateFullyAndStartAt deletes every segment: the whole log goes, although
  // the new log end (the leader's log start) lies past the old one.
  const std::int64_t cut = f.prediction.truncated_fully
                               ? std::min(follower.loaded.log_start_offset, follower.log_end_offset)
                               : f.prediction.truncate_to;
  if (cut >= follower.log_end_offset) return f;

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
  const std::int64_t committed_below =
      committed_below_override.value_or(follower.loaded.high_watermark);
  if (!removed.batches_complete) {
    f.lost_counted = f.lost_known = false;
    f.lost_unknown_range = std::pair{cut, follower.log_end_offset - 1};
    f.committed_loss_unknown = cut < committed_below;
    f.unanswered.push_back(
        fmt::format("which removed records are lost: the snapshot of {} did not keep every "
                    "batch from offset {} to {}",
                    follower.dir.string(), cut, follower.log_end_offset));
    return f;
  }

  // Where the leader can hold a removed batch: from its log start to its log end. At or past
  // its log end offset (the next offset it assigns; the end offset of its own epoch,
  // UnifiedLog.endOffsetForEpoch) the leader holds no record, so a removed batch reaching
  // there is lost without asking. An undefined answer (-1: a leader whose cache has no
  // epoch) says nothing about its end.
  const std::int64_t leader_end = answers.log_end_offset >= 0
                                      ? answers.log_end_offset
                                      : std::numeric_limits<std::int64_t>::max();
  const std::int64_t leader_start = answers.log_start_offset;
  const auto may_be_held = [&](const BatchRange::Batch& b) {
    return b.last_offset < leader_end && b.last_offset >= leader_start;
  };
  const std::int64_t from = std::max(cut, leader_start);
  const std::int64_t until = std::min(follower.log_end_offset, leader_end);
  BatchRange at_leader;
  std::int64_t read_until = from;  // the leader's batches ending below this were all read
  if (from < until && std::any_of(removed.batches.begin(), removed.batches.end(), may_be_held)) {
    at_leader = leader_batches(from, until);
    read_until = at_leader.batches_complete ? until : at_leader.complete_until;
  }
  std::map<std::int64_t, BatchRange::Batch> held;
  for (const auto& b : at_leader.batches)
    held.emplace(b.base_offset, b);

  // Records of a batch below the high watermark were acknowledged to acks=all producers and
  // may have been consumed.
  const auto committed_part = [&](const BatchRange::Batch& b) -> std::uint64_t {
    if (b.base_offset >= committed_below) return 0;
    const std::int64_t below = std::min(b.last_offset + 1, committed_below) - b.base_offset;
    return static_cast<std::uint64_t>(std::min<std::int64_t>(below, b.records));
  };
  std::uint64_t committed_unknown = 0;
  for (const auto& b : removed.batches) {
    const auto records = static_cast<std::uint64_t>(b.records);
    if (b.last_offset < leader_start) {
      f.below_leader_start_records += records;
      continue;
    }
    if (may_be_held(b) && b.last_offset >= read_until) {
      f.lost_unknown_records += records;
      committed_unknown += committed_part(b);
      const std::int64_t first = std::max(cut, b.base_offset);
      f.lost_unknown_range =
          std::pair{f.lost_unknown_range ? f.lost_unknown_range->first : first, b.last_offset};
      continue;
    }
    if (may_be_held(b)) {
      const auto it = held.find(b.base_offset);
      if (it != held.end() && it->second.last_offset == b.last_offset && it->second.crc == b.crc)
        continue;  // fetched again
    }
    f.lost_records += records;
    if (!f.first_lost_offset) f.first_lost_offset = std::max(cut, b.base_offset);
    f.committed_lost_records += committed_part(b);
  }
  if (f.lost_unknown_records > 0) {
    f.lost_known = false;
    f.committed_loss_unknown = committed_unknown > 0;
    f.unanswered.push_back(fmt::format(
        "which removed records at offsets {} to {} are lost ({} record(s), {} below the high "
        "watermark): {} every batch from offset {} to {}",
        f.lost_unknown_range->first, f.lost_unknown_range->second, f.lost_unknown_records,
        committed_unknown, leader_source, read_until, until));
  }
  return f;
}

}  // namespace kepoch
