#pragma once
// What offline `predict` forecasts (and `salvage` archives): one partition's replicas read
// from disk, a leader among them (given, or elected as the KRaft controller would), and each
// follower's truncation when it fetches from that leader.
//
//   - the election (`--elect`): PartitionChangeBuilder's (epoch/election) over the partition
//     state the operator gives, the broker ids of the replica dirs (meta.properties' node.id
//     unless given), one replica per broker;
//   - the elected leader's new epoch: above every epoch the replicas hold (the exact number
//     is the controller's; any larger one gives the same answers), added to its cache as
//     Partition.makeLeader does (epoch/truncation's become_leader);
//   - per follower and per truncation mode, the one forecast `predict` and `plan` both make
//     (storage/replica_forecast's forecast_follower), with the committed records those
//     every known replica's high watermark commits in its own lineage (committed_bound);
//   - batches kept although they differ: below the offset a follower truncates to, batches
//     that differ from the leader's stay (Kafka's truncation follows the epoch caches, and
//     where a cache disagrees with its own batches it cuts nothing there), so the replicas
//     stay diverged and a committed loss cannot be ruled out.
// Pure over loaded replicas (no files opened here but meta.properties for the broker ids).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/epoch/election.hpp"
#include "kepoch/epoch/truncation.hpp"
#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/replica_diff.hpp"
#include "kepoch/storage/replica_forecast.hpp"

namespace kepoch::forecast {

// The partition state an election runs on, as the operator gives it (kafka-topics
// --describe, the topic's configs). Empty lists take their defaults: `replicas` the broker
// ids in argument order, `alive` every argument's broker.
struct ElectionSetting {
  std::vector<std::int32_t> ids;  // broker id of each replica argument (empty: meta.properties)
  std::vector<std::int32_t> replicas;
  std::vector<std::int32_t> isr;
  std::vector<std::int32_t> elr;
  std::vector<std::int32_t> alive;
  bool unclean = false;  // unclean.leader.election.enable
  bool preferred = false;
  std::int32_t min_isr = 1;
};

struct Election {
  PartitionState before;
  PartitionChangeRequest request;
  PartitionChange change;
  std::vector<std::int32_t> ids;  // of the replica arguments, in order
  // The elected leader's new epoch (set by predict_truncations: the last partition's).
  std::int32_t new_leader_epoch = 0;
  // The argument of the elected broker's replica; nullopt when no replica can lead.
  std::optional<std::size_t> leader_argument;
  bool clean() const { return !change.election.unclean; }
};

// The broker id of each replica argument: `given` (one per argument) or each one's log dir's
// meta.properties. UsageError when the counts differ, an argument's id is not known, or two
// arguments are one broker's (a partition has one replica per broker).
std::vector<std::int32_t> argument_broker_ids(const std::vector<std::string>& arguments,
                                              const std::vector<std::int32_t>& given);

// The election over `arguments` (PartitionChangeBuilder.build: epoch/election's
// change_partition). UsageError when the elected broker has no replica among the arguments.
Election elect_among(const std::vector<std::string>& arguments, const ElectionSetting& setting);

// One follower's forecasts, one per mode asked for (the first is the main one), and its
// comparison with the leader (what the timeline draws).
struct FollowerPrediction {
  std::size_t replica = 0;  // index in PartitionPrediction::replicas
  std::vector<ReplicaForecast> forecasts;
  ReplicaComparison comparison;
};

struct PartitionPrediction {
  std::vector<PartitionReplica> replicas;  // front(): the leader's
  std::vector<FollowerPrediction> followers;
  // Where the main mode truncates each replica (nullopt for the leader), in replica order.
  std::vector<std::optional<std::int64_t>> truncate_to;
  // The main mode loses committed records, cannot rule it out, or a follower fails.
  bool committed_loss = false;
  std::int32_t new_leader_epoch = 0;  // with an election
};

// The truncations of one partition: `replicas.front()` leads (after an election, at a new
// epoch above every epoch the replicas hold), the others follow, in each of `modes`.
PartitionPrediction predict_partition(std::vector<PartitionReplica> replicas,
                                      const std::vector<TruncationMode>& modes,
                                      const Election* election);

// A follower that keeps batches which differ from the leader's below the offset it truncates
// to (the epoch caches do not tell them apart): its committed loss cannot be ruled out, and
// kept_divergent_range says which. No effect on a follower that fails or truncates fully.
void keep_divergent_batches(ReplicaForecast& forecast, const ReplicaComparison& comparison,
                            const PartitionReplica& follower);

// Every partition of `groups` (each one's replicas, the leader's first), with one election
// for all of them (run before the replicas were read, to know which argument leads); its
// new_leader_epoch is set to the last partition's.
struct TruncationPredictions {
  std::vector<PartitionPrediction> partitions;
  bool committed_loss = false;  // in any partition
};
// How the forecasts read a leader replica's batches (LeaderBatchLookup's answer for
// `leader`); unset: batches_from. Salvage reads the leader's tail once for the forecast and
// for what the leader holds (salvage.hpp, LeaderTails).
using LeaderBatchReader = std::function<BatchRange(const PartitionReplica& leader,
                                                   std::int64_t from, std::int64_t until)>;
// `tail`: RemovedTailRead::deferred leaves the followers' removed tails to a caller that
// walks them anyway (salvage; replica_forecast.hpp).
// `comparisons`: ReplicaComparisons::skipped leaves each follower's comparison with the
// leader unmade (FollowerPrediction::comparison empty, keep_divergent_batches not applied),
// for a caller that reads neither (salvage: which records are removed, and their truncation
// offset, do not depend on it). The comparison walks both replicas' batch headers from
// below the epoch fork to the shorter log's end: for a long divergent tail, a read of both
// tails.
enum class ReplicaComparisons { made, skipped };
TruncationPredictions predict_truncations(
    std::vector<std::vector<PartitionReplica>> groups, const std::vector<TruncationMode>& modes,
    Election* election, const LeaderBatchReader& leader_batches = {},
    RemovedTailRead tail = RemovedTailRead::counted,
    ReplicaComparisons comparisons = ReplicaComparisons::made);

// Whether the main mode removes records the leader does not hold (lost), or may (not known
// whether held): what `kepoch salvage` would keep.
bool loses_records(const TruncationPredictions& predictions);

}  // namespace kepoch::forecast
