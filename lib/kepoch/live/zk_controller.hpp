#pragma once
// What the ZooKeeper-mode controller (Kafka 3.9 and older: a broker elected through the
// /controller znode) does to one partition's leader, ISR and leader epoch when brokers stop,
// as Kafka 3.9's core/src/main/scala/kafka/controller code does it. Pure values, no I/O.
//
// Unlike the KRaft controller, it bumps the leader epoch on every write of the partition
// state it makes (LeaderAndIsr.newLeaderAndIsr: leaderEpoch + 1), even when the leader
// stays:
//   - a replica it takes out of the ISR (ZkReplicaStateMachine.doRemoveReplicasFromIsr, the
//     OfflineReplica transition): leader kept (none when it was that replica), ISR without
//     it unless it was the last member (then the ISR keeps it), epoch + 1;
//   - each leader it elects (Election.leaderForOffline, leaderForControlledShutdown), epoch
//     + 1.
// An ISR change the leader asks for (AlterPartition: shrink after replica.lag.time.max.ms,
// expansion when a follower catches up) keeps the epoch (alter_partition_isr).
//
// A broker stops by one of two paths:
//   controlled  KafkaController.doControlledShutdown (the broker's ControlledShutdown
//               request): partitions with more than one replica that it leads elect another
//               ISR member (ControlledShutdownPartitionLeaderElectionStrategy; none: it keeps
//               leading, and the broker retries, then stops anyway), those it follows take it
//               out of the ISR (OfflineReplica); then, once it is gone from ZooKeeper,
//               onBrokerFailure.
//   failure     a crash, kill -9, or the end of a controlled shutdown: its ZooKeeper session
//               ends (after zookeeper.session.timeout.ms for a crash) and
//               KafkaController.onBrokerFailure -> onReplicasBecomeOffline runs: partitions
//               whose leader is no longer live are elected (OfflinePartitionLeaderElection-
//               Strategy, unclean when no ISR member is live and the topic allows it), then
//               its replicas go OfflineReplica (out of every ISR).
// When the stopped broker is the controller itself, another broker becomes controller and
// runs onControllerFailover instead: ReplicaStateMachine.startup first (every replica on a
// broker that is not live goes OfflineReplica), then PartitionStateMachine.startup (every
// partition whose leader is not live is elected): the other order, so a partition the dead
// controller led with other ISR members gets two epoch bumps, and a leaderless partition
// whose last ISR member is any dead broker gets one more.
// Assumed: inter.broker.protocol.version >= 3.2 (leader recovery state: an unclean leader
// marks the partition RECOVERING), no reassignment or topic deletion in progress, every log
// dir online.

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "kepoch/epoch/election.hpp"

namespace kepoch::live::zk {

// PartitionLeaderElectionAlgorithms.offlinePartitionLeaderElection: the first replica of
// the assignment that is live and in the ISR, else (unclean allowed) the first live one.
struct OfflineElection {
  std::int32_t leader = kNoLeader;
  bool unclean = false;  // chosen from outside the ISR
};
OfflineElection offline_partition_leader_election(const std::vector<std::int32_t>& assignment,
                                                  const std::vector<std::int32_t>& isr,
                                                  const std::set<std::int32_t>& live,
                                                  bool unclean_allowed);

// PartitionLeaderElectionAlgorithms.controlledShutdownPartitionLeaderElection.
std::int32_t controlled_shutdown_partition_leader_election(
    const std::vector<std::int32_t>& assignment, const std::vector<std::int32_t>& isr,
    const std::set<std::int32_t>& live_or_shutting_down,
    const std::set<std::int32_t>& shutting_down);

// One step of the controller on one partition: the state after, and what it wrote.
struct ZkChange {
  PartitionState after;
  int epoch_bumps = 0;          // partition state writes (each a leader epoch + 1)
  bool leader_changed = false;  // a new leader was elected (not: the leader was taken away)
  bool unclean = false;         // the new leader came from outside the ISR
};

// Election.leaderForOffline as PartitionStateMachine runs it for an OfflinePartition (its
// leader is not live): the election result, or no change when nobody can lead. The topic's
// unclean.leader.election.enable counts only when no ISR member is live
// (collectUncleanLeaderElectionState).
ZkChange elect_offline_partition(const PartitionState& partition,
                                 const std::set<std::int32_t>& live, bool unclean_allowed);

// ZkReplicaStateMachine.doRemoveReplicasFromIsr for one replica: no change when it is not in
// the ISR.
ZkChange remove_replica_from_isr(const PartitionState& partition, std::int32_t replica);

// KafkaController.onBrokerFailure(dead) for one partition; `live` no longer has `dead`.
ZkChange on_broker_failure(const PartitionState& partition, std::int32_t dead,
                           const std::set<std::int32_t>& live, bool unclean_allowed);

// KafkaController.doControlledShutdown(broker) for one partition, while `broker` is still
// live (it is in `live`).
ZkChange controlled_shutdown(const PartitionState& partition, std::int32_t broker,
                             const std::set<std::int32_t>& live);

// KafkaController.onControllerFailover for one partition, by a new controller that sees
// `live` (ReplicaStateMachine.startup, then PartitionStateMachine.startup). Replicas on
// dead brokers leave the ISR in ascending broker id.
ZkChange controller_failover(const PartitionState& partition, const std::set<std::int32_t>& live,
                             bool unclean_allowed);

// KafkaController.processAlterPartition: the ISR the leader asked for, at the same leader
// epoch (only the partition epoch, ZooKeeper's znode version, moves).
PartitionState alter_partition_isr(const PartitionState& partition, std::vector<std::int32_t> isr);

}  // namespace kepoch::live::zk
