#include "kepoch/forecast/config_source.hpp"

#include "kepoch/base/java_text.hpp"

namespace kepoch::forecast {

std::string_view config_source_name(ConfigSource source) {
  switch (source) {
    case ConfigSource::unsaid:
      return "";
    case ConfigSource::topic:
      return "topic";
    case ConfigSource::node:
      return "node";
    case ConfigSource::cluster_default:
      return "cluster_default";
    case ConfigSource::static_broker:
      return "static";
    case ConfigSource::kafka_default:
      return "kafka_default";
    case ConfigSource::flags:
      return "flags";
    case ConfigSource::unknown:
      return "unknown";
  }
  return "unknown";
}

ConfigSource config_source_from_describe_configs(std::string_view name) {
  if (name == "TOPIC_CONFIG") return ConfigSource::topic;
  if (name == "DYNAMIC_BROKER_CONFIG") return ConfigSource::node;
  if (name == "DYNAMIC_DEFAULT_BROKER_CONFIG") return ConfigSource::cluster_default;
  if (name == "STATIC_BROKER_CONFIG") return ConfigSource::static_broker;
  if (name == "DEFAULT_CONFIG") return ConfigSource::kafka_default;
  return ConfigSource::unknown;
}

namespace {

// A value the broker did not give (or gave as nothing Kafka accepts) has no known source,
// whatever the answer named.
ConfigSource live_source(bool parsed, const std::optional<std::string>& source) {
  if (!parsed || !source) return ConfigSource::unknown;
  return config_source_from_describe_configs(*source);
}

ConfigSource logged_source(const LoggedTopicConfig& c) {
  return c.cluster_default ? ConfigSource::cluster_default : ConfigSource::topic;
}

}  // namespace

ResolvedConfig<bool> live_unclean_leader_election(std::optional<bool> value,
                                                  const std::optional<std::string>& source) {
  return {value.value_or(kDefaultUncleanLeaderElection), live_source(value.has_value(), source)};
}

ResolvedConfig<std::int32_t> live_min_insync_replicas(std::optional<int> value,
                                                      const std::optional<std::string>& source) {
  return {value.value_or(kDefaultMinInsyncReplicas), live_source(value.has_value(), source)};
}

ResolvedConfig<bool> logged_unclean_leader_election(const std::optional<LoggedTopicConfig>& logged,
                                                    bool assumed) {
  if (!logged) return {assumed, ConfigSource::flags};
  return {java::parse_boolean(logged->value), logged_source(*logged)};
}

ResolvedConfig<std::int32_t> logged_min_insync_replicas(
    const std::optional<LoggedTopicConfig>& logged, std::int32_t assumed) {
  if (logged)
    if (const auto v = java::parse_int(java::trim(logged->value)))
      return {*v, logged_source(*logged)};
  return {assumed, ConfigSource::flags};
}

}  // namespace kepoch::forecast
