#pragma once
// Who leads a partition: the KRaft controller's leader election, as Kafka's
// PartitionChangeBuilder runs it (metadata/.../controller/PartitionChangeBuilder.java,
// electLeader / electPreferredLeader / electAnyLeader / isValidNewLeader /
// canElectLastKnownLeader, with maybePopulateTargetElr before and the ISR/ELR updates
// after), and how the controller's broker fencing and unfencing feed it
// (ReplicationControlManager.generateLeaderAndIsrUpdates). Pure values, no I/O.
//
// Election types (PartitionChangeBuilder.Election):
//   preferred  the first replica of the assignment if it is a valid leader
//   online     keep the current leader if valid, else the first valid replica in assignment
//              order (a valid leader is in the ISR, or in the ELR when the ISR is empty,
//              and acceptable: an active broker)
//   unclean    as online, then any acceptable replica (unclean.leader.election.enable)
//
// Assumes metadata version >= 3.6 (no leader-epoch bump on ISR shrink, KAFKA-15021) and no
// reassignment in progress.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace kepoch {

inline constexpr std::int32_t kNoLeader = -1;
inline constexpr std::int32_t kNoLeaderChange = -2;  // PartitionChangeRecord default

enum class ElectionType { preferred, online, unclean };

// The election fields of a PartitionRegistration.
struct PartitionState {
  std::vector<std::int32_t> replicas;  // assignment order; the first is preferred
  std::vector<std::int32_t> isr;
  std::vector<std::int32_t> elr;             // eligible leader replicas (KIP-966)
  std::vector<std::int32_t> last_known_elr;  // holds the last known leader when leaderless
  std::int32_t leader = kNoLeader;
  std::int32_t leader_epoch = 0;
  bool recovering = false;  // LeaderRecoveryState.RECOVERING after an unclean election
};

// The inputs PartitionChangeBuilder gets besides the partition itself.
struct PartitionChangeRequest {
  std::vector<std::int32_t> target_isr;
  std::set<std::int32_t> acceptable;  // brokers that may lead: active, with an online dir
  ElectionType election = ElectionType::online;
  bool elr_enabled = false;  // eligible.leader.replicas.version >= 1
  std::int32_t min_isr = 1;  // the topic's effective min.insync.replicas
  std::vector<std::int32_t> unclean_shutdown_replicas;
};

struct ElectionResult {
  std::int32_t node = kNoLeader;
  bool unclean = false;
  // Which branch of electLeader chose it: "current_leader", "preferred_replica",
  // "first_valid_replica", "last_known_leader", "unclean_first_acceptable", "none".
  std::string branch = "none";
};

struct PartitionChange {
  ElectionResult election;
  bool leader_changed = false;  // a PartitionChangeRecord with a new leader: the epoch bumps
  PartitionState after;
};

// electLeader on the targets (the ISR and ELR after maybePopulateTargetElr).
ElectionResult elect_leader(const PartitionState& partition,
                            const std::vector<std::int32_t>& target_isr,
                            const std::vector<std::int32_t>& target_elr,
                            const PartitionChangeRequest& request);

// PartitionChangeBuilder.build() restricted to leader, ISR, ELR, last known ELR, leader
// epoch and recovery state.
PartitionChange change_partition(const PartitionState& partition,
                                 const PartitionChangeRequest& request);

// The controller's reaction to one broker becoming fenced (it stopped heartbeating, or was
// killed), or unfenced (it came back and caught up with the metadata): the broker leaves or
// rejoins the acceptable set, the fenced one leaves the target ISR, and an election runs
// (unclean when the topic allows it). `active` is the set of active brokers before the
// event.
PartitionChange fence_broker(const PartitionState& partition, std::int32_t broker,
                             std::set<std::int32_t> active, bool unclean_allowed, bool elr_enabled,
                             std::int32_t min_isr);
PartitionChange unfence_broker(const PartitionState& partition, std::int32_t broker,
                               std::set<std::int32_t> active, bool unclean_allowed,
                               bool elr_enabled, std::int32_t min_isr);

// handleBrokerUncleanShutdown (ELR on): a broker that registers again after a crash (no
// clean shutdown) leaves the ISR and the ELR of its partitions before it is unfenced.
PartitionChange unclean_shutdown_broker(const PartitionState& partition, std::int32_t broker,
                                        std::set<std::int32_t> active, bool unclean_allowed,
                                        bool elr_enabled, std::int32_t min_isr);

}  // namespace kepoch
