#pragma once
// What every `kepoch cluster` subcommand shares: the connection flags (-b, -X,
// --command-config, --cluster, --timeout, -v) and the topic selection (--topic,
// --exclude-internal), and the registration of the subcommands kept in files of their own.

#include <CLI/CLI.hpp>

#include <chrono>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "globals.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/cluster/connection_settings.hpp"

namespace kepoch::cli {

struct ConnectionOptions {
  std::optional<std::string> cluster;
  std::optional<std::string> command_config;
  std::vector<std::string> properties;
  std::optional<std::string> bootstrap;
  double timeout_seconds = 10;
  bool verbose = false;
};

struct TopicOptions {
  std::optional<std::string> topic;
  bool exclude_internal = false;
};

std::chrono::milliseconds to_ms(double seconds);

// The settings the flags, profile and environment give (-v prints them, secrets redacted).
cluster::ConnectionSettings settings_from(const ConnectionOptions& o);

// --topic as a regular expression; UsageError when it is not one.
std::optional<std::regex> topic_regex(const TopicOptions& o);

// A view of the topics --topic and --exclude-internal select, with their configs and leaders'
// offsets, and with the replicas' sizes (DescribeLogDirs) when `sizes`.
cluster::ViewRequest view_request(const TopicOptions& t, bool sizes);

void add_connection_options(CLI::App* cmd, ConnectionOptions& o);
void add_topic_options(CLI::App* cmd, TopicOptions& o);

// `kepoch cluster predict` and `kepoch cluster what-if` (cmd_cluster_predict.cpp,
// cmd_cluster_what_if.cpp).
void register_cluster_predict(CLI::App* group, Globals& globals);
void register_cluster_what_if(CLI::App* group, Globals& globals);
void register_cluster_hanging(CLI::App* group, Globals& globals);
void register_cluster_groups(CLI::App* group, Globals& globals);
void register_cluster_remote_log_metadata(CLI::App* group, Globals& globals);

}  // namespace kepoch::cli
