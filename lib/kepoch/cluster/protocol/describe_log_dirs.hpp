#pragma once
// DescribeLogDirs (api key 35), typed: a broker's log dirs, their volume sizes (v4+) and
// the size and lag of each partition replica in them. Mirrors DescribeLogDirsRequest and
// DescribeLogDirsResponse of Kafka's clients.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

struct LogDirQuery {
  std::string topic;
  std::vector<std::int32_t> partitions;
};

// nullopt asks for every topic.
Struct make_describe_log_dirs_request(const std::optional<std::vector<LogDirQuery>>& topics);

struct LogDirReplica {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t size = 0;
  std::int64_t offset_lag = 0;
  bool is_future_key = false;  // a future replica of AlterReplicaLogDirs
};

struct LogDir {
  std::int16_t error_code = 0;
  std::string path;
  // The volume's sizes, v4+; nullopt below v4 or when the broker sends -1.
  std::optional<std::int64_t> total_bytes;
  std::optional<std::int64_t> usable_bytes;
  std::vector<LogDirReplica> replicas;
};

struct DescribeLogDirsResponse {
  std::int32_t throttle_time_ms = 0;
  std::int16_t error_code = 0;  // v3+
  std::vector<LogDir> dirs;

  static DescribeLogDirsResponse from(const Struct& body);
};

}  // namespace kepoch::cluster::protocol
