#pragma once
// What changed between two looks at a cluster (`kepoch cluster watch`): brokers gone or
// back, topics created or deleted, and per partition the leader, its epoch, the ISR, the ELR
// and the replica set. Events come in a stable order: brokers, then topics, then partitions
// by topic and index, each partition's events in the order of the enum below.

#include <string>
#include <string_view>
#include <vector>

#include "kepoch/live/cluster_view.hpp"

namespace kepoch::live {

enum class EventKind {
  broker_gone,
  broker_back,
  topic_created,
  topic_deleted,
  partition_offline,    // had a leader, now none
  partition_online,     // had none, now a leader
  leader_change,        // one leader to another
  leader_epoch_change,  // same leader, new epoch (e.g. an unclean recovery or reassignment)
  isr_shrink,
  isr_expand,
  elr_change,
  replicas_change,
};

std::string_view event_kind_name(EventKind kind);

struct ClusterEvent {
  EventKind kind = EventKind::leader_change;
  std::string topic;            // empty for broker events
  std::int32_t partition = -1;  // -1 unless a partition event
  std::int32_t broker = -1;     // broker events
  std::int32_t old_leader = kNoLeader;
  std::int32_t new_leader = kNoLeader;
  std::int32_t old_epoch = -1;
  std::int32_t new_epoch = -1;
  std::vector<std::int32_t> before;   // ISR, ELR or replicas before (their events)
  std::vector<std::int32_t> after;    // ... and after
  std::vector<std::int32_t> changed;  // removed (shrink) or added (expand) ids
  // partition_online, leader_change: the new leader was in neither the ISR nor the ELR of
  // the look before (an unclean election: records acknowledged by them may be lost). False
  // when that look had no ISR or ELR member to judge by.
  bool unclean_election = false;
  std::vector<std::int32_t> last_isr;  // ... the ISR it was judged by (the look before)
};

std::vector<ClusterEvent> events_between(const ClusterView& before, const ClusterView& after);

}  // namespace kepoch::live
