// Pins what `cluster predict` decides for a stopped broker's replica before and while it asks
// the live leader: LogManager.findStrayReplicas (by topic id and replica set), the
// controller's election when the broker returns (handleBrokerUnfenced), and the follower's
// question-by-question exchange, which must reach the same forecast as offline `predict`
// against the leader's replica (the replicas are Kafka-written fixtures).
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/forecast/restart_forecast.hpp"

using namespace kepoch;
using namespace kepoch::forecast;
namespace fs = std::filesystem;

namespace {

const fs::path kBefore = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/divergence/before";

// The cluster as a view of one topic `d` whose partition 0 is led by `leader`.
live::ClusterView view_of(std::int32_t leader, std::vector<std::int32_t> isr,
                          const std::string& topic_id) {
  live::PartitionView p;
  p.topic = "d";
  p.partition = 0;
  p.leader = leader;
  p.leader_epoch = 2;
  p.replicas = {1, 2, 3};
  p.isr = std::move(isr);
  p.log_start_offset = 0;
  live::TopicView t;
  t.name = "d";
  t.topic_id = topic_id;
  t.partitions = {p};
  live::ClusterView v;
  v.topics = {t};
  return v;
}

std::string fixture_topic_id() {
  return load_partition_replica(kBefore / "broker-1/d-0").topic_id->to_string();
}

}  // namespace

TEST_CASE("findStrayReplicas: a replica whose topic id or replica set the cluster lost is stray",
          "[forecast]") {
  const live::ClusterView gone = view_of(2, {2, 3}, "AAAAAAAAAAAAAAAAAAAAAQ");
  RestartContext c{1, {2, 3}, &gone};
  const PartitionRestart recreated = classify(load_partition_replica(kBefore / "broker-1/d-0"), c);
  CHECK(recreated.outcome == RestartOutcome::stray);
  CHECK_THAT(recreated.reason, Catch::Contains("deleted and created again"));

  live::ClusterView moved = view_of(2, {2, 3}, fixture_topic_id());
  moved.topics[0].partitions[0].replicas = {2, 3};
  c.view = &moved;
  CHECK(classify(load_partition_replica(kBefore / "broker-1/d-0"), c).outcome ==
        RestartOutcome::stray);

  const live::ClusterView empty;
  c.view = &empty;
  CHECK(classify(load_partition_replica(kBefore / "broker-1/d-0"), c).outcome ==
        RestartOutcome::stray);
}

TEST_CASE("A topic the Metadata answer leaves out is stray only when Kafka says it does not exist",
          "[forecast]") {
  const live::ClusterView empty;
  RestartContext c{1, {2, 3}, &empty};
  // Asked by name: this principal may not describe it. Unknown, never "deleted".
  c.missing_topic_errors = {{"d", 29}};
  const PartitionRestart hidden = classify(load_partition_replica(kBefore / "broker-1/d-0"), c);
  CHECK(hidden.outcome == RestartOutcome::unanswered);
  CHECK(hidden.leader_error == 29);
  CHECK_THAT(hidden.reason, Catch::Contains("not described to this principal"));
  CHECK_THAT(hidden.reason, Catch::Contains("TOPIC_AUTHORIZATION_FAILED"));
  // It could not be asked: unknown too.
  c.missing_topic_errors = {{"d", -1}};
  const PartitionRestart unasked = classify(load_partition_replica(kBefore / "broker-1/d-0"), c);
  CHECK(unasked.outcome == RestartOutcome::unanswered);
  CHECK_THAT(unasked.reason, Catch::Contains("unknown"));
  // Kafka says it does not exist: stray.
  c.missing_topic_errors = {{"d", 3}};
  CHECK(classify(load_partition_replica(kBefore / "broker-1/d-0"), c).outcome ==
        RestartOutcome::stray);
}

TEST_CASE("handleBrokerUnfenced: the last ISR member of a leaderless partition leads on return",
          "[forecast]") {
  const live::ClusterView v = view_of(-1, {1}, fixture_topic_id());
  RestartContext c{1, {2, 3}, &v};
  const PartitionRestart r = classify(load_partition_replica(kBefore / "broker-1/d-0"), c);
  CHECK(r.outcome == RestartOutcome::leads);
  REQUIRE(r.election);
  CHECK(r.election->election.node == 1);
  CHECK_FALSE(next_question(r));
  // Broker 1 of the fixture crashed (no .kafka_cleanshutdown) and ELR is off: its log may have
  // lost writes it had not flushed that brokers 2 and 3 hold, and they truncate to it.
  CHECK_THAT(r.lead_risk, Catch::Contains("did not shut down cleanly"));

  // Not in the ISR (whose only member, broker 3, is down), unclean election off: the
  // partition stays offline.
  const live::ClusterView other = view_of(-1, {3}, fixture_topic_id());
  RestartContext without_3{1, {2}, &other};
  CHECK(classify(load_partition_replica(kBefore / "broker-1/d-0"), without_3).outcome ==
        RestartOutcome::leaderless);
}

TEST_CASE("A follower's questions to its live leader reach offline predict's forecast",
          "[forecast]") {
  const PartitionReplica leader = load_partition_replica(kBefore / "broker-2/d-0");
  const live::ClusterView v = view_of(2, {2, 3}, fixture_topic_id());
  RestartContext c{1, {2, 3}, &v};
  PartitionRestart r = classify(load_partition_replica(kBefore / "broker-1/d-0"), c);
  REQUIRE(r.outcome == RestartOutcome::follows);

  // The leader answers as its replica does (UnifiedLog.endOffsetForEpoch on its cache).
  std::vector<std::int32_t> asked;
  while (const auto epoch = next_question(r)) {
    asked.push_back(*epoch);
    const EpochEntry e =
        leader.as_leader.cache.end_offset_for(*epoch, leader.as_leader.log_end_offset);
    record_answer(r, *epoch, 0, e.epoch, e.start_offset);
    REQUIRE(asked.size() < 10);
  }
  // First the leader's own epoch (its log end offset), then the follower's latest epoch.
  REQUIRE(asked.size() == 2);
  CHECK(asked[0] == 2);
  CHECK(asked[1] == r.replica.loaded.cache.latest_epoch());
  CHECK(r.answers.log_end_offset == leader.as_leader.log_end_offset);

  const LeaderBatchLookup batches = [&](std::int64_t from, std::int64_t until) {
    return batches_from(leader, from, until);
  };
  const ReplicaForecast live =
      forecast_replica(r.answers, batches, "leader", r.replica, TruncationMode::fetch);
  const ReplicaForecast offline = forecast_replica(leader, r.replica, TruncationMode::fetch);
  CHECK(live.prediction.truncate_to == offline.prediction.truncate_to);
  CHECK(live.prediction.rounds.size() == offline.prediction.rounds.size());
  CHECK(live.removed_records == offline.removed_records);
  CHECK(live.lost_records == offline.lost_records);
  CHECK(live.committed_lost_records == offline.committed_lost_records);
  CHECK(live.prediction.truncate_to < r.replica.log_end_offset);  // the fixture diverges
}

TEST_CASE("A leader's error (FENCED_LEADER_EPOCH: leadership moved) leaves the replica unanswered",
          "[forecast]") {
  const live::ClusterView v = view_of(2, {2, 3}, fixture_topic_id());
  RestartContext c{1, {2, 3}, &v};
  PartitionRestart r = classify(load_partition_replica(kBefore / "broker-1/d-0"), c);
  record_answer(r, 2, cluster::protocol::errors::kFencedLeaderEpoch, -1, -1);
  CHECK(r.outcome == RestartOutcome::unanswered);
  CHECK_THAT(r.reason, Catch::Contains("FENCED_LEADER_EPOCH"));
  CHECK_FALSE(next_question(r));
}

TEST_CASE("A broker that leads on return after a clean shutdown, or alone, risks nothing more",
          "[forecast]") {
  // Elected cleanly (the last ISR member) after a clean shutdown: its log holds what was
  // acknowledged. Alone (replication factor 1): no other replica truncates to it.
  char tmpl[] = "/tmp/kepoch-leads-XXXXXX";
  const fs::path dir = ::mkdtemp(tmpl);
  fs::copy(kBefore / "broker-1", dir, fs::copy_options::recursive);
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add);
  std::ofstream(dir / ".kafka_cleanshutdown").put('\n');
  const live::ClusterView v = view_of(-1, {1}, fixture_topic_id());
  RestartContext c{1, {2, 3}, &v};
  const PartitionRestart clean = classify(load_partition_replica(dir / "d-0"), c);
  REQUIRE(clean.outcome == RestartOutcome::leads);
  CHECK(clean.lead_risk.empty());
  live::ClusterView alone = view_of(-1, {1}, fixture_topic_id());
  alone.topics[0].partitions[0].replicas = {1};
  RestartContext c1{1, {2, 3}, &alone};
  const PartitionRestart solo = classify(load_partition_replica(kBefore / "broker-1/d-0"), c1);
  REQUIRE(solo.outcome == RestartOutcome::leads);
  CHECK(solo.lead_risk.empty());
  // An unclean election (unclean.leader.election.enable, broker 1 outside the ISR {3}, no
  // other broker alive), after a clean shutdown too: the others truncate to its log.
  live::ClusterView unclean = view_of(-1, {3}, fixture_topic_id());
  unclean.topics[0].configs["unclean.leader.election.enable"] = "true";
  RestartContext cu{1, {}, &unclean};
  const PartitionRestart u = classify(load_partition_replica(dir / "d-0"), cu);
  REQUIRE(u.outcome == RestartOutcome::leads);
  REQUIRE(u.election);
  CHECK(u.election->election.unclean);
  CHECK_THAT(u.lead_risk, Catch::Contains("unclean"));
  fs::remove_all(dir);
}
