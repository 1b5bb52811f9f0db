// Pins the partition states kafka-topics --describe filters on
// (TopicCommand.PartitionDescription: isUnderReplicated, isUnderMinIsr, isAtMinIsrPartitions,
// hasUnavailablePartitions) and the preferred-leader check.
#include <catch2/catch.hpp>

#include "kepoch/live/partition_health.hpp"

using namespace kepoch::live;

namespace {

PartitionView partition(std::int32_t leader, std::vector<std::int32_t> replicas,
                        std::vector<std::int32_t> isr) {
  PartitionView p;
  p.topic = "t";
  p.leader = leader;
  p.leader_epoch = 3;
  p.replicas = std::move(replicas);
  p.isr = std::move(isr);
  return p;
}

const std::set<std::int32_t> all_live{1, 2, 3};

}  // namespace

TEST_CASE("a full ISR led by the preferred replica is healthy", "[live][health]") {
  auto h = assess_partition(partition(1, {1, 2, 3}, {1, 2, 3}), 2, all_live);
  CHECK_FALSE(h.under_replicated);
  CHECK_FALSE(h.under_min_isr);
  CHECK_FALSE(h.at_min_isr);
  CHECK_FALSE(h.unavailable);
  CHECK_FALSE(h.leader_not_preferred);
}

TEST_CASE("isUnderReplicated: ISR smaller than the replica set", "[live][health]") {
  CHECK(assess_partition(partition(1, {1, 2, 3}, {1, 2}), 2, all_live).under_replicated);
}

TEST_CASE("isUnderMinIsr: ISR below min.insync.replicas, or no leader at all", "[live][health]") {
  CHECK(assess_partition(partition(1, {1, 2, 3}, {1}), 2, all_live).under_min_isr);
  CHECK_FALSE(assess_partition(partition(1, {1, 2, 3}, {1, 2}), 2, all_live).under_min_isr);
  // TopicCommand: !hasLeader() || isr < minIsr, so a leaderless partition counts even with
  // a large ISR, and even when min.insync.replicas is unknown.
  CHECK(assess_partition(partition(kNoLeader, {1, 2, 3}, {1, 2, 3}), 2, all_live).under_min_isr);
  CHECK(assess_partition(partition(kNoLeader, {1, 2}, {1}), std::nullopt, all_live).under_min_isr);
  CHECK_FALSE(assess_partition(partition(1, {1, 2}, {1}), std::nullopt, all_live).under_min_isr);
}

TEST_CASE("isAtMinIsrPartitions: ISR size equals min.insync.replicas", "[live][health]") {
  CHECK(assess_partition(partition(1, {1, 2, 3}, {1, 2}), 2, all_live).at_min_isr);
  CHECK_FALSE(assess_partition(partition(1, {1, 2, 3}, {1, 2, 3}), 2, all_live).at_min_isr);
  // TopicCommand compares sizes only: a leaderless partition can be "at" min ISR too.
  CHECK(assess_partition(partition(kNoLeader, {1, 2, 3}, {3}), 1, all_live).at_min_isr);
}

TEST_CASE("hasUnavailablePartitions: no leader, or a leader that is not a live broker",
          "[live][health]") {
  CHECK(assess_partition(partition(kNoLeader, {1, 2, 3}, {1}), 1, all_live).unavailable);
  CHECK(assess_partition(partition(3, {1, 2, 3}, {3}), 1, {1, 2}).unavailable);
  CHECK_FALSE(assess_partition(partition(3, {1, 2, 3}, {3}), 1, all_live).unavailable);
}

TEST_CASE("a leader other than the first replica is not preferred", "[live][health]") {
  CHECK(assess_partition(partition(2, {1, 2, 3}, {1, 2, 3}), 2, all_live).leader_not_preferred);
  CHECK_FALSE(
      assess_partition(partition(kNoLeader, {1, 2, 3}, {}), 2, all_live).leader_not_preferred);
}

TEST_CASE("min.insync.replicas and unclean election are read from the topic configs",
          "[live][health]") {
  TopicView t;
  CHECK_FALSE(t.min_insync_replicas());
  t.configs["min.insync.replicas"] = "2";
  t.configs["unclean.leader.election.enable"] = "TRUE";
  CHECK(t.min_insync_replicas() == 2);
  CHECK(t.unclean_leader_election() == true);
  t.configs["min.insync.replicas"] = "2x";
  CHECK_FALSE(t.min_insync_replicas());
}

TEST_CASE("select_topics matches the whole name and can drop internal topics", "[live][health]") {
  ClusterView v;
  for (const char* name : {"orders", "orders-dlq", "__consumer_offsets"}) {
    TopicView t;
    t.name = name;
    t.internal = t.name.starts_with("__");
    v.topics.push_back(t);
  }
  auto names = [](const ClusterView& view) {
    std::vector<std::string> out;
    for (const auto& t : view.topics)
      out.push_back(t.name);
    return out;
  };
  CHECK(names(select_topics(v, std::regex("orders"), false)) == std::vector<std::string>{"orders"});
  CHECK(names(select_topics(v, std::regex("orders.*"), false)) ==
        std::vector<std::string>{"orders", "orders-dlq"});
  CHECK(names(select_topics(v, std::nullopt, true)) ==
        std::vector<std::string>{"orders", "orders-dlq"});
  CHECK(select_topics(v, std::nullopt, false).topics.size() == 3);
}
