// The report of `kepoch plan` (report/recovery_plan_report): a partition led by a live broker
// with its ISR below min.insync.replicas is listed and counted (Kafka refuses acks=all writes
// to it with NOT_ENOUGH_REPLICAS), not hidden as healthy; each partition says where its
// min.insync.replicas and unclean.leader.election.enable came from.
#include <catch2/catch.hpp>

#include "kepoch/report/predict_report.hpp"
#include "kepoch/report/recovery_plan_report.hpp"
#include "kepoch/report/timeline.hpp"
#include "support/forecast_fixtures.hpp"

using namespace kepoch;
using namespace kepoch::forecast;
using namespace kepoch::report;

namespace {

PlanPartitionInput led_by_2(std::int32_t partition, std::vector<std::int32_t> isr) {
  PlanPartitionInput in;
  in.topic = "t";
  in.partition = partition;
  in.state.replicas = {1, 2, 3};
  in.state.isr = std::move(isr);
  in.state.leader = 2;
  in.state.leader_epoch = 4;
  in.min_isr = 2;
  in.min_isr_source = forecast::ConfigSource::static_broker;
  in.unclean_source = forecast::ConfigSource::cluster_default;
  return in;
}

}  // namespace

TEST_CASE("under min ISR: listed, counted, and the verdict says acks=all writes are refused",
          "[report][recovery_plan]") {
  PlanInput input;
  input.live_brokers = {1, 2};
  input.partitions = {led_by_2(0, {2}), led_by_2(1, {1, 2})};
  const RecoveryPlan plan = plan_recovery(input);
  const std::string verdict = plan_verdict(plan);
  CHECK(verdict.find("1 of 2 partition(s)") != std::string::npos);
  CHECK(verdict.find("acks=all writes are refused on 1") != std::string::npos);
  const Value v = recovery_plan_value(plan, PlanContext{});
  CHECK(v.find("totals")->find("under_min_isr") != nullptr);
  CHECK(scalar_text(*v.find("totals")->find("under_min_isr")) == "1");
  const auto& parts = v.find("partitions")->as_array();
  REQUIRE(parts.size() == 1);  // the healthy one only with `all`
  CHECK(scalar_text(*parts[0].find("condition")) == "under_min_isr");
  CHECK(scalar_text(*parts[0].find("reason")).find("acks=all producers are refused") !=
        std::string::npos);
  CHECK(scalar_text(*parts[0].find("min_insync_replicas_source")) == "static");
  CHECK(scalar_text(*parts[0].find("unclean_leader_election_source")) == "cluster_default");
  PlanContext all;
  all.all = true;
  CHECK(recovery_plan_value(plan, all).find("partitions")->as_array().size() == 2);
}

TEST_CASE("every partition healthy: nothing to decide", "[report][recovery_plan]") {
  PlanInput input;
  input.live_brokers = {1, 2};
  input.partitions = {led_by_2(0, {1, 2})};
  const RecoveryPlan plan = plan_recovery(input);
  CHECK(plan_verdict(plan) == "All 1 partition(s) have a live leader: nothing to decide.");
  // Not said: null, not an empty text.
  PlanPartitionInput unsaid = led_by_2(0, {2});
  unsaid.min_isr_source = forecast::ConfigSource::unsaid;
  input.partitions = {unsaid};
  const Value v = recovery_plan_value(plan_recovery(input), PlanContext{});
  CHECK(v.find("partitions")->as_array()[0].find("min_insync_replicas_source")->is_null());
}

namespace {

// The recovery.md outage: broker 3 alone holds 10-14 (HW 15); 1 holds 0-4, 2 holds 0-9.
struct Outage {
  PartitionReplica b1 = test::replica_of("b1", {{0, 4, 1, 11}}, 5);
  PartitionReplica b2 = test::replica_of("b2", {{0, 4, 1, 11}, {5, 9, 1, 12}}, 5);
  PartitionReplica b3 = test::replica_of("b3", {{0, 4, 1, 11}, {5, 9, 1, 12}, {10, 14, 1, 13}}, 15);
  PlanPartitionInput partition(std::int32_t n, std::vector<std::int32_t> isr) const {
    PlanPartitionInput p;
    p.topic = "t";
    p.partition = n;
    p.state.replicas = {1, 2, 3};
    p.state.isr = std::move(isr);
    p.state.leader = kNoLeader;
    p.state.leader_epoch = 1;
    p.replicas = {{1, &b1}, {2, &b2}, {3, &b3}};
    return p;
  }
};

std::string file_of(const std::vector<CommandFile>& files, const std::string& name) {
  for (const auto& f : files)
    if (f.name == name) return f.contents;
  return "";
}

// Where TEXT first appears in S (npos: not there).
std::size_t at(const std::string& s, const std::string& text) {
  return s.find(text);
}

}  // namespace

TEST_CASE(
    "steps.sh from a total outage: each command has what it needs, a live broker before any "
    "Admin call, and each step checks its brokers",
    "[report][recovery_plan][steps]") {
  // Every broker down; broker 1 is the ISR member and holds the least; 3 holds the most.
  // The plan waits for 3 and elects it uncleanly once it is back: start 3 first (nothing is
  // live before), then the reorder (Admin API) and the election, then start 1 and 2, which
  // Kafka's rule (the first live replica in assignment order) must not pick.
  Outage o;
  PlanInput input;
  input.gone_brokers = {1};
  input.partitions = {o.partition(0, {1})};
  const RecoveryPlan plan = plan_recovery(input);
  REQUIRE(plan.partitions[0].kind == RecommendationKind::wait_for_broker);
  REQUIRE(plan.partitions[0].chosen == 3);
  const std::string steps = file_of(recovery_command_files(plan), "steps.sh");
  const auto start3 = at(steps, "start broker(s) 3 now");
  const auto live3 = at(steps, "need_live 1 3");
  const auto reorder = at(steps, "reorder.jsh\n");
  const auto elect = at(steps, "elect-after-start.json");
  const auto start_rest = at(steps, "start broker(s) 2 now");
  REQUIRE(start3 != std::string::npos);
  REQUIRE(live3 != std::string::npos);
  REQUIRE(reorder != std::string::npos);
  REQUIRE(elect != std::string::npos);
  REQUIRE(start_rest != std::string::npos);
  CHECK(start3 < live3);
  CHECK(live3 < reorder);  // the Admin call after a broker is live
  CHECK(reorder < elect);  // the chosen replica first before Kafka's unclean rule runs
  CHECK(elect < start_rest);
  // Every Admin call is preceded, in its step, by a check of the brokers it needs.
  CHECK(at(steps, "need_live 2 3") < elect);
  CHECK(at(steps, "not live at $BOOTSTRAP") != std::string::npos);  // says what is missing
}

TEST_CASE("steps.sh with a live broker: the election's replica is checked live first",
          "[report][recovery_plan][steps]") {
  Outage o;
  PlanInput input;
  input.live_brokers = {1, 2};
  input.gone_brokers = {3};
  input.partitions = {o.partition(0, {3})};
  const RecoveryPlan plan = plan_recovery(input);
  REQUIRE(plan.partitions[0].kind == RecommendationKind::elect_unclean);
  const std::string steps = file_of(recovery_command_files(plan), "steps.sh");
  const auto live2 = at(steps, "need_live 1 2");
  REQUIRE(live2 != std::string::npos);
  CHECK(live2 < at(steps, "reorder.jsh\n"));
  CHECK(at(steps, "reorder.jsh\n") < at(steps, "elect-now.json"));
}

TEST_CASE(
    "reasons: never 'loses nothing' on a lower bound, and lost records were acknowledged with "
    "acks=1 or acks=all (not 'acks=1' for all)",
    "[report][recovery_plan]") {
  Outage o;
  PlanPartitionInput in = o.partition(0, {3});
  in.replicas.erase(3);  // broker 3, the ISR member, not given
  PlanInput input;
  input.live_brokers = {1, 2};
  input.gone_brokers = {3};
  input.partitions = {in};
  RecoveryPlan plan = plan_recovery(input);
  std::string reason = recommendation_reason(plan.partitions[0]);
  CHECK(reason.find("loses nothing") == std::string::npos);
  CHECK(reason.find("loses no record the given states show") != std::string::npos);
  CHECK(reason.find("a committed loss cannot be ruled out") != std::string::npos);
  CHECK(reason.find("acks=1 producers") == std::string::npos);
  CHECK(plan_verdict(plan).find("loses at least") != std::string::npos);
  // Not gone: wait for broker 3, without claiming what it holds.
  input.gone_brokers.clear();
  plan = plan_recovery(input);
  reason = recommendation_reason(plan.partitions[0]);
  CHECK(reason.rfind("wait for broker 3", 0) == 0);
  CHECK(reason.find("loses nothing") == std::string::npos);
  CHECK(reason.find("(it holds every committed record)") == std::string::npos);
  // Every state given: exact, and then "loses nothing" is true of waiting for broker 3.
  input.partitions = {o.partition(0, {3})};
  plan = plan_recovery(input);
  reason = recommendation_reason(plan.partitions[0]);
  CHECK(reason.find("it loses nothing") != std::string::npos);
  CHECK(reason.find("loses 10 records, 10 of them committed") != std::string::npos);  // Kafka's
}

TEST_CASE("a stale metadata: the verdict says so, never 'nothing to decide'",
          "[report][recovery_plan]") {
  PlanInput input;
  input.live_brokers = {1, 2};
  PlanPartitionInput p = led_by_2(0, {1, 2});
  PartitionReplica r = test::replica_of("b2", {{0, 4, 7, 11}}, 5);
  p.replicas = {{2, &r}};
  p.issued_epochs = {{3, 1}, {4, 2}};
  input.partitions = {p};
  const RecoveryPlan plan = plan_recovery(input);
  const std::string verdict = plan_verdict(plan);
  CHECK(verdict.rfind("The metadata is older than the brokers' disks on 1 partition(s)", 0) == 0);
  CHECK(verdict.find("nothing to decide") == std::string::npos);
  const Value v = recovery_plan_value(plan, PlanContext{});
  REQUIRE(v.find("problems")->as_array().size() == 1);
  CHECK(scalar_text(*v.find("problems")->as_array()[0].find("message")).find("never issued") !=
        std::string::npos);
}

TEST_CASE("timeline names: two brokers' same-named dirs are told apart", "[report][timeline]") {
  const auto names =
      distinct_replica_names({"/x/b1/data/plan-0", "/x/b2/data/plan-0", "/y/data/other-0"});
  CHECK(names == std::vector<std::string>{"b1/data/plan-0", "b2/data/plan-0", "data/other-0"});
  CHECK(distinct_replica_names({"a/d-0", "b/d-0"}) == std::vector<std::string>{"a/d-0", "b/d-0"});
}

TEST_CASE("a follower whose first fetch fails: its note does not say the logs agree",
          "[report][predict]") {
  // AbstractFetcherThread: the follower truncates, then its first append fails
  // (UnexpectedAppendOffsetException) and the partition is marked failed; "fetch from there"
  // is what does not happen.
  PartitionReplica follower = test::replica_of("f", {{0, 4, 0, 11}}, 5);
  ReplicaForecast f;
  f.prediction.truncate_to = 3;
  f.prediction.fetch_from = 3;
  f.prediction.note = "the logs agree below the truncation point; fetch from there";
  f.first_append = FollowerAppend::fails;
  f.leader_batch = std::pair<std::int64_t, std::int64_t>{2, 6};
  const Value v = replica_forecast_value({&follower, {f}});
  const Value* note = v.find("note");
  REQUIRE(note);
  CHECK(scalar_text(*note).find("agree below") != std::string::npos);  // ...that they do not
  CHECK(scalar_text(*note).find("do not agree") != std::string::npos);
  CHECK(scalar_text(*note).find("fetch from there") == std::string::npos);
  CHECK(scalar_text(*note).find("fails") != std::string::npos);
  f.first_append = FollowerAppend::appends;
  const Value ok = replica_forecast_value({&follower, {f}});
  CHECK(scalar_text(*ok.find("note")) == f.prediction.note);
}
