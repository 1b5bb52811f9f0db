// What `cluster watch` reports between two looks at a cluster.
#include <catch2/catch.hpp>

#include "kepoch/live/cluster_events.hpp"

using namespace kepoch::live;
using Ids = std::vector<std::int32_t>;

namespace {

ClusterView view(std::int32_t leader, std::int32_t epoch, Ids isr, Ids brokers = {1, 2, 3}) {
  ClusterView v;
  for (auto id : brokers)
    v.brokers.push_back(BrokerNode{id, "127.0.0.1", 9090 + id, std::nullopt});
  PartitionView p;
  p.topic = "t";
  p.partition = 0;
  p.leader = leader;
  p.leader_epoch = epoch;
  p.replicas = {1, 2, 3};
  p.isr = std::move(isr);
  TopicView t;
  t.name = "t";
  t.partitions = {p};
  v.topics.push_back(t);
  return v;
}

std::vector<std::string> kinds(const std::vector<ClusterEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events)
    out.emplace_back(event_kind_name(e.kind));
  return out;
}

}  // namespace

TEST_CASE("no change, no event", "[live][events]") {
  CHECK(events_between(view(1, 4, {1, 2, 3}), view(1, 4, {1, 2, 3})).empty());
}

TEST_CASE("a killed leader: broker gone, leader change with the epoch bump, ISR shrink",
          "[live][events]") {
  auto events = events_between(view(1, 4, {1, 2, 3}), view(2, 5, {2, 3}, {2, 3}));
  REQUIRE(kinds(events) == std::vector<std::string>{"broker_gone", "leader_change", "isr_shrink"});
  CHECK(events[0].broker == 1);
  CHECK(events[1].old_leader == 1);
  CHECK(events[1].new_leader == 2);
  CHECK(events[1].old_epoch == 4);
  CHECK(events[1].new_epoch == 5);
  CHECK(events[2].changed == Ids{1});
  CHECK(events[2].before == Ids{1, 2, 3});
  CHECK(events[2].after == Ids{2, 3});
}

TEST_CASE("the broker returns: broker back and ISR expand, leader unchanged", "[live][events]") {
  auto events = events_between(view(2, 5, {2, 3}, {2, 3}), view(2, 5, {2, 3, 1}));
  REQUIRE(kinds(events) == std::vector<std::string>{"broker_back", "isr_expand"});
  CHECK(events[0].broker == 1);
  CHECK(events[1].changed == Ids{1});
}

TEST_CASE("losing the last leader takes the partition offline, a new one brings it back",
          "[live][events]") {
  auto down = events_between(view(3, 7, {3}), view(kNoLeader, 8, {3}, {1, 2}));
  REQUIRE(kinds(down) == std::vector<std::string>{"broker_gone", "partition_offline"});
  CHECK(down[1].old_leader == 3);
  CHECK(down[1].new_leader == kNoLeader);
  auto up = events_between(view(kNoLeader, 8, {3}, {1, 2}), view(3, 9, {3}));
  REQUIRE(kinds(up) == std::vector<std::string>{"broker_back", "partition_online"});
  CHECK(up[1].new_epoch == 9);
}

TEST_CASE("an epoch bump without a leader change is reported on its own", "[live][events]") {
  auto events = events_between(view(2, 5, {2}), view(2, 6, {2}));
  REQUIRE(kinds(events) == std::vector<std::string>{"leader_epoch_change"});
  CHECK(events[0].old_epoch == 5);
  CHECK(events[0].new_epoch == 6);
}

TEST_CASE("a swap in the ISR is both a shrink and an expand", "[live][events]") {
  auto events = events_between(view(1, 4, {1, 2}), view(1, 4, {1, 3}));
  REQUIRE(kinds(events) == std::vector<std::string>{"isr_shrink", "isr_expand"});
  CHECK(events[0].changed == Ids{2});
  CHECK(events[1].changed == Ids{3});
}

TEST_CASE("ELR changes count when both looks report an ELR, its order does not", "[live][events]") {
  auto before = view(1, 4, {1});
  auto after = view(1, 4, {1});
  before.topics[0].partitions[0].elr = Ids{2, 3};
  after.topics[0].partitions[0].elr = Ids{3, 2};
  CHECK(events_between(before, after).empty());
  after.topics[0].partitions[0].elr = Ids{3};
  CHECK(kinds(events_between(before, after)) == std::vector<std::string>{"elr_change"});
  after.topics[0].partitions[0].elr.reset();
  CHECK(events_between(before, after).empty());
}

TEST_CASE("replica order changes count (the first replica is the preferred leader)",
          "[live][events]") {
  auto before = view(1, 4, {1, 2, 3});
  auto after = view(1, 4, {1, 2, 3});
  after.topics[0].partitions[0].replicas = {2, 1, 3};
  CHECK(kinds(events_between(before, after)) == std::vector<std::string>{"replicas_change"});
}

TEST_CASE("topics created and deleted, a new topic's partitions are not changes",
          "[live][events]") {
  auto before = view(1, 4, {1, 2, 3});
  auto after = before;
  after.topics[0].name = "u";
  after.topics[0].partitions[0].topic = "u";
  auto events = events_between(before, after);
  REQUIRE(kinds(events) == std::vector<std::string>{"topic_created", "topic_deleted"});
  CHECK(events[0].topic == "u");
  CHECK(events[1].topic == "t");
}

TEST_CASE(
    "a leader from outside the last ISR is an unclean election (offline partition led "
    "by another broker, or a dead leader replaced directly)",
    "[live][events]") {
  // Leaderless with its last ISR member 3 (ELR off): broker 1 leads, never in the ISR.
  auto up = events_between(view(kNoLeader, 8, {3}), view(1, 9, {1}));
  REQUIRE(kinds(up) == std::vector<std::string>{"partition_online", "isr_shrink", "isr_expand"});
  CHECK(up[0].new_leader == 1);
  CHECK(up[0].unclean_election);
  CHECK(up[0].last_isr == Ids{3});
  // The last ISR member itself returning is clean.
  CHECK_FALSE(events_between(view(kNoLeader, 8, {3}), view(3, 9, {3}))[0].unclean_election);
  // ZooKeeper mode: the dead leader stays listed until its session expires, then broker 1
  // (outside the ISR) takes over in one look.
  auto direct = events_between(view(3, 7, {3}), view(1, 8, {1}));
  REQUIRE(kinds(direct)[0] == "leader_change");
  CHECK(direct[0].unclean_election);
  // A clean move within the ISR.
  CHECK_FALSE(events_between(view(2, 5, {2, 3}), view(3, 6, {3}))[0].unclean_election);
}
