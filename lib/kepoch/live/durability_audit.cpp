#include "kepoch/live/durability_audit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kepoch/live/partition_health.hpp"

namespace kepoch::live {
namespace {

AuditFinding topic_finding(const TopicView& t, std::string risk, Severity severity,
                           std::string reason) {
  return AuditFinding{t.name, std::nullopt, std::move(risk), severity, std::move(reason)};
}

void topic_risks(const TopicView& t, std::vector<AuditFinding>& out) {
  const int rf = t.replication_factor();
  const auto min_isr = t.min_insync_replicas();
  if (rf > 0 && rf < 3)
    out.push_back(topic_finding(
        t, "replication_factor_below_3", Severity::risk,
        rf == 1 ? std::string("replication factor 1: the only copy is lost with its broker")
                : fmt::format("replication factor {}: after one broker loss a single copy "
                              "remains and acknowledges acks=all writes alone",
                              rf)));
  if (min_isr && *min_isr <= 1 && rf >= 3)
    out.push_back(topic_finding(
        t, "min_isr_one", Severity::risk,
        fmt::format("min.insync.replicas={} with replication factor {}: an acks=all write can "
                    "be acknowledged by the leader alone and lost with it",
                    *min_isr, rf)));
  if (min_isr && rf > 0 && *min_isr >= rf)
    out.push_back(topic_finding(
        t, "min_isr_not_below_rf", Severity::risk,
        *min_isr == rf
            ? fmt::format("min.insync.replicas={} equals the replication factor: losing any "
                          "broker fails acks=all writes (NOT_ENOUGH_REPLICAS)",
                          *min_isr)
            : fmt::format("min.insync.replicas={} exceeds the replication factor {}: acks=all "
                          "writes always fail (NOT_ENOUGH_REPLICAS)",
                          *min_isr, rf)));
  // Not read (DescribeConfigs refused, e.g. no DescribeConfigs right on the topic): the
  // risks judged by these settings are unknown, and unknown is never "no risk".
  if (!min_isr || !t.unclean_leader_election())
    out.push_back(topic_finding(
        t, "configs_unknown", Severity::risk,
        fmt::format("{} not read (see the warnings): min_isr_one, min_isr_not_below_rf, "
                    "unclean_election_enabled and the partitions under or at min ISR cannot be "
                    "ruled out",
                    !min_isr && !t.unclean_leader_election()
                        ? "min.insync.replicas and unclean.leader.election.enable"
                        : (!min_isr ? "min.insync.replicas" : "unclean.leader.election.enable"))));
  if (t.unclean_leader_election().value_or(false))
    out.push_back(topic_finding(
        t, "unclean_election_enabled", Severity::risk,
        "unclean.leader.election.enable=true: a replica outside the ISR may become leader "
        "and acknowledged records are truncated away"));
}

void partition_risks(const TopicView& t, const PartitionView& p, const std::set<std::int32_t>& live,
                     std::vector<AuditFinding>& out) {
  const auto min_isr = t.min_insync_replicas();
  const PartitionHealth h = assess_partition(p, min_isr, live);
  auto add = [&](std::string risk, Severity severity, std::string reason) {
    out.push_back(AuditFinding{t.name, p.partition, std::move(risk), severity, std::move(reason)});
  };
  if (h.unavailable)
    add("unavailable", Severity::risk,
        p.has_leader() ? fmt::format("leader {} is not a live broker", p.leader)
                       : fmt::format("no leader (replicas [{}], ISR [{}])",
                                     fmt::join(p.replicas, ","), fmt::join(p.isr, ",")));
  if (h.under_min_isr && p.has_leader())
    add("under_min_isr", Severity::risk,
        fmt::format("ISR [{}] has {} of min.insync.replicas={}: acks=all writes fail now",
                    fmt::join(p.isr, ","), p.isr.size(), min_isr.value_or(0)));
  else if (h.at_min_isr && p.has_leader())
    add("at_min_isr", Severity::warning,
        fmt::format("ISR [{}] is at min.insync.replicas={}: one more loss blocks acks=all writes",
                    fmt::join(p.isr, ","), min_isr.value_or(0)));
  if (h.leader_not_preferred)
    add("leader_not_preferred", Severity::warning,
        fmt::format("leader {} is not the preferred replica {}", p.leader, p.replicas.front()));
}

}  // namespace

std::string_view severity_name(Severity severity) {
  return severity == Severity::risk ? "risk" : "warning";
}

std::vector<AuditFinding> audit_cluster(const ClusterView& view) {
  std::vector<AuditFinding> out;
  const auto live = view.live_broker_ids();
  for (const auto& t : view.topics) {
    topic_risks(t, out);
    for (const auto& p : t.partitions)
      partition_risks(t, p, live, out);
  }
  return out;
}

}  // namespace kepoch::live
