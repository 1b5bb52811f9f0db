#include "kepoch/live/cluster_events.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace kepoch::live {
namespace {

using Ids = std::vector<std::int32_t>;

Ids sorted(Ids ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Ids in a but not in b, in a's order.
Ids missing_from(const Ids& a, const Ids& b) {
  Ids out;
  for (auto id : a)
    if (std::find(b.begin(), b.end(), id) == b.end()) out.push_back(id);
  return out;
}

ClusterEvent broker_event(EventKind kind, std::int32_t broker) {
  ClusterEvent e;
  e.kind = kind;
  e.broker = broker;
  return e;
}

ClusterEvent topic_event(EventKind kind, const std::string& topic) {
  ClusterEvent e;
  e.kind = kind;
  e.topic = topic;
  return e;
}

ClusterEvent partition_event(EventKind kind, const PartitionView& before,
                             const PartitionView& after) {
  ClusterEvent e;
  e.kind = kind;
  e.topic = after.topic;
  e.partition = after.partition;
  e.old_leader = before.leader;
  e.new_leader = after.leader;
  e.old_epoch = before.leader_epoch;
  e.new_epoch = after.leader_epoch;
  return e;
}

ClusterEvent set_event(EventKind kind, const PartitionView& before, const PartitionView& after,
                       Ids old_ids, Ids new_ids, Ids changed) {
  ClusterEvent e = partition_event(kind, before, after);
  e.before = std::move(old_ids);
  e.after = std::move(new_ids);
  e.changed = std::move(changed);
  return e;
}

// A new leader from outside the ISR (and ELR) the partition had: what the controller's
// unclean election does (KRaft: PartitionChangeBuilder's UNCLEAN branch; ZooKeeper mode:
// offlinePartitionLeaderElection with unclean.leader.election.enable), both from the ISR a
// leaderless partition keeps (its last member, ELR off) or its ELR.
ClusterEvent new_leader_event(EventKind kind, const PartitionView& b, const PartitionView& a) {
  ClusterEvent e = partition_event(kind, b, a);
  const Ids elr = b.elr.value_or(Ids{});
  e.last_isr = b.isr;
  const auto in = [&](const Ids& ids) {
    return std::find(ids.begin(), ids.end(), a.leader) != ids.end();
  };
  e.unclean_election = !(b.isr.empty() && elr.empty()) && !in(b.isr) && !in(elr);
  return e;
}

void leader_events(const PartitionView& b, const PartitionView& a, std::vector<ClusterEvent>& out) {
  if (b.has_leader() && !a.has_leader())
    out.push_back(partition_event(EventKind::partition_offline, b, a));
  else if (!b.has_leader() && a.has_leader())
    out.push_back(new_leader_event(EventKind::partition_online, b, a));
  else if (b.leader != a.leader)
    out.push_back(new_leader_event(EventKind::leader_change, b, a));
  else if (b.leader_epoch != a.leader_epoch && b.leader_epoch >= 0 && a.leader_epoch >= 0)
    out.push_back(partition_event(EventKind::leader_epoch_change, b, a));
}

void isr_events(const PartitionView& b, const PartitionView& a, std::vector<ClusterEvent>& out) {
  Ids removed = missing_from(b.isr, a.isr);
  Ids added = missing_from(a.isr, b.isr);
  if (!removed.empty())
    out.push_back(set_event(EventKind::isr_shrink, b, a, b.isr, a.isr, removed));
  if (!added.empty()) out.push_back(set_event(EventKind::isr_expand, b, a, b.isr, a.isr, added));
}

void partition_events(const PartitionView& b, const PartitionView& a,
                      std::vector<ClusterEvent>& out) {
  leader_events(b, a, out);
  isr_events(b, a, out);
  // ELR order carries no meaning (the controller keeps it sorted by its own rules).
  if (b.elr && a.elr && sorted(*b.elr) != sorted(*a.elr))
    out.push_back(set_event(EventKind::elr_change, b, a, *b.elr, *a.elr, {}));
  // Replica order does matter: the first replica is the preferred leader.
  if (b.replicas != a.replicas)
    out.push_back(set_event(EventKind::replicas_change, b, a, b.replicas, a.replicas, {}));
}

void broker_events(const ClusterView& before, const ClusterView& after,
                   std::vector<ClusterEvent>& out) {
  auto old_ids = before.live_broker_ids();
  auto new_ids = after.live_broker_ids();
  for (auto id : old_ids)
    if (!new_ids.contains(id)) out.push_back(broker_event(EventKind::broker_gone, id));
  for (auto id : new_ids)
    if (!old_ids.contains(id)) out.push_back(broker_event(EventKind::broker_back, id));
}

void topic_events(const ClusterView& before, const ClusterView& after,
                  std::vector<ClusterEvent>& out) {
  std::map<std::string, bool> names;  // name -> present before
  for (const auto& t : before.topics)
    names[t.name] = true;
  for (const auto& t : after.topics)
    if (!names.contains(t.name)) out.push_back(topic_event(EventKind::topic_created, t.name));
  for (const auto& t : before.topics)
    if (after.find_topic(t.name) == nullptr)
      out.push_back(topic_event(EventKind::topic_deleted, t.name));
}

}  // namespace

std::string_view event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::broker_gone:
      return "broker_gone";
    case EventKind::broker_back:
      return "broker_back";
    case EventKind::topic_created:
      return "topic_created";
    case EventKind::topic_deleted:
      return "topic_deleted";
    case EventKind::partition_offline:
      return "partition_offline";
    case EventKind::partition_online:
      return "partition_online";
    case EventKind::leader_change:
      return "leader_change";
    case EventKind::leader_epoch_change:
      return "leader_epoch_change";
    case EventKind::isr_shrink:
      return "isr_shrink";
    case EventKind::isr_expand:
      return "isr_expand";
    case EventKind::elr_change:
      return "elr_change";
    case EventKind::replicas_change:
      break;
  }
  return "replicas_change";
}

std::vector<ClusterEvent> events_between(const ClusterView& before, const ClusterView& after) {
  std::vector<ClusterEvent> out;
  broker_events(before, after, out);
  topic_events(before, after, out);
  auto old_index = partitions_by_key(before);
  for (const auto& [key, now] : partitions_by_key(after)) {
    auto it = old_index.find(key);
    // A new topic's or new partition's first state is not a change of it.
    if (it != old_index.end()) partition_events(*it->second, *now, out);
  }
  return out;
}

}  // namespace kepoch::live
