// The report of `kepoch plan` (report/recovery_plan_report): a partition led by a live broker
// with its ISR below min.insync.replicas is listed and counted (Kafka refuses acks=all writes
// to it with NOT_ENOUGH_REPLICAS), not hidden as healthy; each partition says where its
// min.insync.replicas and unclean.leader.election.enable came from.
#include <catch2/catch.hpp>

#include "kepoch/report/recovery_plan_report.hpp"

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
  in.min_isr_source = "static";
  in.unclean_source = "cluster_default";
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
  unsaid.min_isr_source.clear();
  input.partitions = {unsaid};
  const Value v = recovery_plan_value(plan_recovery(input), PlanContext{});
  CHECK(v.find("partitions")->as_array()[0].find("min_insync_replicas_source")->is_null());
}
