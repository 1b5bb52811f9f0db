#pragma once
// A live cluster at one moment, as kepoch saw it: the brokers the controller lists as alive,
// and per partition the controller's state (leader, leader epoch, replicas, ISR, ELR) with
// the offsets and replica sizes the brokers report. cluster/ fills it from Metadata,
// DescribeTopicPartitions, ListOffsets, DescribeLogDirs and DescribeConfigs; the rules in
// live/ (health, events, audit) read it without any I/O.

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kepoch::live {

inline constexpr std::int32_t kNoLeader = -1;

struct BrokerNode {
  std::int32_t id = -1;
  std::string host;
  std::int32_t port = 0;
  std::optional<std::string> rack;
};

// One replica's log as its broker reports it (DescribeLogDirs).
struct ReplicaLog {
  std::int32_t broker = -1;
  std::string log_dir;
  std::int64_t size_bytes = 0;
  // How far the replica's log end is behind the high watermark (the leader's, for a leader);
  // Kafka reports 0 for the leader itself, and for a replica ahead of it.
  std::int64_t offset_lag = 0;
  // The replica's own log end offset, from its broker (ListOffsets latest with the debugging
  // replica id, which any replica answers from its local log); nullopt when not answered.
  std::optional<std::int64_t> log_end_offset;
};

struct PartitionView {
  std::string topic;
  std::int32_t partition = 0;
  std::int16_t error_code = 0;  // Metadata's per-partition error (e.g. LEADER_NOT_AVAILABLE)
  std::int32_t leader = kNoLeader;
  std::int32_t leader_epoch = -1;  // -1: the broker did not say
  std::vector<std::int32_t> replicas;
  std::vector<std::int32_t> isr;
  // nullopt: the cluster does not report ELR (no DescribeTopicPartitions, or ELR off).
  std::optional<std::vector<std::int32_t>> elr;
  std::optional<std::vector<std::int32_t>> last_known_elr;
  std::vector<std::int32_t> offline_replicas;
  std::optional<std::int64_t> log_start_offset;
  std::optional<std::int64_t> high_watermark;
  std::vector<ReplicaLog> replica_logs;

  bool has_leader() const { return leader != kNoLeader; }
};

struct TopicView {
  std::string name;
  std::string topic_id;
  bool internal = false;
  std::vector<PartitionView> partitions;
  // Effective topic configs kepoch judges by (min.insync.replicas,
  // unclean.leader.election.enable, ...): broker defaults included, as DescribeConfigs
  // returns them.
  std::map<std::string, std::string> configs;
  // Where each of those values comes from, DescribeConfigs' ConfigSource by name
  // ("TOPIC_CONFIG", "DYNAMIC_BROKER_CONFIG", "DYNAMIC_DEFAULT_BROKER_CONFIG",
  // "STATIC_BROKER_CONFIG", "DEFAULT_CONFIG"): the answering broker resolves the last three
  // from its own dynamic and static config, which other nodes need not share.
  std::map<std::string, std::string> config_sources;

  // The replica count of the first partition, as kafka-topics prints ReplicationFactor.
  int replication_factor() const;
  // min.insync.replicas when known and a valid integer.
  std::optional<int> min_insync_replicas() const;
  // unclean.leader.election.enable when known.
  std::optional<bool> unclean_leader_election() const;
};

struct ClusterView {
  std::string cluster_id;
  // host:port of the broker whose Metadata answer this is ("" when not read from a cluster).
  std::string metadata_from;
  std::int32_t controller_id = -1;
  std::vector<BrokerNode> brokers;  // alive (registered, unfenced) brokers
  std::vector<TopicView> topics;
  // The feature levels the broker that answered Metadata has finalized (its ApiVersions
  // answer: metadata.version, eligible.leader.replicas.version, ...); a feature missing from
  // the map is at level 0. nullopt: the broker did not say (ApiVersions below v3).
  std::optional<std::map<std::string, std::int16_t>> finalized_features;
  // The API keys that broker serves (its ApiVersions answer); empty: not read. Tells a
  // ZooKeeper-mode broker (it serves LeaderAndIsr, key 4) from a KRaft one (controller_mode).
  std::set<std::int16_t> api_keys;
  // What could not be read (a broker that failed its offsets or log dirs request), one
  // sentence each; the fields it would have filled stay empty.
  std::vector<std::string> warnings;

  std::set<std::int32_t> live_broker_ids() const;
  const TopicView* find_topic(const std::string& name) const;
  const PartitionView* find_partition(const std::string& topic, std::int32_t partition) const;
};

using PartitionKey = std::pair<std::string, std::int32_t>;  // topic, partition

// Every partition of the view by (topic, partition).
std::map<PartitionKey, const PartitionView*> partitions_by_key(const ClusterView& view);
std::map<PartitionKey, PartitionView*> partitions_by_key(ClusterView& view);

// The view with only the topics whose whole name matches `topic` (kafka-topics' --topic is
// a regular expression too), and without internal topics when exclude_internal is set.
ClusterView select_topics(const ClusterView& view, const std::optional<std::regex>& topic,
                          bool exclude_internal);

}  // namespace kepoch::live
