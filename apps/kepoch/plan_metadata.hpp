#pragma once
// `kepoch plan --metadata DIR`: each partition's last registration in the KRaft metadata log
// and the brokers left unfenced, as plain values. A file of its own because the metadata
// record types (format/metadata_record.hpp) and the election rules (epoch/election.hpp) both
// name kNoLeaderChange and cannot share a translation unit.

#include <cstdint>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "globals.hpp"

namespace kepoch::cli {

struct LoggedPartition {
  std::string topic;
  std::int32_t partition = 0;
  std::vector<std::int32_t> replicas;
  std::vector<std::int32_t> isr;
  std::vector<std::int32_t> elr;
  std::vector<std::int32_t> last_known_elr;
  std::int32_t leader = -1;
  std::int32_t leader_epoch = -1;
};

struct LoggedMetadata {
  std::set<std::int32_t> live;  // brokers whose last registration event left them unfenced
  std::vector<LoggedPartition> partitions;  // topics not removed, selected by `topic`
  std::vector<std::string> problems;
};

LoggedMetadata read_logged_metadata(const std::string& dir, const std::optional<std::regex>& topic,
                                    bool exclude_internal, const Globals& globals);

}  // namespace kepoch::cli
