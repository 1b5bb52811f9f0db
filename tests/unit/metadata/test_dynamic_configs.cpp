// Pins the replay of dynamic configs (metadata/dynamic_configs) as Kafka's MetadataDelta and
// ConfigurationsDelta do it: ConfigRecord sets a resource's config, a null value deletes it,
// RemoveTopicRecord deletes the topic's configs; a topic's value is its own config, else the
// cluster-wide default (BROKER resource ""), as ConfigurationControlManager.getTopicConfig
// looks them up; a node's own config (BROKER resource "<node id>"), which Kafka puts between the
// topic's and the cluster default on that node, is kept apart: the log does not say which node
// is the active controller or a partition's leader.
#include <catch2/catch.hpp>

#include "kepoch/metadata/dynamic_configs.hpp"

using namespace kepoch;

namespace {

MetadataRecord config(std::int8_t type, std::string resource, std::string name,
                      std::optional<std::string> value) {
  MetadataRecord r;
  r.api_key = 4;
  r.body = ConfigRecord{type, std::move(resource), std::move(name), std::move(value)};
  return r;
}

MetadataRecord topic(std::string name, const Uuid& id) {
  MetadataRecord r;
  r.api_key = 2;
  r.body = TopicRecord{std::move(name), id};
  return r;
}

MetadataRecord remove(const Uuid& id) {
  MetadataRecord r;
  r.api_key = 9;
  r.body = RemoveTopicRecord{id};
  return r;
}

}  // namespace

TEST_CASE("a topic's config, else the cluster-wide default, deleted configs and topics forgotten",
          "[DynamicConfigs]") {
  const Uuid first = parse_uuid("AAAAAAAAAAAAAAAAAAAAAQ").uuid;
  const Uuid second = parse_uuid("AAAAAAAAAAAAAAAAAAAAAg").uuid;
  DynamicConfigs c;
  const std::string mir = "min.insync.replicas";
  CHECK_FALSE(c.topic_config("orders", mir));
  c.apply(topic("orders", first));
  c.apply(config(kConfigResourceTopic, "orders", mir, "2"));
  c.apply(config(kConfigResourceBroker, "1", mir, "5"));  // broker 1's own: not the cluster's
  REQUIRE(c.topic_config("orders", mir));
  CHECK(c.topic_config("orders", mir)->value == "2");
  CHECK_FALSE(c.topic_config("orders", mir)->cluster_default);
  CHECK_FALSE(c.topic_config("payments", mir));
  c.apply(config(kConfigResourceBroker, "", mir, "3"));
  REQUIRE(c.topic_config("payments", mir));
  CHECK(c.topic_config("payments", mir)->value == "3");
  CHECK(c.topic_config("payments", mir)->cluster_default);
  CHECK(c.topics_with(mir) == std::map<std::string, std::string>{{"orders", "2"}});
  // A null value deletes the topic's config: the cluster default applies again.
  c.apply(config(kConfigResourceTopic, "orders", mir, std::nullopt));
  CHECK(c.topic_config("orders", mir)->value == "3");
  // The topic deleted and created again under its name: the old configs are gone.
  c.apply(config(kConfigResourceTopic, "orders", "unclean.leader.election.enable", "true"));
  c.apply(remove(first));
  c.apply(topic("orders", second));
  CHECK_FALSE(c.topic_config("orders", "unclean.leader.election.enable"));
  CHECK(c.topics_with("unclean.leader.election.enable").empty());
}

TEST_CASE("a node's own config: kept apart, named, forgotten when deleted", "[DynamicConfigs]") {
  DynamicConfigs c;
  const std::string unclean = "unclean.leader.election.enable";
  c.apply(config(kConfigResourceBroker, "100", unclean, "true"));
  c.apply(config(kConfigResourceBroker, "1", "min.insync.replicas", "2"));
  c.apply(config(8, "kafka.server", unclean, "DEBUG"));  // BROKER_LOGGER: not a config of topics
  // KafkaConfigSchema.resolveEffectiveTopicConfig would take node 100's value on node 100:
  // not a topic's value without knowing the controller.
  CHECK_FALSE(c.topic_config("orders", unclean));
  CHECK(c.nodes_with(unclean) == std::map<std::string, std::string>{{"100", "true"}});
  CHECK(c.nodes_with("min.insync.replicas") == std::map<std::string, std::string>{{"1", "2"}});
  c.apply(config(kConfigResourceBroker, "100", unclean, std::nullopt));
  CHECK(c.nodes_with(unclean).empty());
}
