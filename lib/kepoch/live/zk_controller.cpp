#include "kepoch/live/zk_controller.hpp"

#include <algorithm>

namespace kepoch::live::zk {
namespace {

bool contains(const std::vector<std::int32_t>& ids, std::int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// LeaderAndIsr.newLeaderAndIsr: a new state written, leader epoch + 1, recovery state kept.
void write(ZkChange& c, std::int32_t leader, std::vector<std::int32_t> isr) {
  c.after.leader = leader;
  c.after.isr = std::move(isr);
  if (c.after.leader_epoch >= 0) ++c.after.leader_epoch;
  ++c.epoch_bumps;
}

void merge(ZkChange& into, const ZkChange& step) {
  into.after = step.after;
  into.epoch_bumps += step.epoch_bumps;
  into.leader_changed = into.leader_changed || step.leader_changed;
  into.unclean = into.unclean || step.unclean;
}

// ControllerContext.partitionsWithOfflineLeader: the leader is not a live broker (none
// counts as not live).
bool leader_offline(const PartitionState& p, const std::set<std::int32_t>& live) {
  return !live.count(p.leader);
}

}  // namespace

OfflineElection offline_partition_leader_election(const std::vector<std::int32_t>& assignment,
                                                  const std::vector<std::int32_t>& isr,
                                                  const std::set<std::int32_t>& live,
                                                  bool unclean_allowed) {
  for (auto id : assignment)
    if (live.count(id) && contains(isr, id)) return {id, false};
  if (unclean_allowed)
    for (auto id : assignment)
      if (live.count(id)) return {id, true};
  return {};
}

std::int32_t controlled_shutdown_partition_leader_election(
    const std::vector<std::int32_t>& assignment, const std::vector<std::int32_t>& isr,
    const std::set<std::int32_t>& live_or_shutting_down,
    const std::set<std::int32_t>& shutting_down) {
  for (auto id : assignment)
    if (live_or_shutting_down.count(id) && contains(isr, id) && !shutting_down.count(id)) return id;
  return kNoLeader;
}

ZkChange elect_offline_partition(const PartitionState& partition,
                                 const std::set<std::int32_t>& live, bool unclean_allowed) {
  ZkChange c{partition};
  // collectUncleanLeaderElectionState: the topic config is read only for partitions without
  // a live ISR member; the others elect with allowUnclean = false.
  bool live_isr = false;
  for (auto id : partition.isr)
    live_isr = live_isr || live.count(id) > 0;
  const OfflineElection e = offline_partition_leader_election(partition.replicas, partition.isr,
                                                              live, !live_isr && unclean_allowed);
  if (e.leader == kNoLeader) return c;  // "Failed to elect leader": nothing written
  std::vector<std::int32_t> isr;
  if (contains(partition.isr, e.leader)) {
    for (auto id : partition.isr)
      if (live.count(id)) isr.push_back(id);
  } else {
    isr = {e.leader};
    c.after.recovering = true;  // newRecoveringLeaderAndIsr (isLeaderRecoverySupported)
  }
  write(c, e.leader, std::move(isr));
  c.leader_changed = true;
  c.unclean = e.unclean;
  return c;
}

ZkChange remove_replica_from_isr(const PartitionState& partition, std::int32_t replica) {
  ZkChange c{partition};
  if (!contains(partition.isr, replica)) return c;  // leaderAndIsrsWithoutReplica: unchanged
  const std::int32_t leader = replica == partition.leader ? kNoLeader : partition.leader;
  std::vector<std::int32_t> isr = partition.isr;
  if (isr.size() > 1) std::erase(isr, replica);  // the last member stays in the ISR
  write(c, leader, std::move(isr));
  return c;
}

ZkChange on_broker_failure(const PartitionState& partition, std::int32_t dead,
                           const std::set<std::int32_t>& live, bool unclean_allowed) {
  ZkChange c{partition};
  // onReplicasBecomeOffline: OfflinePartition for the partitions whose leader is gone, then
  // triggerOnlinePartitionStateChange (every offline partition, this one's leader dead or
  // none), then OfflineReplica for the dead broker's replicas.
  if (leader_offline(partition, live))
    merge(c, elect_offline_partition(c.after, live, unclean_allowed));
  if (contains(partition.replicas, dead)) merge(c, remove_replica_from_isr(c.after, dead));
  return c;
}

ZkChange controlled_shutdown(const PartitionState& partition, std::int32_t broker,
                             const std::set<std::int32_t>& live) {
  ZkChange c{partition};
  // partitionsToActOn: on the broker, more than one replica, a leader and ISR known.
  if (!contains(partition.replicas, broker) || partition.replicas.size() <= 1) return c;
  if (partition.leader == broker) {
    // leaderForControlledShutdown: live or shutting down, in the ISR, not shutting down.
    const std::int32_t leader = controlled_shutdown_partition_leader_election(
        partition.replicas, partition.isr, live, {broker});
    if (leader == kNoLeader) return c;  // it keeps leading until it is gone
    std::vector<std::int32_t> isr = partition.isr;
    std::erase(isr, broker);
    write(c, leader, std::move(isr));
    c.leader_changed = true;
    return c;
  }
  // partitionsFollowedByBroker: StopReplica, then OfflineReplica (out of the ISR).
  return remove_replica_from_isr(partition, broker);
}

ZkChange controller_failover(const PartitionState& partition, const std::set<std::int32_t>& live,
                             bool unclean_allowed) {
  ZkChange c{partition};
  // ReplicaStateMachine.startup: replicas on brokers that are not live -> OfflineReplica.
  std::vector<std::int32_t> dead;
  for (auto id : partition.replicas)
    if (!live.count(id)) dead.push_back(id);
  std::sort(dead.begin(), dead.end());
  for (auto id : dead)
    merge(c, remove_replica_from_isr(c.after, id));
  // PartitionStateMachine.startup: OfflinePartition when the leader is not live, elected.
  if (leader_offline(c.after, live))
    merge(c, elect_offline_partition(c.after, live, unclean_allowed));
  return c;
}

PartitionState alter_partition_isr(const PartitionState& partition, std::vector<std::int32_t> isr) {
  PartitionState p = partition;
  p.isr = std::move(isr);
  return p;
}

}  // namespace kepoch::live::zk
