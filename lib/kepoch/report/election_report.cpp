#include "kepoch/report/election_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kepoch/report/common_values.hpp"

namespace kepoch::report {

std::string_view election_type_name(ElectionType type) {
  switch (type) {
    case ElectionType::preferred:
      return "preferred";
    case ElectionType::unclean:
      return "unclean";
    case ElectionType::online:
      break;
  }
  return "online";
}

std::string election_reason(const PartitionChangeRequest& request, const PartitionChange& change) {
  const ElectionResult& e = change.election;
  const std::string& b = e.branch;
  if (b == "current_leader")
    return fmt::format("broker {} still leads: in the ISR and alive", e.node);
  if (b == "preferred_replica")
    return fmt::format("broker {} is the preferred replica, in the ISR and alive", e.node);
  if (b == "first_valid_replica")
    return fmt::format(
        "broker {} is the first replica in assignment order that is alive and in "
        "the ISR (or in the ELR, the ISR being empty)",
        e.node);
  if (b == "last_known_leader")
    return fmt::format("broker {} was the last known leader (ELR balanced recovery)", e.node);
  if (b == "unclean_first_acceptable")
    return fmt::format(
        "unclean election: no ISR member is alive, broker {} is the first alive "
        "replica; records only the old ISR held are lost",
        e.node);
  const auto& elr = change.after.elr;
  // (The verdict opens with "No replica can lead": the reason says why, not that again.)
  return fmt::format("no member of the ISR [{}]{} is alive (alive: [{}]){}",
                     fmt::join(request.target_isr, ","),
                     elr.empty() ? "" : fmt::format(" or the ELR [{}]", fmt::join(elr, ",")),
                     fmt::join(request.acceptable, ","),
                     request.election == ElectionType::unclean
                         ? ""
                         : "; with unclean election allowed the first alive replica would lead");
}

Value election_value(const PartitionState& before, const PartitionChangeRequest& request,
                     const PartitionChange& change) {
  const ElectionResult& e = change.election;
  return Value::object()
      .set("election", election_type_name(request.election))
      .set("replicas", ids_value(before.replicas))
      .set("isr", ids_value(request.target_isr))
      .set("elr", ids_value(before.elr))
      .set("alive", ids_value({request.acceptable.begin(), request.acceptable.end()}))
      .set("eligible_leader_replicas", request.elr_enabled)
      .set("leader", e.node == kNoLeader ? Value() : Value(e.node))
      .set("unclean", e.unclean)
      .set("branch", e.branch)
      .set("isr_after", ids_value(change.after.isr))
      .set("elr_after", ids_value(change.after.elr))
      .set("leader_epoch_bump", change.leader_changed)
      .set("leader_recovering", change.after.recovering)
      .set("reason", election_reason(request, change));
}

}  // namespace kepoch::report
