// Pins offline predict's forecast (forecast/election_forecast) on the divergence fixture
// (tests/data/divergence/before, Kafka 4.1.1, ELR off): the ISR had shrunk to [1] when
// broker 1 died; Kafka's controller then wrote leader=-1 (no clean leader among brokers 2
// and 3) and, on an unclean election request, leader=2 (PartitionChangeBuilder.electLeader's
// unclean branch); broker 1 came back and truncated to offset 5 (its b-0..2 removed).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "kepoch/base/error.hpp"
#include "kepoch/forecast/election_forecast.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;

namespace {

std::string replica_dir(int broker) {
  return std::string(KEPOCH_SOURCE_DIR) + "/tests/data/divergence/before/broker-" +
         std::to_string(broker) + "/d-0";
}

std::vector<std::string> dirs() {
  return {replica_dir(1), replica_dir(2), replica_dir(3)};
}

ElectionSetting kafka_state(bool unclean) {
  ElectionSetting s;
  s.ids = {1, 2, 3};
  s.isr = {1};
  s.alive = {2, 3};
  s.unclean = unclean;
  return s;
}

// The replicas in the order predict reads them: the elected one first.
std::vector<PartitionReplica> load_led_by(std::size_t leader) {
  std::vector<PartitionReplica> out;
  const auto all = dirs();
  out.push_back(load_partition_replica(all[leader], {}, LoadDepth::tail));
  for (std::size_t i = 0; i < all.size(); ++i)
    if (i != leader) out.push_back(load_partition_replica(all[i], {}, LoadDepth::tail));
  return out;
}

}  // namespace

TEST_CASE("No member of the ISR alive and unclean election off: nobody leads (electLeader)",
          "[forecast][election_forecast]") {
  const Election e = elect_among(dirs(), kafka_state(false));
  CHECK(e.change.election.node == kNoLeader);
  CHECK_FALSE(e.leader_argument);
}

TEST_CASE(
    "Unclean election: broker 2 leads as Kafka chose, broker 1 truncates to 5 and loses "
    "b-0..2, whose commit cannot be ruled out",
    "[forecast][election_forecast]") {
  Election e = elect_among(dirs(), kafka_state(true));
  REQUIRE(e.leader_argument == 1u);
  CHECK(e.change.election.unclean);
  CHECK(e.change.after.isr == std::vector<std::int32_t>{2});
  CHECK(e.change.after.recovering);  // LeaderRecoveryState.RECOVERING

  const TruncationPredictions p =
      predict_truncations({load_led_by(1)}, {TruncationMode::fetch}, &e);
  REQUIRE(p.partitions.size() == 1);
  const PartitionPrediction& part = p.partitions.front();
  // Partition.makeLeader: the new epoch is above every epoch the replicas hold, added to
  // the leader's cache at its log end.
  CHECK(e.new_leader_epoch == part.new_leader_epoch);
  CHECK(part.replicas.front().as_leader.cache.latest_epoch() == part.new_leader_epoch);
  REQUIRE(part.followers.size() == 2);
  const ReplicaForecast& broker1 = part.followers[0].forecasts.front();
  CHECK(broker1.prediction.truncate_to == 5);
  CHECK(broker1.lost_records == 3);
  // An unclean leader need not hold what was committed, and broker 1 crashed (its high
  // watermark checkpoint may lag): unknown, never safe.
  CHECK(broker1.committed_loss_unknown);
  const ReplicaForecast& broker3 = part.followers[1].forecasts.front();
  CHECK(broker3.prediction.truncate_to == 9);
  CHECK(broker3.lost_records == 0);
  CHECK(part.truncate_to ==
        std::vector<std::optional<std::int64_t>>{std::nullopt, std::int64_t{5}, std::int64_t{9}});
  CHECK(p.committed_loss);
}

TEST_CASE(
    "A clean leader holds every committed record: broker 1 returning alone in the ISR "
    "leads, and brokers 2 and 3 drop c-0..3, committed by broker 3's high watermark",
    "[forecast][election_forecast]") {
  ElectionSetting s = kafka_state(false);
  s.alive = {1, 2, 3};
  Election e = elect_among(dirs(), s);
  REQUIRE(e.leader_argument == 0u);
  CHECK(e.clean());
  CHECK(e.change.election.branch == "first_valid_replica");
  const TruncationPredictions p =
      predict_truncations({load_led_by(0)}, {TruncationMode::fetch, TruncationMode::hw}, &e);
  const PartitionPrediction& part = p.partitions.front();
  CHECK(part.new_leader_epoch == 3);
  for (const auto& f : part.followers) {
    REQUIRE(f.forecasts.size() == 2);  // one per mode, the first the main one
    CHECK(f.forecasts.front().mode == TruncationMode::fetch);
    CHECK(f.forecasts.front().prediction.truncate_to == 5);
  }
  CHECK(p.committed_loss);
}

TEST_CASE("Broker ids: one replica per broker, and the counts must match",
          "[forecast][election_forecast]") {
  CHECK_THROWS_AS(argument_broker_ids(dirs(), {1, 1, 2}), UsageError);
  CHECK_THROWS_AS(argument_broker_ids(dirs(), {1, 2}), UsageError);
  // The fixture's copies carry no meta.properties: the ids must be given.
  CHECK_THROWS_AS(argument_broker_ids(dirs(), {}), UsageError);
  // A broker that would lead without a replica among the arguments.
  ElectionSetting s;
  s.ids = {1, 2, 3};
  s.replicas = {4, 1, 2, 3};
  s.isr = {4};
  s.alive = {4};
  CHECK_THROWS_AS(elect_among(dirs(), s), UsageError);
}
