#pragma once
// Replaying the KRaft metadata log into each partition's history, the way the controller
// and brokers apply it (PartitionRegistration: its PartitionRecord constructor and merge):
//
//   PartitionRecord        the partition as created (or as a snapshot restates it)
//   PartitionChangeRecord  fields absent from the record keep their value; Leader other
//                          than -2 replaces the leader (possibly -1, possibly the same
//                          broker) and bumps LeaderEpoch by exactly 1; LeaderRecoveryState
//                          -1 keeps the state; every change bumps PartitionEpoch by 1
//   RemoveTopicRecord      the topic's partitions end
//
// A replay that starts from a snapshot (storage/metadata_replay.hpp) hands its records with
// the snapshot's id: the snapshot restates each partition and broker as it stood at the
// snapshot's end offset, so its PartitionRecords are steps caused "as_of_snapshot" (not
// "created": the partition may be far older) and its RegisterBrokerRecords are broker events
// "as_of_snapshot" (not registrations); MetadataLoader.handleLoadSnapshot likewise builds the
// image from the snapshot alone. A change record is only ever applied to a partition whose
// PartitionRecord (from the log or the snapshot) was read; others are orphans.
//
// Each step is told a cause where the record shows one: created, leader_change,
// leader_lost (leader -1), unclean_election (leader with LeaderRecoveryState RECOVERING),
// leader_epoch_bump (the same leader again), recovered (RECOVERING -> RECOVERED),
// isr_shrink, isr_expand, isr_change, elr_change, reassignment (replicas, adding or
// removing replicas), directories, deleted. Broker registrations and fencing are kept
// alongside (RegisterBrokerRecord, BrokerRegistrationChangeRecord, Fence/UnfenceBroker,
// UnregisterBroker).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kepoch/format/metadata_record.hpp"
#include "kepoch/format/snapshot_file_name.hpp"

namespace kepoch {

// Kafka's PartitionRegistration (the partition as brokers hold it after replaying).
struct PartitionRegistration {
  BrokerIds replicas;
  BrokerIds isr;
  BrokerIds removing_replicas;
  BrokerIds adding_replicas;
  BrokerIds eligible_leader_replicas;  // null in a record: empty, as Kafka holds it
  BrokerIds last_known_elr;
  std::vector<Uuid> directories;
  std::int32_t leader = -1;
  std::int8_t leader_recovery_state = 0;
  std::int32_t leader_epoch = -1;
  std::int32_t partition_epoch = -1;
};

// Where a record sits in the metadata log.
struct MetadataPosition {
  std::int64_t offset = -1;            // -1 for a record of a snapshot
  std::int64_t timestamp = -1;         // the record's; a snapshot's: its last contained log time
  std::optional<SnapshotId> snapshot;  // the record was read from this snapshot
};

struct PartitionStep {
  MetadataPosition at;
  std::string record_type;      // PARTITION_RECORD, PARTITION_CHANGE_RECORD, REMOVE_TOPIC_RECORD,
                                // CLEAR_ELR_RECORD
  PartitionRegistration state;  // after the record
  std::vector<std::string> causes;
};

struct PartitionTimeline {
  std::string topic;  // from the TopicRecord, or the topic id when none was seen
  Uuid topic_id;
  std::int32_t partition = -1;
  std::vector<PartitionStep> steps;
};

struct BrokerEvent {
  MetadataPosition at;
  std::int32_t broker_id = -1;
  std::int64_t broker_epoch = -1;
  // registered, unregistered, fenced, unfenced, controlled_shutdown, as_of_snapshot
  std::string event;
  std::optional<bool> fenced;  // registered and as_of_snapshot: as registered
};

struct PartitionHistoryFilter {
  std::optional<std::string> topic;
  std::optional<std::int32_t> partition;
};

// What a replay hands on, record by record (PartitionReplay::apply).
class PartitionReplayVisitor {
 public:
  virtual ~PartitionReplayVisitor() = default;
  // One step of `partition` (its topic, topic_id and partition; its steps are not kept).
  virtual void step(const PartitionTimeline& partition, const PartitionStep& step) = 0;
  virtual void broker(const BrokerEvent& event) = 0;
  // A change record for a partition no PartitionRecord created (see orphans()).
  virtual void orphan(std::string message) = 0;
};

// The replay itself, holding only what the next record needs: the topic names read so far
// and each partition's current registration (not its past), so a log of any length replays
// in memory bounded by its partition count; the steps and events go to a visitor as they
// happen (`metadata history` streams them).
class PartitionReplay {
 public:
  explicit PartitionReplay(PartitionHistoryFilter filter = {}) : filter_(std::move(filter)) {}

  // Applies one decoded record (records kepoch did not decode are ignored).
  void apply(const MetadataRecord& record, MetadataPosition at, PartitionReplayVisitor& visit);

  // Each partition a PartitionRecord created, with its registration now, in (topic id text,
  // partition) order. `f(const PartitionTimeline&, const PartitionRegistration&)`: the
  // timeline (no steps) is the one every step() of that partition was handed, at the same
  // address, so a visitor may key what it keeps of the steps by it.
  template <class F>
  void for_each_partition(F&& f) const {
    for (const auto& [key, c] : partitions_)
      if (c.state) f(c.partition, *c.state);
  }

 private:
  using Key = std::tuple<std::string, std::int32_t>;  // topic id text, partition
  struct Current {
    PartitionTimeline partition;  // topic, topic_id, partition (no steps)
    std::optional<PartitionRegistration> state;
  };
  bool wanted(const Uuid& topic_id, std::int32_t partition) const;
  void created(const PartitionRecord& r, MetadataPosition at, PartitionReplayVisitor& visit);
  void changed(const PartitionChangeRecord& r, MetadataPosition at, PartitionReplayVisitor& visit);
  void removed(const RemoveTopicRecord& r, MetadataPosition at, PartitionReplayVisitor& visit);
  void elr_cleared(const ClearElrRecord& r, MetadataPosition at, PartitionReplayVisitor& visit);
  void broker(const MetadataRecord& record, MetadataPosition at, PartitionReplayVisitor& visit);

  PartitionHistoryFilter filter_;
  std::map<std::string, std::string> topic_names_;  // topic id text -> name
  std::map<Key, Current> partitions_;
};

// Every step of every partition, kept (diff --metadata, partition inspect --metadata, plan).
class PartitionHistory : private PartitionReplayVisitor {
 public:
  explicit PartitionHistory(PartitionHistoryFilter filter = {}) : replay_(std::move(filter)) {}

  // Applies one decoded record (records kepoch did not decode are ignored).
  void apply(const MetadataRecord& record, MetadataPosition at) {
    replay_.apply(record, at, *this);
  }

  // Timelines ordered by topic name, topic id, partition.
  std::vector<const PartitionTimeline*> timelines() const;
  const std::vector<BrokerEvent>& broker_events() const { return broker_events_; }
  // Change records for a partition no PartitionRecord created (e.g. a log whose start was
  // cleaned after a snapshot): not replayable, counted with the first offset seen.
  const std::vector<std::string>& orphans() const { return orphans_; }

 private:
  using Key = std::tuple<std::string, std::int32_t>;  // topic id text, partition
  void step(const PartitionTimeline& partition, const PartitionStep& step) override;
  void broker(const BrokerEvent& event) override { broker_events_.push_back(event); }
  void orphan(std::string message) override { orphans_.push_back(std::move(message)); }

  PartitionReplay replay_;
  std::map<Key, PartitionTimeline> timelines_;
  std::vector<BrokerEvent> broker_events_;
  std::vector<std::string> orphans_;
};

// The order of the timelines (topic name, then partition; ties in topic id order).
bool timeline_order(const PartitionTimeline& a, const PartitionTimeline& b);

// The causes of one PartitionChangeRecord applied to `before` (giving `after`).
std::vector<std::string> change_causes(const PartitionRegistration& before,
                                       const PartitionRegistration& after,
                                       const PartitionChangeRecord& r);

// The latest leader epoch of the timeline that had a leader (leader != -1): the epoch the
// replicas' leader-epoch caches should end at (an epoch without a leader is cached by none).
std::optional<std::int32_t> last_led_epoch(const PartitionTimeline& timeline);

// PartitionRegistration.merge.
PartitionRegistration merge(const PartitionRegistration& before, const PartitionChangeRecord& r);

}  // namespace kepoch
