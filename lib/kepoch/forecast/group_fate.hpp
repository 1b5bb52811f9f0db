#pragma once
// Each consumer group's fate on a partition whose replicas `predict` forecasts: the new
// leader's log as consumers meet it, the log they consumed from, and, per group that
// committed an offset there, what its next fetch does under each auto.offset.reset
// (forecast/consumer_fate, the clients' rules).
//
//   - the new leader: the predicted leader's replica as it answers (its as_leader cache: with
//     --elect, its new epoch at its log end); without an election, a leader whose latest
//     epoch is not above every replica's is given the next epoch at its log end, as any
//     leader change does (Partition.makeLeader), since consumers meet it as a new leader;
//   - the log consumers read before: the follower whose truncation (predict's main mode)
//     removes the most offsets, the old leader that took records no other replica has; it
//     diverges from the new leader at its truncate_to. When no follower loses anything, the
//     leader's own log (nothing diverged);
//   - the groups: the committed offsets read from __consumer_offsets (storage/
//     committed_offsets) for this topic and partition; a commit whose transaction has no
//     marker yet leaves the group's offset unknown.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/forecast/consumer_fate.hpp"
#include "kepoch/forecast/election_forecast.hpp"
#include "kepoch/storage/committed_offsets.hpp"

namespace kepoch::forecast {

struct GroupOutcome {
  OffsetResetPolicy policy;
  ConsumerFate fate;
};

struct GroupFate {
  std::string group;
  std::optional<CommittedOffset> committed;  // nullopt: unknown (a pending transaction)
  std::vector<GroupOutcome> outcomes;        // one per policy asked for; empty when unknown
  // Why the committed offset is unknown; empty: a transactional commit awaits its marker.
  std::string unknown_reason;
};

struct PartitionGroupFates {
  std::string topic;
  std::int32_t partition = 0;
  ConsumerLeaderView leader;
  std::int32_t leader_epoch = 0;  // the epoch consumers meet the new leader at
  ConsumedLog consumed;
  // false: the log consumers read before is not given (live, the old leader's); `consumed`
  // and `previous_leader` then mean nothing, and each fate says what it cannot know.
  bool consumed_known = true;
  std::string previous_leader;  // the replica consumers read before (its dir)
  bool previous_is_leader = false;
  ConsumerClient client = ConsumerClient::java;
  std::vector<GroupFate> groups;
};

// One follower of the new leader and where the forecast truncates it.
struct FateFollower {
  const PartitionReplica* replica = nullptr;
  std::int64_t truncate_to = 0;
};

// The leader view both group fates start from (the offline one, group_fates_of, and the live
// one, elected_group_fates): `view`, the new leader's log, as Partition.makeLeader leaves it:
// `epoch` started at its log end (LeaderEpochFileCache.assign) unless its cache already
// reaches that epoch. Sets out.leader (cache, log start and end; latest_offset, what
// ListOffsets LATEST answers, its log end: alone in the ISR, its high watermark is its log end,
// Partition.maybeIncrementLeaderHW) and out.leader_epoch (the latest epoch of the view).
void set_leader_view(PartitionGroupFates& out, ReplicaLog view, std::int32_t epoch);

// The fates with `leader` leading (its as_leader log: with an election's new epoch already
// added, or given the next one here) and `followers` truncating as forecast: what `plan`
// asks for its chosen candidate.
PartitionGroupFates group_fates_of(const PartitionReplica& leader,
                                   const std::vector<FateFollower>& followers,
                                   const CommittedOffsets& offsets,
                                   const std::vector<OffsetResetPolicy>& policies,
                                   ConsumerClient client = ConsumerClient::java);

// `predict`'s: its leader and its followers' main-mode truncations.
PartitionGroupFates group_fates(const PartitionPrediction& prediction,
                                const CommittedOffsets& offsets,
                                const std::vector<OffsetResetPolicy>& policies,
                                ConsumerClient client = ConsumerClient::java);

}  // namespace kepoch::forecast
