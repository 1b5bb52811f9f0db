// Pins the replay of dynamic configs (metadata/dynamic_configs) as Kafka's MetadataDelta and
// ConfigurationsDelta do it: ConfigRecord sets a resource's config, a null value deletes it,
// RemoveTopicRecord deletes the topic's configs; a topic's value is its own config, else the
// cluster-wide default (BROKER resource ""), as ConfigurationControlManager.getTopicConfig
// looks them up (a broker's own configs are not the controller's).
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

TEST_CASE("a topic's config, else the cluster-wide default; deleted configs and topics forgotten",
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
