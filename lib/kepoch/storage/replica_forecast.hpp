#pragma once
// What happens to a follower replica when it fetches from a leader replica: the truncation
// Kafka performs (epoch/truncation.hpp) applied to real replica directories, and what that
// truncation costs: records and bytes removed, which of them are lost (the leader does not
// hold the same batch at that offset), and whether any was committed (below the high
// watermark that follower had recorded).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/epoch/truncation.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

struct ReplicaForecast {
  TruncationMode mode = TruncationMode::fetch;
  TruncationPrediction prediction;
  std::uint64_t removed_records = 0;
  std::uint64_t removed_bytes = 0;
  std::optional<std::pair<std::int64_t, std::int64_t>> removed_range;  // [first, last]
  std::uint64_t lost_records = 0;            // removed and not held identically by the leader
  std::uint64_t committed_lost_records = 0;  // of those, below the follower's high watermark
  std::optional<std::int64_t> first_lost_offset;
  // False when a replica read from a snapshot did not keep the batches needed: the removed
  // counts (the batch holding the truncation offset), or the lost ones (every batch from
  // there on, the follower's and the leader's). `unanswered` says which, in sentences.
  bool removed_known = true;
  bool lost_known = true;
  std::vector<std::string> unanswered;
  bool committed_loss() const { return lost_known && committed_lost_records > 0; }
};

// The leader's batches from offset `from` up to `until` (BatchRange's meaning), for telling
// which removed batches the follower fetches again. Offline they are read from the leader
// replica's segments; live, fetched from the leader broker.
using LeaderBatchLookup = std::function<BatchRange(std::int64_t from, std::int64_t until)>;

// The truncation against the leader's answers, what it removes, and, asking `leader_batches`
// only when something is removed, which removed records are lost. `leader_source` says how
// the leader's batches fell short when they did ("the snapshot of X did not keep").
ReplicaForecast forecast_replica(const LeaderAnswers& answers,
                                 const LeaderBatchLookup& leader_batches,
                                 std::string_view leader_source, const PartitionReplica& follower,
                                 TruncationMode mode);

// Against a leader replica read from disk (or a snapshot): its answers and its batches.
ReplicaForecast forecast_replica(const PartitionReplica& leader, const PartitionReplica& follower,
                                 TruncationMode mode);

}  // namespace kepoch
