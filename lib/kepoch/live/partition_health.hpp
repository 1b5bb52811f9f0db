#pragma once
// The partition states `kafka-topics --describe` filters on, with its definitions
// (org.apache.kafka.tools.TopicCommand.PartitionDescription), plus the preferred-leader
// check `kafka-leader-election --election-type PREFERRED` acts on:
//   under_replicated   ISR smaller than the replica set
//   under_min_isr      no leader, or ISR smaller than min.insync.replicas
//   at_min_isr         ISR size equals min.insync.replicas
//   unavailable        no leader, or the leader is not a live broker
//   leader_not_preferred  a leader that is not the first replica of the assignment
// TopicCommand counts a reassignment's removing replicas out of the replication factor;
// kepoch does not read reassignments, so during one under_replicated follows the full set.

#include <optional>
#include <set>

#include "kepoch/live/cluster_view.hpp"

namespace kepoch::live {

struct PartitionHealth {
  bool under_replicated = false;
  bool under_min_isr = false;
  bool at_min_isr = false;
  bool unavailable = false;
  bool leader_not_preferred = false;
};

// min_isr: the topic's min.insync.replicas, nullopt when unknown (then neither min-ISR
// flag is set except under_min_isr for a partition without a leader, as TopicCommand does).
PartitionHealth assess_partition(const PartitionView& partition, std::optional<int> min_isr,
                                 const std::set<std::int32_t>& live_brokers);

}  // namespace kepoch::live
