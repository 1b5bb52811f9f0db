// Where a plan's topic configs come from (forecast/config_source.hpp): Kafka's precedence for
// a topic config (KafkaConfigSchema.resolveEffectiveTopicConfig, called by
// ConfigurationControlManager.getTopicConfig: the topic's own config, then the node's own
// dynamic config, then the cluster-wide dynamic default, then the static config, then the
// default), as far as each source of a plan can see it, and how each value is parsed.

#include "kepoch/forecast/config_source.hpp"

#include <catch2/catch.hpp>

using namespace kepoch::forecast;

TEST_CASE("DescribeConfigs' ConfigSource names: each to its place in Kafka's precedence",
          "[config_source]") {
  // DescribeConfigsResponse.ConfigSource: the broker that answers resolves a topic config
  // and says which layer the value came from.
  CHECK(config_source_from_describe_configs("TOPIC_CONFIG") == ConfigSource::topic);
  CHECK(config_source_from_describe_configs("DYNAMIC_BROKER_CONFIG") == ConfigSource::node);
  CHECK(config_source_from_describe_configs("DYNAMIC_DEFAULT_BROKER_CONFIG") ==
        ConfigSource::cluster_default);
  CHECK(config_source_from_describe_configs("STATIC_BROKER_CONFIG") == ConfigSource::static_broker);
  CHECK(config_source_from_describe_configs("DEFAULT_CONFIG") == ConfigSource::kafka_default);
  // Sources that never hold a topic config, and names Kafka does not send.
  for (const char* other : {"UNKNOWN", "DYNAMIC_BROKER_LOGGER_CONFIG", "CLIENT_METRICS_CONFIG",
                            "GROUP_CONFIG", "topic_config", ""})
    CHECK(config_source_from_describe_configs(other) == ConfigSource::unknown);
}

TEST_CASE("the report's names of the sources: not said is empty", "[config_source]") {
  CHECK(config_source_name(ConfigSource::unsaid).empty());
  CHECK(config_source_name(ConfigSource::topic) == "topic");
  CHECK(config_source_name(ConfigSource::node) == "node");
  CHECK(config_source_name(ConfigSource::cluster_default) == "cluster_default");
  CHECK(config_source_name(ConfigSource::static_broker) == "static");
  CHECK(config_source_name(ConfigSource::kafka_default) == "kafka_default");
  CHECK(config_source_name(ConfigSource::flags) == "flags");
  CHECK(config_source_name(ConfigSource::unknown) == "unknown");
}

TEST_CASE(
    "a live cluster's value: as the broker resolved it: not read is Kafka's default and "
    "from nowhere known",
    "[config_source]") {
  // ServerLogConfigs' defaults: unclean.leader.election.enable=false, min.insync.replicas=1.
  CHECK(kDefaultUncleanLeaderElection == false);
  CHECK(kDefaultMinInsyncReplicas == 1);
  const auto topic = live_unclean_leader_election(true, "TOPIC_CONFIG");
  CHECK(topic.value);
  CHECK(topic.source == ConfigSource::topic);
  const auto node = live_min_insync_replicas(2, "DYNAMIC_BROKER_CONFIG");
  CHECK(node.value == 2);
  CHECK(node.source == ConfigSource::node);
  // Not read (or not a value Kafka accepts): the default, and the source is unknown even
  // when the answer named one.
  const auto unread = live_unclean_leader_election(std::nullopt, "TOPIC_CONFIG");
  CHECK_FALSE(unread.value);
  CHECK(unread.source == ConfigSource::unknown);
  const auto bad = live_min_insync_replicas(std::nullopt, "DEFAULT_CONFIG");
  CHECK(bad.value == 1);
  CHECK(bad.source == ConfigSource::unknown);
  // A value without a source.
  CHECK(live_min_insync_replicas(3, std::nullopt).source == ConfigSource::unknown);
}

TEST_CASE(
    "the metadata log: the topic's config else the cluster-wide default else the flags "
    "standing for the static config and Kafka's default",
    "[config_source]") {
  // The log holds layers 1-3 of resolveEffectiveTopicConfig; DynamicConfigs::topic_config has
  // already taken the topic's before the cluster default (tests/unit/metadata).
  const auto own = logged_min_insync_replicas(LoggedTopicConfig{"2", false}, 3);
  CHECK(own.value == 2);
  CHECK(own.source == ConfigSource::topic);
  const auto cluster = logged_min_insync_replicas(LoggedTopicConfig{"4", true}, 3);
  CHECK(cluster.value == 4);
  CHECK(cluster.source == ConfigSource::cluster_default);
  const auto none = logged_min_insync_replicas(std::nullopt, 3);
  CHECK(none.value == 3);
  CHECK(none.source == ConfigSource::flags);
  const auto unclean_none = logged_unclean_leader_election(std::nullopt, true);
  CHECK(unclean_none.value);
  CHECK(unclean_none.source == ConfigSource::flags);
  const auto unclean_cluster =
      logged_unclean_leader_election(LoggedTopicConfig{"true", true}, false);
  CHECK(unclean_cluster.value);
  CHECK(unclean_cluster.source == ConfigSource::cluster_default);
}

TEST_CASE("a logged unclean election flag is read as the controller reads it", "[config_source]") {
  // ConfigurationControlManager.uncleanLeaderElectionEnabledForTopic:
  // Boolean.parseBoolean(getTopicConfig(...).value()). A logged value that is not "true" is
  // false, and the topic's config still decides (the flags do not stand in for it).
  CHECK(logged_unclean_leader_election(LoggedTopicConfig{"TRUE", false}, false).value);
  CHECK(logged_unclean_leader_election(LoggedTopicConfig{"True", false}, false).value);
  for (const char* v : {" true", "true ", "yes", "1", ""}) {
    const auto r = logged_unclean_leader_election(LoggedTopicConfig{v, false}, true);
    CHECK_FALSE(r.value);
    CHECK(r.source == ConfigSource::topic);
  }
}

TEST_CASE("a logged min ISR is read as a leader reads it or left to the flags", "[config_source]") {
  // ConfigDef.parseType for INT: Integer.parseInt(value.trim()).
  CHECK(logged_min_insync_replicas(LoggedTopicConfig{" 2\t", false}, 1).value == 2);
  CHECK(logged_min_insync_replicas(LoggedTopicConfig{"+3", false}, 1).value == 3);
  for (const char* v : {"two", "2.0", "2147483648", ""}) {
    const auto r = logged_min_insync_replicas(LoggedTopicConfig{v, false}, 5);
    CHECK(r.value == 5);
    CHECK(r.source == ConfigSource::flags);
  }
}
