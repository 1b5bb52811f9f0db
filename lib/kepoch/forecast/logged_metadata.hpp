#pragma once
// The metadata a plan takes from the KRaft metadata log (`plan --metadata DIR`): each
// partition's last registration, the brokers left unfenced, and the dynamic configs
// (ConfigRecord) of unclean.leader.election.enable and min.insync.replicas, as plain values.
// A header of its own, free of the metadata record types: format/metadata_record.hpp and the
// election rules (epoch/election.hpp, which recovery_plan.hpp includes) both name
// kNoLeaderChange and cannot share a translation unit.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/forecast/config_source.hpp"

namespace kepoch {
struct MetadataRecord;
}

namespace kepoch::forecast {

struct LoggedPartition {
  std::string topic;
  Uuid topic_id;
  std::int32_t partition = 0;
  std::vector<std::int32_t> replicas;
  std::vector<std::int32_t> isr;
  std::vector<std::int32_t> elr;
  std::vector<std::int32_t> last_known_elr;
  std::int32_t leader = -1;
  std::int32_t leader_epoch = -1;
  std::optional<LoggedTopicConfig> unclean;  // unclean.leader.election.enable
  std::optional<LoggedTopicConfig> min_isr;  // min.insync.replicas
  // The leader epochs the controller issued, in order, with each one's leader
  // (metadata/epoch_agreement's issued_epochs).
  std::vector<std::pair<std::int32_t, std::int32_t>> issued;  // (epoch, leader)
};

// The partitions of a replayed log, held compactly (LoggedMetadataReplay): 64 bytes a
// partition for a few replicas and issued epochs (the topic a number, the lists inline),
// against ~800 for a LoggedPartition and the replay's registration, so a plan of two
// million partitions holds ~130 MiB of them. Each is made whole on demand, in the log's
// order: topic name, then partition, ties in topic id order (PartitionHistory::timelines').
//
// A log of more partitions than a range holds (read_logged_metadata's `range_slots`) is read
// again for each range of that order (`ranged`): size, topic and at then address the range
// held, and next_range replaces it with the next one (a pass over the log keeping only that
// range's partitions), so what is held stays within the budget however large the cluster.
// Copies share the ranges: one of them reads on.
class LoggedPartitions {
 public:
  struct Store;
  struct Ranges;
  LoggedPartitions() = default;
  explicit LoggedPartitions(std::shared_ptr<const Store> store,
                            std::shared_ptr<Ranges> ranges = nullptr)
      : store_(std::move(store)), ranges_(std::move(ranges)) {}
  std::size_t size() const;
  std::string_view topic(std::size_t i) const;
  std::int32_t partition(std::size_t i) const;
  LoggedPartition at(std::size_t i) const;
  bool ranged() const { return ranges_ != nullptr; }
  // The next range's partitions in place of these (the log read again, up to where the first
  // pass ended: records a live controller appended since are left out); false, holding none,
  // when there is none left. Throws InputError when the log was cleaned or cut since the
  // first pass.
  bool next_range();

 private:
  std::shared_ptr<const Store> store_;
  std::shared_ptr<Ranges> ranges_;
};

struct LoggedMetadata {
  std::set<std::int32_t> live;  // brokers whose last registration event left them unfenced
  // Topics not removed, selected: read_logged_metadata's in `compact`, or (made by hand)
  // in `partitions`; the compact ones come first.
  LoggedPartitions compact;
  std::vector<LoggedPartition> partitions;
  std::size_t size() const { return compact.size() + partitions.size(); }
  LoggedPartition at(std::size_t i) const {
    return i < compact.size() ? compact.at(i) : partitions[i - compact.size()];
  }
  // unclean.leader.election.enable and min.insync.replicas as nodes' own dynamic configs
  // (BROKER resource "<node id>"): config name -> node id -> value.
  std::map<std::string, std::map<std::string, std::string>> node_configs;
  std::vector<std::string> problems;
};

// Which topics a plan reads: those `topic` matches whole (every one when unset), without
// __consumer_offsets when `exclude_internal`.
struct TopicSelection {
  std::optional<std::regex> topic;
  bool exclude_internal = false;
};

// The replay a plan makes of the log, record by record: what PartitionReplay
// (metadata/partition_history.hpp) and DynamicConfigs make of the same records, cut to what a
// plan reads (each partition's replicas, ISR, ELR, last known ELR, leader and leader epoch,
// the leader epochs issued with their leaders, whether its topic was removed; the brokers'
// last events; the topic configs) and held compactly (LoggedPartitions).
class LoggedMetadataReplay {
 public:
  LoggedMetadataReplay();
  ~LoggedMetadataReplay();
  LoggedMetadataReplay(const LoggedMetadataReplay&) = delete;
  LoggedMetadataReplay& operator=(const LoggedMetadataReplay&) = delete;
  // `offset`: the record's in the log (-1 for a snapshot's), for the orphans' messages.
  void apply(const MetadataRecord& record, std::int64_t offset);
  // The partitions selected, in the log's order; the replay is spent.
  LoggedMetadata finish(const TopicSelection& selection);

 private:
  friend struct LoggedRangePass;
  struct State;
  std::unique_ptr<State> s_;
};

// Told what the replay reads, for a progress line: `files` once, before the replay (the
// snapshot it starts from, then the log's segments), then `at(file, position)` at each batch.
struct ReplayProgress {
  std::function<void(const std::vector<std::filesystem::path>& files)> files;
  std::function<void(const std::string& file, std::uint64_t position)> at;
};

// The partitions a range of LoggedPartitions holds at most (~64 bytes each and their index
// and order): 6 MiB or so of them, so a plan's memory does not grow with the cluster; a log
// of fewer is read once.
inline constexpr std::size_t kLoggedRangeSlots = 98'304;

// Replays the log of `dir` from where a starting node would (storage/metadata_replay.hpp).
// Throws InputError for an unreadable target or a damaged snapshot. More than `range_slots`
// partitions: the first pass keeps what is not a partition's (the brokers, the topics, the
// configs, the problems) and which partitions there are, then the partitions come in ranges
// (LoggedPartitions::ranged), each a pass over the log. The partitions, in order, and
// everything else are the same for any `range_slots`.
LoggedMetadata read_logged_metadata(const std::filesystem::path& dir,
                                    const TopicSelection& selection,
                                    const ReplayProgress& progress = {},
                                    std::size_t range_slots = kLoggedRangeSlots);

}  // namespace kepoch::forecast
