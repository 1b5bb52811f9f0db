#pragma once
// The controller's partition states a plan starts from, from one of three sources: a live
// cluster's answer (Metadata, DescribeTopicPartitions, DescribeConfigs), the KRaft metadata
// log (logged_metadata.hpp), or one partition described with flags. Each gives the
// partitions as PlanPartitionInput (recovery_plan.hpp, without their replicas: plan_outage
// joins those), the brokers up and unfenced, and notes of where the topic configs came from
// (config_note.hpp).

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/forecast/broker_state.hpp"
#include "kepoch/forecast/logged_metadata.hpp"
#include "kepoch/forecast/recovery_plan.hpp"
#include "kepoch/live/cluster_view.hpp"

namespace kepoch::forecast {

// The values the flags give for what the metadata log cannot hold (a node's static config,
// else Kafka's default: config_source.hpp).
struct AssumedConfig {
  bool unclean = kDefaultUncleanLeaderElection;
  std::int32_t min_isr = kDefaultMinInsyncReplicas;
};

// A copy shares ranged `logged`'s ranges (LoggedPartitions): plan from one of them only.
struct PlanMetadata {
  std::string description;                // "live cluster (host:port)", "metadata log DIR", "flags"
  std::optional<std::string> cluster_id;  // the live cluster's; unset: not said
  std::set<std::int32_t> live;            // brokers up and unfenced
  std::vector<PlanPartitionInput> partitions;
  // The metadata log's partitions, made one at a time (take): held compactly
  // (LoggedPartitions), not as a PlanPartitionInput each, so a plan streaming them holds
  // ~64 bytes a partition. They come before `partitions`.
  LoggedPartitions logged;
  AssumedConfig assumed;  // what `logged`'s partitions take where the log sets no config
  std::vector<std::string> notes;

  // When `logged` comes in ranges (LoggedPartitions::ranged), its index i is
  // logged_base + i, and the number of partitions is known once the last range is read
  // (has): indexes are then taken in order, and the config notes, which name the topics
  // with partitions, wait for the last range (finish_notes; `partitions` is empty).
  std::size_t logged_base = 0;
  bool logged_done = false;
  std::vector<PlanPartitionInput> note_topics;  // one partition per topic, as taken
  std::function<void(PlanMetadata&)> pending_notes;

  // Not for ranged `logged` (has): every index is known.
  std::size_t size() const { return logged.size() + partitions.size(); }
  // Whether there is a partition i: for ranged `logged`, the next range is read when i is
  // past the one held (the ones before it are gone).
  bool has(std::size_t i);
  std::string_view topic(std::size_t i) const;
  std::int32_t partition(std::size_t i) const;
  // The partition i, moved out of `partitions` or made from `logged` (once each).
  PlanPartitionInput take(std::size_t i);
  // Every partition in `partitions` (a caller that holds them all).
  void materialize();
  // The notes waiting for the last range (none otherwise).
  void finish_notes();
};

// A live cluster's answer. Each topic's configs as DescribeConfigs resolved them on the
// broker that answered (config_source.hpp); ELR as `cluster what-if` decides it
// (live::elr_setting: the finalized feature, else the partitions' ELR).
PlanMetadata metadata_from_cluster(const live::ClusterView& view);

// The metadata log read from `dir`: each topic's config, else the cluster default, else
// `assumed`; ELR enabled where a partition records one; the nodes' own dynamic configs said
// in a note each (the log does not say which node decides).
PlanMetadata metadata_from_log(LoggedMetadata logged, const std::string& dir,
                               const AssumedConfig& assumed);

// One partition from flags (as `predict --elect`): the states must hold exactly one
// partition between them (UsageError otherwise). `alive` unset: every state's broker is live
// (check_one_cluster has given each one).
struct FlagsPartition {
  std::vector<std::int32_t> replicas;
  std::vector<std::int32_t> isr;
  std::vector<std::int32_t> elr;
  std::optional<std::vector<std::int32_t>> alive;
  AssumedConfig config;
};
PlanMetadata metadata_from_flags(const FlagsPartition& flags,
                                 const std::vector<BrokerState>& states);

}  // namespace kepoch::forecast
