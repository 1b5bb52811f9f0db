// The plan's note on where its topic configs came from (forecast/config_note.hpp).

#include "kepoch/forecast/config_note.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace kepoch::forecast;

namespace {

PlanPartitionInput topic(std::string name, std::int32_t min_isr, ConfigSource min_isr_source,
                         bool unclean = false, ConfigSource unclean_source = ConfigSource::flags) {
  PlanPartitionInput p;
  p.topic = std::move(name);
  p.min_isr = min_isr;
  p.min_isr_source = min_isr_source;
  p.unclean_allowed = unclean;
  p.unclean_source = unclean_source;
  return p;
}

const ConfigWhere kLog{"metadata log", "", std::string(kMinIsrDeciders), "--min-isr"};
const ConfigWhere kLive{"DescribeConfigs", "the broker at b1:9092", std::string(kUncleanDeciders),
                        ""};

}  // namespace

TEST_CASE("the metadata log: topics with their own config by name and the rest by source",
          "[config_note]") {
  const std::vector<PlanPartitionInput> ps = {topic("__transaction_state", 2, ConfigSource::topic),
                                              topic("t", 1, ConfigSource::flags)};
  CHECK(config_note(false, ps, kLog) ==
        "min.insync.replicas: the topic config of __transaction_state=2 (metadata log); other "
        "topics: 1 (Kafka's default) assumed: the metadata log sets no cluster-wide default, and "
        "a static min.insync.replicas (in server.properties) is not in it: each partition's "
        "leader refuses acks=all writes by its own, and the controller keeps the ELR by its own "
        "config (--min-isr gives it)");
  // A value the flags give that is not Kafka's default says nothing of a default.
  CHECK(config_note(false, {topic("t", 3, ConfigSource::flags)}, kLog) ==
        "min.insync.replicas: 3 assumed: the metadata log sets no cluster-wide default, and a "
        "static min.insync.replicas (in server.properties) is not in it: each partition's leader "
        "refuses acks=all writes by its own, and the controller keeps the ELR by its own config "
        "(--min-isr gives it)");
  CHECK(config_note(false, {}, kLog) == "min.insync.replicas: no topic selected");
}

TEST_CASE(
    "a live cluster: each source by the broker that resolved it and in the order of the "
    "sources' names and counted when several",
    "[config_note]") {
  const std::vector<PlanPartitionInput> ps = {
      topic("a", 1, ConfigSource::unknown, true, ConfigSource::static_broker),
      topic("b", 1, ConfigSource::unknown, false, ConfigSource::kafka_default),
      topic("c", 1, ConfigSource::unknown, false, ConfigSource::cluster_default),
      topic("d", 1, ConfigSource::unknown, true, ConfigSource::node),
      topic("e", 1, ConfigSource::unknown, false, ConfigSource::unknown),
      topic("f", 1, ConfigSource::unknown, false, ConfigSource::unknown)};
  CHECK(config_note(true, ps, kLive) ==
        "unclean.leader.election.enable: "
        "the cluster-wide default false (DescribeConfigs) (1 topic(s)); "
        "false, Kafka's default (DEFAULT_CONFIG: the broker at b1:9092 sets none): the active "
        "controller elects by its own config (1 topic(s)); "
        "true from the own dynamic config of the broker at b1:9092 (DYNAMIC_BROKER_CONFIG): the "
        "active controller elects by its own config (1 topic(s)); "
        "true from the server.properties of the broker at b1:9092 (STATIC_BROKER_CONFIG): the "
        "active controller elects by its own config (1 topic(s)); "
        "false assumed: not read (2 topic(s))");
}

TEST_CASE("at most eight topics' own configs by name", "[config_note]") {
  std::vector<PlanPartitionInput> ps;
  for (char c = 'a'; c <= 'j'; ++c)
    ps.push_back(topic(std::string(1, c), 2, ConfigSource::topic));
  CHECK(config_note(false, ps, kLog) ==
        "min.insync.replicas: the topic config of a=2, b=2, c=2, d=2, e=2, f=2, g=2, h=2, and 2 "
        "more (metadata log)");
}
