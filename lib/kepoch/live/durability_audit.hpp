#pragma once
// Durability risks of a live cluster (`kepoch cluster audit`), the ones the seed articles
// on HW, ISR and acks=all warn about. Per topic:
//   replication_factor_below_3   fewer than three copies: one broker loss leaves at most
//                                one, and acks=all can then be acknowledged by it alone
//   min_isr_one                  min.insync.replicas=1 with RF>=3: an acks=all write may be
//                                acknowledged by the leader alone, and lost with it
//   min_isr_not_below_rf         min.insync.replicas >= RF: any broker loss (==) or always
//                                (>) fails acks=all writes with NOT_ENOUGH_REPLICAS
//   unclean_election_enabled     unclean.leader.election.enable=true: an out-of-sync
//                                replica may lead and committed records are lost
//   configs_unknown              min.insync.replicas or unclean.leader.election.enable
//                                could not be read (DescribeConfigs refused or failed): the
//                                risks they decide are unknown, never "no risk"
// Per partition:
//   under_min_isr / at_min_isr   the ISR is below / at min.insync.replicas now (at: one
//                                more loss blocks acks=all writes)
//   unavailable                  no leader, or the leader is not a live broker
//   leader_not_preferred         leadership is off the preferred replica
// Internal topics (__consumer_offsets, __transaction_state) are judged like the others:
// their loss loses offsets and transactions.

#include <optional>
#include <string>
#include <vector>

#include "kepoch/live/cluster_view.hpp"

namespace kepoch::live {

enum class Severity { warning, risk };

struct AuditFinding {
  std::string topic;
  std::optional<std::int32_t> partition;  // nullopt: a topic-wide finding
  std::string risk;                       // the snake_case name listed above
  Severity severity = Severity::risk;
  std::string reason;  // one sentence with the numbers that led to it
};

std::vector<AuditFinding> audit_cluster(const ClusterView& view);

std::string_view severity_name(Severity severity);

}  // namespace kepoch::live
