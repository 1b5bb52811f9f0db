#pragma once
// The live cluster as kepoch reads it for describe, watch, audit and what-if: one Metadata
// request (leaders, leader epochs, replicas, ISR, offline replicas of every topic, with the
// finalized feature levels of the answering broker's ApiVersions), then, as asked,
// DescribeTopicPartitions (ELR and last known ELR, where the brokers have it),
// DescribeConfigs (the topic settings the audit judges), ListOffsets on each leader
// (earliest = log start, latest = high watermark) and DescribeLogDirs on each broker
// (replica sizes and lag).
//
// The channel that answers Metadata is kept between calls (watch polls on it); when it
// fails, the next broker known from the last Metadata answer is tried, then the bootstrap
// list, each bounded by the settings' timeout; only when none answers does read_view throw
// ClusterError. A broker that fails the per-broker requests (offsets, log dirs) leaves its
// fields empty and a warning in the view, not an error: the rest is still worth seeing.

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "kepoch/cluster/cluster_connector.hpp"
#include "kepoch/live/cluster_view.hpp"

namespace kepoch::cluster {

struct ViewRequest {
  std::optional<std::regex> topic;  // whole-name match; nullopt: every topic
  bool exclude_internal = false;
  bool configs = true;   // DescribeConfigs of each topic
  bool offsets = true;   // ListOffsets on each leader
  bool log_dirs = true;  // DescribeLogDirs on each broker
};

class ClusterClient {
 public:
  explicit ClusterClient(ConnectionSettings settings);

  live::ClusterView read_view(const ViewRequest& request);

 private:
  protocol::Struct send_metadata_request();
  BrokerChannel& broker(std::int32_t id);
  void add_elr(live::ClusterView& view);
  void add_configs(live::ClusterView& view);
  void add_offsets(live::ClusterView& view);
  void add_log_dirs(live::ClusterView& view);

  ClusterConnector connector_;
  std::optional<BrokerChannel> main_;
  std::map<std::int32_t, BrokerAddress> addresses_;  // from the last Metadata answer
  std::map<std::int32_t, BrokerChannel> brokers_;
};

}  // namespace kepoch::cluster
