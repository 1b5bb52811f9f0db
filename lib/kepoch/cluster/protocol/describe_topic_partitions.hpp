#pragma once
// DescribeTopicPartitions (api key 75, KIP-966), typed: per partition the leader, leader
// epoch, ISR and the eligible leader replicas (ELR) and last known ELR that Metadata does
// not carry, paged by a cursor. Mirrors DescribeTopicPartitionsRequest and
// DescribeTopicPartitionsResponse of Kafka's clients.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

struct TopicPartitionCursor {
  std::string topic_name;
  std::int32_t partition_index = 0;
  friend bool operator==(const TopicPartitionCursor&, const TopicPartitionCursor&) = default;
};

// The first page starts with no cursor; the next one with the response's next_cursor.
Struct make_describe_topic_partitions_request(
    const std::vector<std::string>& topics, std::int32_t response_partition_limit = 2000,
    const std::optional<TopicPartitionCursor>& cursor = std::nullopt);

struct DescribedPartition {
  std::int16_t error_code = 0;
  std::int32_t partition_index = 0;
  std::int32_t leader_id = -1;
  std::int32_t leader_epoch = -1;
  std::vector<std::int32_t> replica_nodes;
  std::vector<std::int32_t> isr_nodes;
  std::optional<std::vector<std::int32_t>> eligible_leader_replicas;  // null: none known
  std::optional<std::vector<std::int32_t>> last_known_elr;
  std::vector<std::int32_t> offline_replicas;
};

struct DescribedTopic {
  std::int16_t error_code = 0;
  std::optional<std::string> name;
  Uuid topic_id;
  bool is_internal = false;
  std::vector<DescribedPartition> partitions;
};

struct DescribeTopicPartitionsResponse {
  std::int32_t throttle_time_ms = 0;
  std::vector<DescribedTopic> topics;
  std::optional<TopicPartitionCursor> next_cursor;  // nullopt on the last page

  static DescribeTopicPartitionsResponse from(const Struct& body);
};

}  // namespace kepoch::cluster::protocol
