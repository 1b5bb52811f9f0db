// Pins what the ZooKeeper-mode controller of Kafka 3.9 does to a partition when brokers stop
// (core/src/main/scala/kafka/controller: KafkaController.onBrokerFailure ->
// onReplicasBecomeOffline, doControlledShutdown, onControllerFailover; ZkPartitionStateMachine
// with Election.leaderForOffline / leaderForControlledShutdown; ZkReplicaStateMachine's
// OfflineReplica -> doRemoveReplicasFromIsr), and `cluster what-if` on a ZooKeeper-mode view.
#include <catch2/catch.hpp>

#include "kepoch/live/stop_forecast.hpp"
#include "kepoch/live/zk_controller.hpp"

using namespace kepoch::live;
using kepoch::PartitionState;

namespace {

using Ids = std::vector<std::int32_t>;

PartitionState state(Ids replicas, Ids isr, std::int32_t leader, std::int32_t epoch = 5) {
  PartitionState s;
  s.replicas = std::move(replicas);
  s.isr = std::move(isr);
  s.leader = leader;
  s.leader_epoch = epoch;
  return s;
}

}  // namespace

TEST_CASE(
    "ZK offlinePartitionLeaderElection: first live ISR member in assignment order, "
    "unclean only when allowed",
    "[live][zk]") {
  using zk::offline_partition_leader_election;
  CHECK(offline_partition_leader_election({2, 3, 1}, {1, 3}, {1, 3}, false).leader == 3);
  CHECK(offline_partition_leader_election({2, 3, 1}, {2}, {1, 3}, false).leader == kNoLeader);
  const auto unclean = offline_partition_leader_election({2, 3, 1}, {2}, {1, 3}, true);
  CHECK(unclean.leader == 3);
  CHECK(unclean.unclean);
}

TEST_CASE(
    "ZK onBrokerFailure, a follower dies: the leader stays, the ISR shrinks, and the "
    "leader epoch bumps (doRemoveReplicasFromIsr writes newLeaderAndIsr)",
    "[live][zk]") {
  const auto c = zk::on_broker_failure(state({1, 2, 3}, {1, 2, 3}, 1), 2, {1, 3}, false);
  CHECK(c.after.leader == 1);
  CHECK(c.after.isr == Ids{1, 3});
  CHECK(c.after.leader_epoch == 6);
  CHECK_FALSE(c.leader_changed);
}

TEST_CASE(
    "ZK onBrokerFailure, the leader dies: leaderForOffline elects once (epoch + 1), and "
    "OfflineReplica then finds it out of the ISR",
    "[live][zk]") {
  const auto c = zk::on_broker_failure(state({2, 3, 1}, {2, 1, 3}, 2), 2, {1, 3}, false);
  CHECK(c.after.leader == 3);       // assignment order, not ISR order
  CHECK(c.after.isr == Ids{1, 3});  // the ISR's order, without the dead broker
  CHECK(c.after.leader_epoch == 6);
  CHECK(c.leader_changed);
}

TEST_CASE(
    "ZK onBrokerFailure, the last ISR member dies: leader none, the ISR keeps it, "
    "epoch + 1",
    "[live][zk]") {
  const auto c = zk::on_broker_failure(state({2, 3}, {2}, 2), 2, {1, 3}, false);
  CHECK(c.after.leader == kNoLeader);
  CHECK(c.after.isr == Ids{2});
  CHECK(c.after.leader_epoch == 6);
  CHECK_FALSE(c.leader_changed);
}

TEST_CASE(
    "ZK onBrokerFailure with unclean.leader.election.enable: a live replica outside the "
    "ISR leads, RECOVERING, ISR just it, one bump",
    "[live][zk]") {
  const auto c = zk::on_broker_failure(state({2, 3, 1}, {2}, 2), 2, {1, 3}, true);
  CHECK(c.after.leader == 3);
  CHECK(c.after.isr == Ids{3});
  CHECK(c.after.recovering);
  CHECK(c.after.leader_epoch == 6);
  CHECK(c.unclean);
}

TEST_CASE("ZK onBrokerFailure leaves a partition without the dead broker alone", "[live][zk]") {
  const auto c = zk::on_broker_failure(state({1, 3}, {1, 3}, 1), 2, {1, 3}, false);
  CHECK(c.after.leader_epoch == 5);
  CHECK(c.epoch_bumps == 0);
}

TEST_CASE(
    "ZK doControlledShutdown: a led partition elects the next live ISR member and "
    "drops the broker from the ISR (one bump), a followed one loses it from the ISR "
    "(one bump), the last ISR member keeps leading",
    "[live][zk]") {
  const std::set<std::int32_t> live{1, 2, 3};
  const auto led = zk::controlled_shutdown(state({2, 3, 1}, {2, 3, 1}, 2), 2, live);
  CHECK(led.after.leader == 3);
  CHECK(led.after.isr == Ids{3, 1});
  CHECK(led.after.leader_epoch == 6);
  const auto followed = zk::controlled_shutdown(state({1, 2, 3}, {1, 2, 3}, 1), 2, live);
  CHECK(followed.after.leader == 1);
  CHECK(followed.after.isr == Ids{1, 3});
  CHECK(followed.after.leader_epoch == 6);
  const auto sole = zk::controlled_shutdown(state({2, 3}, {2}, 2), 2, live);
  CHECK(sole.after.leader == 2);
  CHECK(sole.epoch_bumps == 0);
  // One replica: partitionsToActOn leaves it out altogether.
  CHECK(zk::controlled_shutdown(state({2}, {2}, 2), 2, live).epoch_bumps == 0);
}

TEST_CASE(
    "ZK onControllerFailover: OfflineReplica first, then the election, so a partition "
    "the dead controller led gets two bumps",
    "[live][zk]") {
  const auto c = zk::controller_failover(state({2, 3, 1}, {2, 3, 1}, 2), {1, 3}, false);
  CHECK(c.after.leader == 3);
  CHECK(c.after.isr == Ids{3, 1});
  CHECK(c.after.leader_epoch == 7);
  // A leaderless partition whose last ISR member is dead is written again (+1).
  const auto stale = zk::controller_failover(state({1, 2}, {2}, kNoLeader), {1, 3}, false);
  CHECK(stale.after.leader == kNoLeader);
  CHECK(stale.after.leader_epoch == 6);
}

TEST_CASE("ZK AlterPartition: an ISR change the leader asks for keeps the leader epoch",
          "[live][zk]") {
  const auto p = zk::alter_partition_isr(state({1, 2, 3}, {1, 3}, 1), {1, 3, 2});
  CHECK(p.isr == Ids{1, 3, 2});
  CHECK(p.leader_epoch == 5);
}

namespace {

ClusterView zk_view(std::int32_t controller) {
  ClusterView v;
  v.controller_id = controller;
  v.finalized_features = std::map<std::string, std::int16_t>{};
  v.api_keys = {0, 1, 3, 4, 5, 6, 7, 18};
  for (std::int32_t id : {1, 2, 3})
    v.brokers.push_back({id, "h", 9092, std::nullopt});
  TopicView t;
  t.name = "t";
  PartitionView p;
  p.topic = "t";
  p.replicas = {1, 2, 3};
  p.isr = {1, 2, 3};
  p.leader = 1;
  p.leader_epoch = 0;
  t.partitions.push_back(p);
  v.topics.push_back(t);
  return v;
}

}  // namespace

TEST_CASE(
    "Controller mode: no finalized metadata.version and LeaderAndIsr served is "
    "ZooKeeper mode, metadata.version is KRaft",
    "[live][zk]") {
  const auto zkm = controller_mode(zk_view(2));
  CHECK(zkm.kind == ControllerKind::zookeeper);
  CHECK(controller_mode_text(zkm) == "ZooKeeper mode (controller 2)");
  ClusterView kraft = zk_view(2);
  kraft.finalized_features = std::map<std::string, std::int16_t>{{"metadata.version", 27}};
  kraft.api_keys = {0, 1, 3, 18};
  CHECK(controller_mode_text(controller_mode(kraft)) == "KRaft");
  ClusterView unread;
  CHECK(controller_mode(unread).kind == ControllerKind::unknown);
}

TEST_CASE("what-if on a ZooKeeper-mode cluster applies the ZooKeeper controller's rules",
          "[live][zk][what-if]") {
  // Broker 2 follows: the KRaft controller keeps the epoch, the ZooKeeper one bumps it.
  const auto f = forecast_stop(zk_view(3), {2}, ShutdownKind::controlled);
  CHECK(f.controller.kind == ControllerKind::zookeeper);
  REQUIRE(f.partitions.size() == 1);
  CHECK(f.partitions[0].after.leader == 1);
  CHECK(f.partitions[0].after.isr == Ids{1, 3});
  CHECK(f.partitions[0].after.leader_epoch == 1);
  // The controller (1) killed while it leads: failover, two bumps.
  const auto k = forecast_stop(zk_view(1), {1}, ShutdownKind::kill);
  CHECK(k.controller_stopped);
  CHECK(k.partitions[0].after.leader == 2);
  CHECK(k.partitions[0].after.leader_epoch == 2);
  // The same killed broker when it is not the controller: one bump.
  CHECK(forecast_stop(zk_view(3), {1}, ShutdownKind::kill).partitions[0].after.leader_epoch == 1);
}
