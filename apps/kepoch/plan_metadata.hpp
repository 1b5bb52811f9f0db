#pragma once
// `kepoch plan --metadata DIR`: each partition's last registration in the KRaft metadata log,
// the brokers left unfenced and the dynamic configs (ConfigRecord), as plain values. A file of its
// own because the metadata record types (format/metadata_record.hpp) and the election rules
// (epoch/election.hpp) both name kNoLeaderChange and cannot share a translation unit.

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "globals.hpp"
#include "kepoch/base/uuid.hpp"

namespace kepoch::cli {

// A topic's dynamic config in the log: its own, or the cluster-wide default.
struct LoggedConfig {
  std::string value;
  bool cluster_default = false;
};

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
  std::optional<LoggedConfig> unclean;  // unclean.leader.election.enable
  std::optional<LoggedConfig> min_isr;  // min.insync.replicas
  // The leader epochs the controller issued, in order, with each one's leader
  // (metadata/epoch_agreement's issued_epochs).
  std::vector<std::pair<std::int32_t, std::int32_t>> issued;  // (epoch, leader)
};

struct LoggedMetadata {
  std::set<std::int32_t> live;  // brokers whose last registration event left them unfenced
  std::vector<LoggedPartition> partitions;  // topics not removed, selected by `topic`
  // unclean.leader.election.enable and min.insync.replicas as nodes' own dynamic configs
  // (BROKER resource "<node id>"): config name -> node id -> value.
  std::map<std::string, std::map<std::string, std::string>> node_configs;
  std::vector<std::string> problems;
};

LoggedMetadata read_logged_metadata(const std::string& dir, const std::optional<std::regex>& topic,
                                    bool exclude_internal, const Globals& globals);

}  // namespace kepoch::cli
