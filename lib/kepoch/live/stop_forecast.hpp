#pragma once
// What the controller does to each partition when brokers stop, from a live cluster as
// kepoch read it (`kepoch cluster what-if --stop`). Pure values, no I/O. The controller is
// the one the cluster runs (controller_mode): the KRaft controller's rules are below; a
// ZooKeeper-mode cluster's controller runs zk_controller's (forecast_partition_zk).
//
// A stopped broker reaches the controller by one of two paths (Kafka 4.1,
// metadata/.../controller/ReplicationControlManager.java):
//   controlled  kafka-server-stop / SIGTERM: the broker's heartbeat asks to shut down;
//               processBrokerHeartbeat runs handleBrokerInControlledShutdown (the broker is
//               no longer active, leaves every ISR, its partitions elect new leaders), then,
//               once it leads nothing and the metadata caught up (SHUTDOWN_NOW),
//               handleBrokerFenced.
//   kill        a crash or SIGKILL: no heartbeat any more; after broker.session.timeout.ms
//               (9 s by default) maybeFenceOneStaleBroker runs handleBrokerFenced. Until
//               then the partitions it leads keep a leader that does not answer.
// All three call generateLeaderAndIsrUpdates(brokerToRemove = the broker) over
// brokersToIsrs.partitionsWithBrokerInIsr(broker), so the leaders, ISR and ELR after the stop
// are the same either way (epoch/election.hpp, fence_broker). The paths part when the
// broker comes back: a broker that did not shut down cleanly registers with a stale
// previous broker epoch and, with ELR on, handleBrokerShutdown(isCleanShutdown=false)
// removes it from every ISR and ELR before it is unfenced (its ELR membership is lost).
//
// Brokers stop one after another in the order given, each fully handled before the next.
// Assumed: the alive brokers are the ones the view lists (registered, unfenced), no
// reassignment is in progress, every replica's log dir is online, and the controller's
// effective min.insync.replicas is the topic's (DescribeConfigs) capped at the replication
// factor (ReplicationControlManager.getTopicEffectiveMinIsr).

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kepoch/epoch/election.hpp"
#include "kepoch/live/cluster_view.hpp"
#include "kepoch/live/controller_mode.hpp"

namespace kepoch::live {

enum class ShutdownKind { controlled, kill };

std::string_view shutdown_kind_name(ShutdownKind kind);  // "controlled", "kill"

// Whether the controller keeps eligible leader replicas (KIP-966): FeatureControlManager.
// isElrFeatureEnabled, eligible.leader.replicas.version >= 1. From the finalized features
// of ApiVersions when the broker reports them; otherwise guessed from the partitions (an
// ELR or last known ELR that is not empty means on), and said so in `basis`.
struct ElrSetting {
  bool enabled = false;
  std::string basis;  // one sentence: where `enabled` comes from
};

ElrSetting elr_setting(const ClusterView& view);

// The topic settings the forecast judged by.
struct TopicSettings {
  std::string topic;
  int replication_factor = 0;
  std::optional<int> min_insync_replicas;       // as read; nullopt: not read (1 assumed)
  int effective_min_isr = 1;                    // min(min.insync.replicas, replication factor)
  std::optional<bool> unclean_leader_election;  // as read; nullopt: not read (false assumed)
};

struct PartitionForecast {
  std::string topic;
  std::int32_t partition = 0;
  PartitionState before;  // as the view has it (ELR fields empty when not reported)
  PartitionState after;
  // PartitionChangeRecords with a new leader, each a leader epoch bump.
  int leader_changes = 0;
  int effective_min_isr = 1;  // Partition.effectiveMinIsr: capped at this partition's replicas
  // A leader whose ISR is below the effective min ISR: acks=all producers get
  // NOT_ENOUGH_REPLICAS (Partition.appendRecordsToLeader).
  bool under_min_isr = false;
  // Not ruled out: min.insync.replicas was not read (DescribeConfigs did not answer) and the
  // ISR after is below the replicas, so some value of it puts the partition under min ISR
  // (under_min_isr is judged with 1 then, which only an empty ISR is below); or the ISR after
  // meets min ISR only by counting brokers the view does not list as alive, which the
  // controller removes from it once it fences them.
  bool under_min_isr_unknown = false;
  bool unavailable = false;  // no leader after the stops
  // Kafka elects a leader from outside the ISR and ELR while stopping
  // (unclean.leader.election.enable): records acknowledged by the old ISR may be lost.
  bool unclean_election = false;
  // Without a leader, and only an unclean election could give it one now (a replica is
  // alive but in neither the ISR nor the ELR); false when no replica is alive at all.
  bool needs_unclean_election = false;
  // kill with ELR on: the stopped brokers in the ELR after, which leave it when they
  // register again (handleBrokerShutdown, unclean).
  std::vector<std::int32_t> leaves_elr_on_return;
};

struct StopForecast {
  ShutdownKind kind = ShutdownKind::controlled;
  ControllerMode controller;  // which controller's rules were applied (ZooKeeper or KRaft)
  // ZooKeeper mode: the controller broker is among the stopped ones (another broker takes
  // over and runs onControllerFailover); the brokers stopped after it are assumed not to be
  // the new controller, which kepoch cannot know.
  bool controller_stopped = false;
  std::vector<std::int32_t> stopped;       // in order
  std::vector<std::int32_t> alive_before;  // the brokers the view lists
  std::vector<std::int32_t> alive_after;
  ElrSetting elr;
  std::vector<TopicSettings> topics;
  std::vector<PartitionForecast> partitions;  // every partition of the view's topics
};

struct StopCounts {
  int topics = 0, partitions = 0;
  int leaders_moved = 0;  // partitions led by another broker after (their leader epoch bumps)
  int isr_changes = 0;    // partitions whose ISR changes
  int under_min_isr = 0, unavailable = 0, unclean_election = 0, needs_unclean_election = 0;
  int under_min_isr_unknown = 0;

  // What `what-if` exits 1 for: a partition that refuses acks=all writes or every write,
  // or that Kafka leads from outside the ISR (possible loss of acknowledged records), or
  // one that may refuse acks=all writes (min.insync.replicas not read): unknown is not safe.
  bool findings() const {
    return under_min_isr + under_min_isr_unknown + unavailable + unclean_election > 0;
  }
};

StopCounts count_outcomes(const StopForecast& forecast);

// The brokers of `stop` the view does not list as alive, in order (a usage error for the
// caller: kepoch can only stop what runs).
std::vector<std::int32_t> brokers_not_alive(const ClusterView& view,
                                            const std::vector<std::int32_t>& stop);

// The controller's reaction to each broker of `stop`, in order, on every partition.
StopForecast forecast_stop(const ClusterView& view, const std::vector<std::int32_t>& stop,
                           ShutdownKind kind);

// The same for one partition: `active` is the set of alive brokers before the stops.
PartitionForecast forecast_partition(const PartitionView& partition, const TopicSettings& settings,
                                     std::set<std::int32_t> active,
                                     const std::vector<std::int32_t>& stop, ShutdownKind kind,
                                     bool elr_enabled);

// The ZooKeeper-mode controller's reaction (zk_controller.hpp): `controller` is its broker
// id (-1: unknown), `active` the live brokers before the stops.
PartitionForecast forecast_partition_zk(const PartitionView& partition,
                                        const TopicSettings& settings,
                                        std::set<std::int32_t> active,
                                        const std::vector<std::int32_t>& stop, ShutdownKind kind,
                                        std::int32_t controller);

TopicSettings topic_settings(const TopicView& topic);

// The election fields of a partition as the view has them (ELR fields empty when not
// reported), for the rules of epoch/election.
PartitionState partition_state(const PartitionView& partition);

}  // namespace kepoch::live
