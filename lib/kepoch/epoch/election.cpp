#include "kepoch/epoch/election.hpp"

#include <algorithm>
#include <optional>

namespace kepoch {
namespace {

using Ids = std::vector<std::int32_t>;

bool contains(const Ids& ids, std::int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

Ids without(const Ids& ids, const Ids& removed) {
  Ids out;
  for (auto id : ids)
    if (!contains(removed, id)) out.push_back(id);
  return out;
}

struct Election {
  const PartitionState& partition;
  const Ids& target_isr;
  const Ids& target_elr;
  const PartitionChangeRequest& request;

  bool acceptable(std::int32_t id) const { return request.acceptable.count(id) > 0; }

  // isValidNewLeader: in the ISR, or in the ELR when the ISR is empty, and acceptable.
  bool valid_new_leader(std::int32_t id) const {
    return (contains(target_isr, id) || (target_isr.empty() && contains(target_elr, id))) &&
           acceptable(id);
  }

  // canElectLastKnownLeader (useLastKnownLeaderInBalancedRecovery is true by default): ELR
  // on, the target ISR and ELR empty, exactly one last known leader, and that broker
  // acceptable (isAcceptableLeader: alive, not fenced or shutting down). Not acceptable, it
  // logs "last known leader is not alive" and returns false (Kafka 4.1.1 and 4.4.0 alike): a
  // killed last leader is not elected while handleBrokerUncleanShutdown takes it out of the
  // ELR, only when it is unfenced (seen on a real 4.4.0 cluster: ELR emptied, then the
  // returning broker elected as last known leader, leader recovery state RECOVERING).
  bool can_elect_last_known_leader() const {
    if (!request.elr_enabled) return false;
    if (!target_elr.empty() || !target_isr.empty()) return false;
    if (partition.last_known_elr.size() != 1) return false;
    return acceptable(partition.last_known_elr.front());
  }

  ElectionResult first_valid(std::size_t skip) const {
    for (std::size_t i = skip; i < partition.replicas.size(); ++i)
      if (valid_new_leader(partition.replicas[i]))
        return {partition.replicas[i], false, "first_valid_replica"};
    return {};
  }

  // The tail both electPreferredLeader and electAnyLeader end with.
  ElectionResult after_current_leader(std::size_t skip) const {
    if (auto r = first_valid(skip); r.node != kNoLeader) return r;
    if (can_elect_last_known_leader())
      return {partition.last_known_elr.front(), true, "last_known_leader"};
    return {};
  }

  ElectionResult preferred() const {
    if (!partition.replicas.empty() && valid_new_leader(partition.replicas.front()))
      return {partition.replicas.front(), false, "preferred_replica"};
    if (valid_new_leader(partition.leader)) return {partition.leader, false, "current_leader"};
    return after_current_leader(1);
  }

  ElectionResult any() const {
    if (valid_new_leader(partition.leader)) return {partition.leader, false, "current_leader"};
    if (auto r = after_current_leader(0); r.node != kNoLeader) return r;
    if (request.election == ElectionType::unclean)
      for (auto id : partition.replicas)
        if (acceptable(id)) return {id, true, "unclean_first_acceptable"};
    return {};
  }
};

// maybePopulateTargetElr: below min ISR, the ELR keeps the replicas that were in the ISR
// (minus the target ISR and replicas that shut down uncleanly); at or above min ISR it is
// cleared. (Its last-known-ELR part is unused: with useLastKnownLeaderInBalancedRecovery, on
// by default, maybeUpdateLastKnownLeader alone sets that field.)
void populate_target_elr(const PartitionState& partition, const PartitionChangeRequest& request,
                         const Ids& target_isr, Ids& target_elr) {
  if (!request.elr_enabled) return;
  if (static_cast<std::int32_t>(target_isr.size()) >= request.min_isr) {
    target_elr.clear();
    return;
  }
  std::set<std::int32_t> candidates(target_elr.begin(), target_elr.end());
  candidates.insert(partition.isr.begin(), partition.isr.end());
  Ids elr;
  for (auto id : candidates)
    if (!contains(target_isr, id) && !contains(request.unclean_shutdown_replicas, id))
      elr.push_back(id);
  target_elr = std::move(elr);
}

}  // namespace

ElectionResult elect_leader(const PartitionState& partition, const Ids& target_isr,
                            const Ids& target_elr, const PartitionChangeRequest& request) {
  const Election e{partition, target_isr, target_elr, request};
  return request.election == ElectionType::preferred ? e.preferred() : e.any();
}

PartitionChange change_partition(const PartitionState& partition,
                                 const PartitionChangeRequest& request) {
  Ids target_isr = request.target_isr;
  Ids target_elr = partition.elr;
  populate_target_elr(partition, request, target_isr, target_elr);

  PartitionChange change;
  change.after = partition;
  change.election = elect_leader(partition, target_isr, target_elr, request);
  const ElectionResult& elected = change.election;
  std::optional<Ids> record_isr;  // PartitionChangeRecord.isr, when set
  // tryElection: only a different node makes a change record's leader field.
  if (elected.node != partition.leader) {
    change.leader_changed = true;
    if (contains(target_elr, elected.node)) {
      target_isr = {elected.node};
      target_elr = without(target_elr, {elected.node});
    } else if (elected.unclean) {
      record_isr = Ids{elected.node};  // the new leader alone: this can lose data
      change.after.recovering = true;
    }
  }
  // maybeUpdateRecordElr: an unclean election or ELR off clears the ELR fields.
  if (record_isr || !request.elr_enabled) target_elr.clear();
  change.after.elr = target_elr;
  // build(): the ISR may become empty only with ELR on; without it the last member stays.
  if (record_isr)
    change.after.isr = *record_isr;
  else if (!target_isr.empty() || request.elr_enabled)
    change.after.isr = target_isr;
  // maybeUpdateLastKnownLeader (ELR on): remember the leader the first time the ISR
  // empties; forget it once the partition has a leader. With ELR off the field is left alone.
  if (request.elr_enabled) {
    const bool isr_emptied = change.after.isr.empty() && !partition.isr.empty();
    const std::int32_t record_leader = change.leader_changed ? elected.node : kNoLeaderChange;
    const auto& known = partition.last_known_elr;
    if (isr_emptied && (known.size() != 1 || known.front() != partition.leader))
      change.after.last_known_elr = {partition.leader};
    else if ((record_leader >= 0 ||
              (partition.leader != kNoLeader && record_leader != kNoLeader)) &&
             !known.empty())
      change.after.last_known_elr.clear();
  }
  if (change.leader_changed) {
    change.after.leader = elected.node;
    change.after.leader_epoch = partition.leader_epoch + 1;  // PartitionRegistration.merge
  }
  return change;
}

namespace {

PartitionChange broker_event(const PartitionState& partition, std::int32_t to_remove,
                             const std::set<std::int32_t>& acceptable, bool unclean_allowed,
                             bool elr_enabled, std::int32_t min_isr,
                             std::int32_t unclean_shutdown = kNoLeader) {
  PartitionChangeRequest request;
  request.target_isr = without(partition.isr, {to_remove, unclean_shutdown});
  if (unclean_shutdown != kNoLeader) request.unclean_shutdown_replicas = {unclean_shutdown};
  request.acceptable = acceptable;
  request.election = unclean_allowed ? ElectionType::unclean : ElectionType::online;
  request.elr_enabled = elr_enabled;
  request.min_isr = min_isr;
  return change_partition(partition, request);
}

}  // namespace

PartitionChange fence_broker(const PartitionState& partition, std::int32_t broker,
                             std::set<std::int32_t> active, bool unclean_allowed, bool elr_enabled,
                             std::int32_t min_isr) {
  active.erase(broker);
  if (!contains(partition.isr, broker)) return {{}, false, partition};  // not iterated
  return broker_event(partition, broker, active, unclean_allowed, elr_enabled, min_isr);
}

PartitionChange unfence_broker(const PartitionState& partition, std::int32_t broker,
                               std::set<std::int32_t> active, bool unclean_allowed,
                               bool elr_enabled, std::int32_t min_isr) {
  active.insert(broker);
  if (partition.leader != kNoLeader) return {{}, false, partition};  // partitionsWithNoLeader
  return broker_event(partition, kNoLeader, active, unclean_allowed, elr_enabled, min_isr);
}

PartitionChange unclean_shutdown_broker(const PartitionState& partition, std::int32_t broker,
                                        std::set<std::int32_t> active, bool unclean_allowed,
                                        bool elr_enabled, std::int32_t min_isr) {
  active.erase(broker);
  if (!elr_enabled) return {{}, false, partition};  // only when the metadata version has ELR
  if (!contains(partition.isr, broker) && !contains(partition.elr, broker))
    return {{}, false, partition};
  return broker_event(partition, kNoLeader, active, unclean_allowed, elr_enabled, min_isr, broker);
}

}  // namespace kepoch
