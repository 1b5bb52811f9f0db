// The durability risks `cluster audit` reports (the seed articles' advice on replication
// factor, min.insync.replicas with acks=all, and unclean election).
#include <catch2/catch.hpp>

#include <algorithm>

#include "kepoch/live/durability_audit.hpp"
#include "kepoch/report/cluster_report.hpp"
#include "kepoch/report/summary.hpp"

using namespace kepoch::live;
using Ids = std::vector<std::int32_t>;

namespace {

TopicView topic(std::string name, Ids replicas, Ids isr, std::string min_isr,
                std::string unclean = "false") {
  PartitionView p;
  p.topic = name;
  p.leader = isr.empty() ? kNoLeader : isr.front();
  p.leader_epoch = 0;
  p.replicas = std::move(replicas);
  p.isr = std::move(isr);
  TopicView t;
  t.name = std::move(name);
  t.partitions = {p};
  t.configs["min.insync.replicas"] = std::move(min_isr);
  t.configs["unclean.leader.election.enable"] = std::move(unclean);
  return t;
}

std::vector<std::string> risks(const TopicView& t, std::set<std::int32_t> live = {1, 2, 3}) {
  ClusterView v;
  for (auto id : live)
    v.brokers.push_back(BrokerNode{id, "", 0, std::nullopt});
  v.topics = {t};
  std::vector<std::string> out;
  for (const auto& f : audit_cluster(v))
    out.push_back(f.risk);
  return out;
}

}  // namespace

TEST_CASE("a sound topic passes: RF 3, min ISR 2, clean elections, full ISR", "[live][audit]") {
  CHECK(risks(topic("ok", {1, 2, 3}, {1, 2, 3}, "2")).empty());
}

TEST_CASE("each risky setting is flagged with its reason", "[live][audit]") {
  CHECK(risks(topic("rf2", {1, 2}, {1, 2}, "1")) ==
        std::vector<std::string>{"replication_factor_below_3"});
  CHECK(risks(topic("rf1", {1}, {1}, "1")) == std::vector<std::string>{"replication_factor_below_3",
                                                                       "min_isr_not_below_rf",
                                                                       "at_min_isr"});
  CHECK(risks(topic("minisr1", {1, 2, 3}, {1, 2, 3}, "1")) ==
        std::vector<std::string>{"min_isr_one"});
  CHECK(risks(topic("minisr3", {1, 2, 3}, {1, 2, 3}, "3")) ==
        std::vector<std::string>{"min_isr_not_below_rf", "at_min_isr"});
  CHECK(risks(topic("unclean", {1, 2, 3}, {1, 2, 3}, "2", "true")) ==
        std::vector<std::string>{"unclean_election_enabled"});
}

TEST_CASE("partition risks: under and at min ISR, unavailable, leader not preferred",
          "[live][audit]") {
  CHECK(risks(topic("under", {1, 2, 3}, {1}, "2")) == std::vector<std::string>{"under_min_isr"});
  CHECK(risks(topic("at", {1, 2, 3}, {1, 2}, "2")) == std::vector<std::string>{"at_min_isr"});
  CHECK(risks(topic("moved", {1, 2, 3}, {2, 3, 1}, "2")) ==
        std::vector<std::string>{"leader_not_preferred"});
  CHECK(risks(topic("down", {1, 2, 3}, {}, "2")) == std::vector<std::string>{"unavailable"});
  CHECK(risks(topic("dead-leader", {1, 2, 3}, {1, 2, 3}, "2"), {2, 3}) ==
        std::vector<std::string>{"unavailable"});
}

TEST_CASE("findings carry severity and a reason with the numbers", "[live][audit]") {
  ClusterView v;
  v.brokers = {BrokerNode{1, "", 0, std::nullopt}, BrokerNode{2, "", 0, std::nullopt},
               BrokerNode{3, "", 0, std::nullopt}};
  v.topics = {topic("minisr1", {1, 2, 3}, {1, 2}, "1")};
  auto findings = audit_cluster(v);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].severity == Severity::risk);
  CHECK_FALSE(findings[0].partition);
  CHECK(findings[0].reason.find("min.insync.replicas=1") != std::string::npos);
  CHECK(findings[0].reason.find("replication factor 3") != std::string::npos);
  v.topics = {topic("at", {1, 2, 3}, {1, 2}, "2")};
  findings = audit_cluster(v);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].severity == Severity::warning);
  CHECK(findings[0].partition == 0);
}

TEST_CASE("settings not read (DescribeConfigs refused) are a risk: unknown is never no risk",
          "[live][audit]") {
  TopicView t = topic("hidden-configs", {1, 2, 3}, {1, 2, 3}, "2");
  t.configs.clear();
  CHECK(risks(t) == std::vector<std::string>{"configs_unknown"});
  ClusterView v;
  v.topics = {t};
  const auto findings = audit_cluster(v);
  REQUIRE_FALSE(findings.empty());
  CHECK(findings[0].severity == Severity::risk);
  CHECK(findings[0].reason.find("min.insync.replicas and unclean.leader.election.enable") !=
        std::string::npos);
  // One of the two read: still unknown, named.
  t.configs["min.insync.replicas"] = "2";
  CHECK(risks(t) == std::vector<std::string>{"configs_unknown"});
}

TEST_CASE("the audit's report opens with its verdict, which agrees with the exit status",
          "[live][audit][report]") {
  const auto verdict = [](std::vector<TopicView> topics) {
    ClusterView v;
    for (auto id : {1, 2, 3})
      v.brokers.push_back(BrokerNode{id, "", 0, std::nullopt});
    v.topics = std::move(topics);
    const auto value = kepoch::report::cluster_audit_value(v, audit_cluster(v));
    const auto* text = kepoch::report::summary_text(value);
    REQUIRE(text);
    return kepoch::report::scalar_text(*text);
  };
  CHECK(verdict({topic("ok", {1, 2, 3}, {1, 2, 3}, "2")}) ==
        "No durability risk in 1 partition of 1 topic.");
  // A warning alone (at min ISR, exit 0) is not a risk.
  CHECK(verdict({topic("ok", {1, 2, 3}, {1, 2}, "2")}) ==
        "No durability risk in 1 partition of 1 topic; 1 warning.");
  CHECK(verdict({topic("ok", {1, 2, 3}, {1, 2, 3}, "2"),
                 topic("minisr1", {1, 2, 3}, {1, 2, 3}, "1")}) ==
        "1 durability risk in 2 partitions of 2 topics (first: min_isr_one, minisr1).");
}
