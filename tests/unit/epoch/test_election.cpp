// Pins the KRaft controller's leader election (PartitionChangeBuilder) with the vectors of
// PartitionChangeBuilderTest, and the fencing/unfencing the controller runs on broker loss
// and return (ReplicationControlManager.generateLeaderAndIsrUpdates).
#include <catch2/catch.hpp>

#include "kepoch/epoch/election.hpp"

using namespace kepoch;
using Ids = std::vector<std::int32_t>;

namespace {

PartitionState foo() {  // PartitionChangeBuilderTest.FOO
  PartitionState p;
  p.replicas = {2, 1, 3};
  p.isr = {2, 1, 3};
  p.leader = 1;
  p.leader_epoch = 100;
  return p;
}

PartitionState baz() {  // PartitionChangeBuilderTest.BAZ
  PartitionState p;
  p.replicas = {2, 1, 3};
  p.isr = {1, 3};
  p.leader = 3;
  p.leader_epoch = 100;
  return p;
}

PartitionChangeRequest request(const PartitionState& p, std::set<std::int32_t> acceptable,
                               ElectionType type = ElectionType::online) {
  PartitionChangeRequest r;
  r.target_isr = p.isr;
  r.acceptable = std::move(acceptable);
  r.election = type;
  r.min_isr = 2;
  return r;
}

ElectionResult elect(const PartitionState& p, const PartitionChangeRequest& r) {
  return elect_leader(p, r.target_isr, p.elr, r);
}

}  // namespace

TEST_CASE("PartitionChangeBuilderTest.testElectLeader", "[election]") {
  const auto not3 = std::set<std::int32_t>{1, 2, 4};
  auto check = [](ElectionResult got, std::int32_t node, bool unclean) {
    CHECK(got.node == node);
    CHECK(got.unclean == unclean);
  };
  check(elect(foo(), request(foo(), not3, ElectionType::preferred)), 2, false);
  check(elect(foo(), request(foo(), not3)), 1, false);
  check(elect(foo(), request(foo(), not3, ElectionType::unclean)), 1, false);

  auto isr13 = request(foo(), not3);
  isr13.target_isr = {1, 3};
  check(elect(foo(), isr13), 1, false);
  isr13.election = ElectionType::unclean;
  check(elect(foo(), isr13), 1, false);

  auto isr3 = request(foo(), not3);
  isr3.target_isr = {3};
  check(elect(foo(), isr3), kNoLeader, false);
  isr3.election = ElectionType::unclean;
  check(elect(foo(), isr3), 2, true);
  CHECK(elect(foo(), isr3).branch == "unclean_first_acceptable");

  // setTargetReplicas(2, 1, 3, 4) with target ISR {4}: 4 is in the ISR, a clean leader.
  PartitionState four = foo();
  four.replicas = {2, 1, 3, 4};
  auto isr4 = request(four, not3, ElectionType::unclean);
  isr4.target_isr = {4};
  check(elect(four, isr4), 4, false);

  const auto all = std::set<std::int32_t>{1, 2, 3};
  check(elect(baz(), request(baz(), all, ElectionType::preferred)), 3, false);
  check(elect(baz(), request(baz(), all)), 3, false);
  check(elect(baz(), request(baz(), all, ElectionType::unclean)), 3, false);
  CHECK(elect(baz(), request(baz(), all)).branch == "current_leader");
}

TEST_CASE("PartitionChangeBuilderTest.testUncleanLeaderElection", "[election]") {
  // FOO, target ISR {3} (not acceptable): unclean election of 2, ISR {2}, RECOVERING.
  auto r = request(foo(), {1, 2, 4}, ElectionType::unclean);
  r.target_isr = {3};
  const PartitionChange c = change_partition(foo(), r);
  CHECK(c.leader_changed);
  CHECK(c.after.leader == 2);
  CHECK(c.after.isr == Ids{2});
  CHECK(c.after.recovering);
  CHECK(c.after.leader_epoch == 101);

  // OFFLINE_WITH_ELR: ISR {}, ELR {3}, last known ELR {2}, acceptable only 1, min ISR 2.
  PartitionState offline;
  offline.replicas = {2, 1, 3};
  offline.elr = {3};
  offline.last_known_elr = {2};
  auto u = request(offline, {1}, ElectionType::unclean);
  u.elr_enabled = true;
  const PartitionChange e = change_partition(offline, u);
  CHECK(e.after.leader == 1);
  CHECK(e.election.unclean);
  CHECK(e.after.isr == Ids{1});
  CHECK(e.after.elr.empty());             // an unclean election clears the ELR
  CHECK(e.after.last_known_elr.empty());  // and the last known leader
  CHECK(e.after.recovering);

  // OFFLINE_WITHOUT_ELR: ISR {3}, leader -1, acceptable only 1.
  PartitionState plain;
  plain.replicas = {2, 1, 3};
  plain.isr = {3};
  const PartitionChange p = change_partition(plain, request(plain, {1}, ElectionType::unclean));
  CHECK(p.after.leader == 1);
  CHECK(p.after.isr == Ids{1});
  CHECK(change_partition(plain, request(plain, {1})).after.leader == kNoLeader);
}

TEST_CASE("PartitionChangeBuilderTest.testEligibleLeaderReplicas_IsrShrinkBelowMinISR",
          "[election]") {
  PartitionState p;
  p.replicas = {1, 2, 3, 4};
  p.isr = {1, 2, 3, 4};
  p.leader = 1;
  p.leader_epoch = 100;
  auto r = request(p, {1, 2, 4}, ElectionType::preferred);
  r.min_isr = 3;
  r.elr_enabled = true;
  r.target_isr = {1, 2};
  const PartitionChange c = change_partition(p, r);
  CHECK_FALSE(c.leader_changed);  // 1 is preferred and still valid
  CHECK(c.after.isr == Ids{1, 2});
  CHECK(c.after.elr == Ids{3, 4});
  CHECK(c.after.leader_epoch == 100);
}

TEST_CASE("Electing from the ELR when the ISR is empty (isValidNewLeader)", "[election]") {
  PartitionState p;
  p.replicas = {1, 2, 3};
  p.elr = {2, 3};
  auto r = request(p, {3});
  r.elr_enabled = true;
  r.target_isr = {};
  const PartitionChange c = change_partition(p, r);
  CHECK(c.after.leader == 3);
  CHECK_FALSE(c.election.unclean);
  CHECK(c.after.isr == Ids{3});  // tryElection: a leader from the ELR becomes the ISR
  CHECK(c.after.elr == Ids{2});
}

TEST_CASE("Fencing and unfencing brokers one by one (generateLeaderAndIsrUpdates)", "[election]") {
  PartitionState p;
  p.replicas = {1, 2, 3};
  p.isr = {1, 2, 3};
  p.leader = 1;
  p.leader_epoch = 0;
  std::set<std::int32_t> active{1, 2, 3};

  SECTION("ELR off: the last ISR member stays in the ISR and leads again when back") {
    PartitionChange c = fence_broker(p, 1, active, false, false, 2);
    CHECK(c.after.leader == 2);
    CHECK(c.after.isr == Ids{2, 3});
    CHECK(c.after.leader_epoch == 1);
    active.erase(1);
    c = fence_broker(c.after, 2, active, false, false, 2);
    active.erase(2);
    CHECK(c.after.leader == 3);
    CHECK(c.after.isr == Ids{3});
    c = fence_broker(c.after, 3, active, false, false, 2);
    active.erase(3);
    CHECK(c.after.leader == kNoLeader);
    CHECK(c.after.isr == Ids{3});  // an ISR never empties without ELR
    CHECK(c.after.leader_epoch == 3);

    const PartitionState offline = c.after;
    SECTION("the old leader returns: not in the ISR, no clean leader") {
      const PartitionChange back = unfence_broker(offline, 1, active, false, false, 2);
      CHECK_FALSE(back.leader_changed);
      CHECK(back.after.leader == kNoLeader);
    }
    SECTION("the old leader returns with unclean election on: it leads, ISR {1}") {
      const PartitionChange back = unfence_broker(offline, 1, active, true, false, 2);
      CHECK(back.after.leader == 1);
      CHECK(back.election.unclean);
      CHECK(back.after.isr == Ids{1});
      CHECK(back.after.leader_epoch == 4);
    }
    SECTION("the last ISR member returns: a clean election") {
      const PartitionChange back = unfence_broker(offline, 3, active, false, false, 2);
      CHECK(back.after.leader == 3);
      CHECK_FALSE(back.election.unclean);
    }
  }

  SECTION("ELR on (min ISR 2): fenced ISR members become eligible, the ISR may empty") {
    PartitionChange c = fence_broker(p, 1, active, false, true, 2);
    active.erase(1);
    CHECK(c.after.isr == Ids{2, 3});
    CHECK(c.after.elr.empty());
    c = fence_broker(c.after, 2, active, false, true, 2);
    active.erase(2);
    CHECK(c.after.leader == 3);
    CHECK(c.after.isr == Ids{3});
    CHECK(c.after.elr == Ids{2});
    c = fence_broker(c.after, 3, active, false, true, 2);
    active.erase(3);
    CHECK(c.after.leader == kNoLeader);
    CHECK(c.after.isr.empty());
    CHECK(c.after.elr == Ids{2, 3});
    CHECK(c.after.last_known_elr == Ids{3});
    // Broker 2 returns: an ELR member with the ISR empty, so a clean leader.
    const PartitionChange back = unfence_broker(c.after, 2, active, false, true, 2);
    CHECK(back.after.leader == 2);
    CHECK_FALSE(back.election.unclean);
    CHECK(back.after.isr == Ids{2});
    CHECK(back.after.elr == Ids{3});
    CHECK(back.after.last_known_elr.empty());
  }
}

TEST_CASE("A broker back from a crash leaves the ELR (handleBrokerUncleanShutdown)", "[election]") {
  PartitionState p;
  p.replicas = {1, 2, 3};
  p.elr = {2, 3};
  p.last_known_elr = {3};
  const PartitionChange c = unclean_shutdown_broker(p, 2, {}, false, true, 2);
  CHECK(c.after.elr == Ids{3});
  CHECK(c.after.leader == kNoLeader);
  // Then unfenced: no longer eligible, so no clean leader; 3 still is once it returns.
  CHECK(unfence_broker(c.after, 2, {}, false, true, 2).after.leader == kNoLeader);
  CHECK(unfence_broker(c.after, 3, {}, false, true, 2).after.leader == 3);
}

// PartitionChangeBuilder.canElectLastKnownLeader returns false while the last known leader is
// not acceptable (Kafka 4.1.1 and 4.4.0). Kafka 4.4.0, a partition whose only replica was
// killed (ISR none, ELR [3], last known ELR [3]): on its return handleBrokerUncleanShutdown
// takes 3 out of the ELR and elects nobody (3 is still fenced); handleBrokerUnfenced then
// elects it as the last known leader, uncleanly (leader recovery state RECOVERING).
TEST_CASE("The last known leader is elected only once acceptable (canElectLastKnownLeader)",
          "[election]") {
  PartitionState p;
  p.replicas = {3};
  p.elr = {3};
  p.last_known_elr = {3};
  p.leader = kNoLeader;
  p.leader_epoch = 1;
  const PartitionChange back = unclean_shutdown_broker(p, 3, {1, 2}, false, true, 1);
  CHECK_FALSE(back.leader_changed);
  CHECK(back.after.leader == kNoLeader);
  CHECK(back.after.elr.empty());
  CHECK(back.after.last_known_elr == std::vector<std::int32_t>{3});
  const PartitionChange up = unfence_broker(back.after, 3, {1, 2}, false, true, 1);
  CHECK(up.leader_changed);
  CHECK(up.election.node == 3);
  CHECK(up.election.unclean);
  CHECK(up.after.leader == 3);
  CHECK(up.after.leader_epoch == 2);
  CHECK(up.after.isr == std::vector<std::int32_t>{3});
  CHECK(up.after.recovering);
  CHECK(up.after.last_known_elr.empty());
}
