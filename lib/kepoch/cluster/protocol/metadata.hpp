#pragma once
// Metadata (api key 3), typed: brokers, controller, topics and their partitions' leader,
// leader epoch, replicas, ISR and offline replicas. Mirrors MetadataRequest.Builder and
// MetadataResponse of Kafka's clients.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

// `topics`: the names to describe, or nullopt for every topic (v0: an empty array; v1+: a
// null one). Asks the broker not to create missing topics where the version can say so
// (v4+); below v4 the broker's auto.create.topics.enable decides. Throws ProtocolError for
// an empty list at v0, where it would mean every topic.
Struct make_metadata_request(std::int16_t version,
                             const std::optional<std::vector<std::string>>& topics);

struct MetadataBroker {
  std::int32_t node_id = 0;
  std::string host;
  std::int32_t port = 0;
  std::optional<std::string> rack;
};

struct MetadataPartition {
  std::int16_t error_code = 0;
  std::int32_t partition_index = 0;
  std::int32_t leader_id = -1;
  std::int32_t leader_epoch = -1;  // -1 below v7, which lacks it
  std::vector<std::int32_t> replica_nodes;
  std::vector<std::int32_t> isr_nodes;
  std::vector<std::int32_t> offline_replicas;  // empty below v5
};

struct MetadataTopic {
  std::int16_t error_code = 0;
  std::optional<std::string> name;  // null only for an unknown topic asked by id (v12+)
  Uuid topic_id;                    // zero below v10
  bool is_internal = false;
  std::vector<MetadataPartition> partitions;
};

struct MetadataResponse {
  std::int32_t throttle_time_ms = 0;
  std::vector<MetadataBroker> brokers;
  std::optional<std::string> cluster_id;
  std::int32_t controller_id = -1;
  std::vector<MetadataTopic> topics;
  std::int16_t error_code = 0;  // v13+

  static MetadataResponse from(const Struct& body);
};

}  // namespace kepoch::cluster::protocol
