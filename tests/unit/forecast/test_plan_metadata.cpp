// The three sources of a plan's partition states (forecast/plan_metadata.hpp): a live
// cluster's answer, the metadata log, and one partition from flags.

#include "kepoch/forecast/plan_metadata.hpp"

#include <catch2/catch.hpp>

#include "kepoch/base/error.hpp"

using namespace kepoch;
using namespace kepoch::forecast;

namespace {

live::TopicView live_topic(std::string name, std::map<std::string, std::string> configs,
                           std::map<std::string, std::string> sources) {
  live::TopicView t;
  t.name = name;
  t.topic_id = "AAAAAAAAAAAAAAAAAAAAAQ";
  t.configs = std::move(configs);
  t.config_sources = std::move(sources);
  live::PartitionView p;
  p.topic = name;
  p.partition = 0;
  p.replicas = {1, 2, 3};
  p.isr = {1};
  p.leader = kNoLeader;
  p.leader_epoch = 7;
  t.partitions.push_back(p);
  return t;
}

}  // namespace

TEST_CASE("a live cluster: each topic's configs as DescribeConfigs resolved them",
          "[plan_metadata]") {
  live::ClusterView view;
  view.cluster_id = "C";
  view.metadata_from = "b1:9092";
  view.brokers = {{2, "b2", 9092, std::nullopt}};
  view.topics.push_back(
      live_topic("own", {{"min.insync.replicas", "2"}, {"unclean.leader.election.enable", "true"}},
                 {{"min.insync.replicas", "TOPIC_CONFIG"},
                  {"unclean.leader.election.enable", "DYNAMIC_DEFAULT_BROKER_CONFIG"}}));
  view.topics.push_back(live_topic("unread", {}, {}));
  const PlanMetadata m = metadata_from_cluster(view);
  CHECK(m.description == "live cluster (b1:9092)");
  CHECK(m.cluster_id == "C");
  CHECK(m.live == std::set<std::int32_t>{2});
  REQUIRE(m.partitions.size() == 2);
  const PlanPartitionInput& own = m.partitions[0];
  CHECK(own.min_isr == 2);
  CHECK(own.min_isr_source == ConfigSource::topic);
  CHECK(own.unclean_allowed);
  CHECK(own.unclean_source == ConfigSource::cluster_default);
  CHECK(own.state.leader_epoch == 7);
  CHECK(own.leader_epoch_known);
  CHECK(own.live_metadata);
  CHECK(own.topic_id);
  // Not read: Kafka's defaults, from nowhere known.
  const PlanPartitionInput& unread = m.partitions[1];
  CHECK(unread.min_isr == 1);
  CHECK(unread.min_isr_source == ConfigSource::unknown);
  CHECK_FALSE(unread.unclean_allowed);
  CHECK(unread.unclean_source == ConfigSource::unknown);
  REQUIRE(m.notes.size() == 2);
  CHECK(m.notes[0].rfind("unclean.leader.election.enable: ", 0) == 0);
  CHECK(m.notes[1] ==
        "min.insync.replicas: the topic config of own=2 (DescribeConfigs); other topics: 1 "
        "assumed: not read");
}

TEST_CASE(
    "the metadata log: the topic's config else the cluster default else the flags: a "
    "node's own config said and not used",
    "[plan_metadata]") {
  LoggedMetadata logged;
  logged.live = {1};
  LoggedPartition own;
  own.topic = "own";
  own.replicas = {1, 2};
  own.min_isr = LoggedTopicConfig{"2", false};
  own.unclean = LoggedTopicConfig{"true", true};
  own.issued = {{0, 1}, {1, 2}};
  own.elr = {2};
  LoggedPartition none;
  none.topic = "none";
  none.replicas = {1, 2};
  logged.partitions = {own, none};
  logged.node_configs["min.insync.replicas"]["3"] = "3";
  logged.problems = {"a problem"};
  const PlanMetadata m = metadata_from_log(logged, "meta/__cluster_metadata-0", {true, 4});
  CHECK(m.description == "metadata log meta/__cluster_metadata-0");
  CHECK_FALSE(m.cluster_id);
  CHECK(m.live == std::set<std::int32_t>{1});
  REQUIRE(m.partitions.size() == 2);
  CHECK(m.partitions[0].min_isr == 2);
  CHECK(m.partitions[0].min_isr_source == ConfigSource::topic);
  CHECK(m.partitions[0].unclean_allowed);
  CHECK(m.partitions[0].unclean_source == ConfigSource::cluster_default);
  CHECK(m.partitions[0].elr_enabled);
  REQUIRE(m.partitions[0].issued_epochs.size() == 2);
  CHECK(m.partitions[0].issued_epochs[1].leader == 2);
  CHECK(m.partitions[1].min_isr == 4);
  CHECK(m.partitions[1].min_isr_source == ConfigSource::flags);
  CHECK(m.partitions[1].unclean_allowed);
  CHECK(m.partitions[1].unclean_source == ConfigSource::flags);
  CHECK_FALSE(m.partitions[1].elr_enabled);
  REQUIRE(m.notes.size() == 4);
  CHECK(m.notes[0] == "a problem");
  CHECK(m.notes[3] ==
        "node 3's own dynamic config sets min.insync.replicas=3 (metadata log): where node 3 is "
        "the active controller (elections) or a partition's leader (acks=all), Kafka takes it "
        "before the cluster-wide default and the static config; the plan's values do not");
}

TEST_CASE("one partition from flags: the states must hold one partition", "[plan_metadata]") {
  BrokerState a;
  a.broker = 1;
  a.replicas.emplace_back();
  a.replicas.back().topic = "d";
  BrokerState b = a;
  b.broker = 2;
  FlagsPartition flags{{1, 2, 3}, {1}, {}, std::nullopt, {true, 2}};
  const PlanMetadata m = metadata_from_flags(flags, {a, b});
  CHECK(m.description == "flags");
  REQUIRE(m.partitions.size() == 1);
  CHECK(m.partitions[0].topic == "d");
  CHECK(m.partitions[0].state.leader == kNoLeader);
  CHECK(m.partitions[0].unclean_allowed);
  CHECK(m.partitions[0].min_isr == 2);
  CHECK(m.partitions[0].min_isr_source == ConfigSource::flags);
  CHECK_FALSE(m.partitions[0].leader_epoch_known);
  // Without --alive, every state's broker is live.
  CHECK(m.live == std::set<std::int32_t>{1, 2});
  flags.alive = std::vector<std::int32_t>{3};
  CHECK(metadata_from_flags(flags, {a, b}).live == std::set<std::int32_t>{3});
  b.replicas.back().topic = "e";
  CHECK_THROWS_AS(metadata_from_flags(flags, {a, b}), UsageError);
}
