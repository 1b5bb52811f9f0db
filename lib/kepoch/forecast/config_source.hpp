#pragma once
// Where a topic's unclean.leader.election.enable and min.insync.replicas come from. Kafka
// resolves a topic config from the first of these that sets it
// (KafkaConfigSchema.resolveEffectiveTopicConfig; ConfigurationControlManager.getTopicConfig
// for the controller's elections):
//
//   1. the topic's own config                     TOPIC_CONFIG
//   2. the deciding node's own dynamic config     DYNAMIC_BROKER_CONFIG (BROKER "<node id>")
//   3. the cluster-wide dynamic default           DYNAMIC_DEFAULT_BROKER_CONFIG (BROKER "")
//   4. the deciding node's server.properties      STATIC_BROKER_CONFIG
//   5. Kafka's default                            DEFAULT_CONFIG (false; 1)
//
// A live cluster's DescribeConfigs answer names the source (DescribeConfigsResponse
// .ConfigSource), resolved by the broker that answered. The KRaft metadata log holds 1-3 but
// not 4-5, and does not say which node decides, so offline the plan takes 1, else 3, else the
// value the flags give for 4-5 (`flags`), and says where a node's own config (2) is set.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kepoch::forecast {

// TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG.
inline constexpr std::string_view kUncleanLeaderElectionEnable = "unclean.leader.election.enable";
inline constexpr std::string_view kMinInsyncReplicas = "min.insync.replicas";
// ServerLogConfigs.UNCLEAN_LEADER_ELECTION_ENABLE_DEFAULT, MIN_IN_SYNC_REPLICAS_DEFAULT.
inline constexpr bool kDefaultUncleanLeaderElection = false;
inline constexpr std::int32_t kDefaultMinInsyncReplicas = 1;

enum class ConfigSource {
  unsaid,           // no source given (the report leaves it null)
  topic,            // the topic's own config
  node,             // one node's own dynamic config
  cluster_default,  // the cluster-wide dynamic default
  static_broker,    // a node's server.properties
  kafka_default,    // none set: Kafka's default
  flags,            // not in the metadata: the value kepoch's flags give
  unknown,          // not read, or not a value Kafka accepts
};

// The report's names: "topic", "node", "cluster_default", "static", "kafka_default", "flags",
// "unknown"; "" for unsaid.
std::string_view config_source_name(ConfigSource source);

// A config's value and where it came from.
template <class T>
struct ResolvedConfig {
  T value{};
  ConfigSource source = ConfigSource::unsaid;
};

// A DescribeConfigs answer's ConfigSource name: TOPIC_CONFIG, DYNAMIC_BROKER_CONFIG,
// DYNAMIC_DEFAULT_BROKER_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG; any other
// (UNKNOWN, DYNAMIC_BROKER_LOGGER_CONFIG, ...) is unknown.
ConfigSource config_source_from_describe_configs(std::string_view name);

// The live cluster's answer for one topic: `value` as the broker parsed it (nullopt: not
// read, or not a value Kafka accepts) and DescribeConfigs' source name (nullopt: none). Not
// read counts as Kafka's default with an unknown source.
ResolvedConfig<bool> live_unclean_leader_election(std::optional<bool> value,
                                                  const std::optional<std::string>& source);
ResolvedConfig<std::int32_t> live_min_insync_replicas(std::optional<int> value,
                                                      const std::optional<std::string>& source);

// A topic config as the metadata log holds it: the topic's own (TOPIC "<name>"), or the
// cluster-wide default (BROKER "") when the topic sets none (DynamicConfigs::topic_config).
struct LoggedTopicConfig {
  std::string value;
  bool cluster_default = false;
};

// From the metadata log: the logged value (the topic's, else the cluster default), else
// `assumed`, the flags' value standing for the nodes' static config or Kafka's default.
// unclean.leader.election.enable as the controller reads it: Boolean.parseBoolean on the
// logged text, untrimmed (ConfigurationControlManager.uncleanLeaderElectionEnabledForTopic),
// so any text but a case-insensitive "true" is false. min.insync.replicas as a partition's
// leader reads it (LogConfig: ConfigDef's INT, Integer.parseInt after String.trim); text that
// does not parse leaves `assumed`.
ResolvedConfig<bool> logged_unclean_leader_election(const std::optional<LoggedTopicConfig>& logged,
                                                    bool assumed);
ResolvedConfig<std::int32_t> logged_min_insync_replicas(
    const std::optional<LoggedTopicConfig>& logged, std::int32_t assumed);

}  // namespace kepoch::forecast
