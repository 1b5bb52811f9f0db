#include "kepoch/forecast/recovery_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <limits>

#include "kepoch/storage/logdir_scan.hpp"

namespace kepoch::forecast {
namespace {

bool contains(const std::vector<std::int32_t>& ids, std::int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The controller's election among `acceptable` brokers: a clean one first
// (PartitionChangeBuilder's online election: the ISR, or the ELR when the ISR is empty),
// then, when none can lead, its unclean one (electAnyLeader: the first acceptable replica in
// assignment order), as kafka-leader-election --election-type unclean asks for.
struct KafkaElection {
  std::int32_t node = kNoLeader;
  bool clean = false;
};

KafkaElection kafka_election(const PlanPartitionInput& p, std::set<std::int32_t> acceptable) {
  PartitionChangeRequest request;
  request.target_isr = p.state.isr;
  request.acceptable = std::move(acceptable);
  request.elr_enabled = p.elr_enabled;
  request.min_isr = p.min_isr;
  request.election = ElectionType::online;
  const PartitionChange clean = change_partition(p.state, request);
  if (clean.election.node != kNoLeader) return {clean.election.node, !clean.election.unclean};
  request.election = ElectionType::unclean;
  const PartitionChange unclean = change_partition(p.state, request);
  return {unclean.election.node, false};
}

// The epoch a newly elected leader starts at: the controller bumps the partition's leader
// epoch; above every epoch a replica holds in any case (any larger number gives the same
// answers, as in `predict --elect`).
using Replicas = std::map<std::int32_t, const PartitionReplica*>;

std::int32_t new_leader_epoch(const PlanPartitionInput& p, const Replicas& replicas) {
  std::int32_t epoch = std::max(p.state.leader_epoch + 1, 0);
  for (const auto& [broker, r] : replicas)
    if (const auto latest = r->loaded.cache.latest_epoch()) epoch = std::max(epoch, *latest + 1);
  return epoch;
}

// Each known replica's committed_bound as a follower (it does not depend on the leader).
using Bounds = std::map<std::int32_t, CommittedBound>;

CandidateOutcome evaluate_candidate(const Replicas& replicas, const Bounds& bounds,
                                    std::int32_t broker, const PartitionReplica& leader,
                                    std::int32_t epoch, bool leader_clean) {
  CandidateOutcome c;
  c.broker = broker;
  c.leader_epoch = epoch;
  c.last_epoch = leader.loaded.cache.latest_epoch().value_or(-1);
  c.log_end_offset = leader.log_end_offset;
  // Partition.makeLeader: the new leader adds (epoch, its log end) to its cache and answers
  // its followers' divergence checks from it.
  ReplicaLog as_leader = leader.as_leader;
  become_leader(as_leader, epoch);
  for (const auto& [other, follower] : replicas) {
    if (other == broker) continue;
    // predict's forecast, committed records by committed_bound over the same replicas: the
    // same counts as `kepoch predict --elect` with this candidate leading. A clean leader
    // holds every committed record (Kafka's guarantee): the bound without its doubts.
    const CommittedBound& bound = bounds.at(other);
    FollowerOutcome f{other,
                      forecast_follower(leader, as_leader, *follower,
                                        leader_clean ? CommittedBound{bound.below, {}} : bound,
                                        TruncationMode::fetch)};
    c.removed_records += f.forecast.removed_records;
    // A tiered follower's records forked off in remote segments count with its local ones
    // (committed: uploaded below the last stable offset).
    c.lost_records =
        std::max(c.lost_records, f.forecast.lost_records + f.forecast.remote_lost_records);
    c.committed_lost_records =
        std::max(c.committed_lost_records,
                 f.forecast.committed_lost_records + f.forecast.remote_lost_records);
    c.loss_known = c.loss_known && f.forecast.lost_known && f.forecast.lost_counted;
    c.committed_loss_possible = c.committed_loss_possible || f.forecast.committed_loss_possible();
    c.followers.push_back(std::move(f));
  }
  return c;
}

// What `diff --metadata` finds (epoch_agreement's check_epoch_cache: every cached epoch, from
// the first the log shows, must be one the controller issued with a leader), and a leader
// the metadata calls live whose own given state shows a clean shutdown (a running broker
// deletes .kafka_cleanshutdown when it starts): the metadata is older than the disks, as a
// stopped broker's own copy of the metadata log is (it cannot show its own fencing).
void stale_metadata_findings(const PlanPartitionInput& p, const Replicas& replicas,
                             bool leader_live, PartitionPlan& out) {
  if (!p.issued_epochs.empty()) {
    const std::int32_t first = p.issued_epochs.front().epoch;
    for (const auto& [broker, r] : replicas) {
      r->loaded.cache.for_each_entry([&, broker = broker](const EpochEntry& e) {
        if (e.epoch < first) return;
        const auto it =
            std::find_if(p.issued_epochs.begin(), p.issued_epochs.end(),
                         [&](const IssuedLeaderEpoch& i) { return i.epoch == e.epoch; });
        if (it == p.issued_epochs.end())
          out.metadata_findings.push_back(fmt::format(
              "broker {}'s replica holds leader epoch {} (from offset {}), which the metadata "
              "never issued (last issued: {})",
              broker, e.epoch, e.start_offset, p.issued_epochs.back().epoch));
        else if (it->leader == kNoLeader)
          out.metadata_findings.push_back(fmt::format(
              "broker {}'s replica holds leader epoch {} (from offset {}), which the metadata "
              "issued without a leader",
              broker, e.epoch, e.start_offset));
      });
    }
  }
  if (!p.live_metadata && leader_live) {
    const auto it = replicas.find(p.state.leader);
    if (it != replicas.end() && it->second->clean_shutdown)
      out.metadata_findings.push_back(fmt::format(
          "the metadata says broker {} leads and is live, but its given state shows it shut "
          "down (.kafka_cleanshutdown)",
          p.state.leader));
  }
}

}  // namespace

const char* condition_name(PartitionCondition c) {
  switch (c) {
    case PartitionCondition::healthy:
      return "healthy";
    case PartitionCondition::under_min_isr:
      return "under_min_isr";
    case PartitionCondition::leaderless:
      return "leaderless";
    case PartitionCondition::unclean:
      return "unclean";
  }
  return "?";
}

const char* recommendation_name(RecommendationKind k) {
  switch (k) {
    case RecommendationKind::healthy:
      return "healthy";
    case RecommendationKind::kafka_default_best:
      return "kafka_default_best";
    case RecommendationKind::wait_for_broker:
      return "wait_for_broker";
    case RecommendationKind::elect_unclean:
      return "elect_unclean";
    case RecommendationKind::unknown:
      return "unknown";
  }
  return "?";
}

const char* start_phase_name(StartPhase p) {
  switch (p) {
    case StartPhase::first:
      return "first";
    case StartPhase::after_elections:
      return "after_elections";
    case StartPhase::any_time:
      return "any_time";
  }
  return "?";
}

const CandidateOutcome* PartitionPlan::candidate(std::int32_t broker) const {
  for (const auto& c : candidates)
    if (c.broker == broker) return &c;
  return nullptr;
}

const CandidateOutcome* PartitionPlan::kafka_candidate() const {
  return kafka_choice ? candidate(*kafka_choice) : nullptr;
}

const CandidateOutcome* PartitionPlan::chosen_candidate() const {
  return chosen ? candidate(*chosen) : nullptr;
}

void keep_what_plans_read(PartitionReplica& replica) {
  // A replica read from a log dir reads its batches from its segments: only a snapshot's
  // (its batches kept in `stored`) can do without them.
  if (!replica.stored) return;
  std::vector<SegmentSummary>().swap(replica.segments);
  std::vector<EpochEntry>().swap(replica.checkpoint_entries);
  std::vector<EpochEntry>().swap(replica.rebuilt_entries);
}

bool ranks_before(const CandidateOutcome& a, const CandidateOutcome& b) {
  // 1. No committed record lost (nor possibly lost).
  if (a.committed_loss_possible != b.committed_loss_possible) return !a.committed_loss_possible;
  // 2. Fewest records lost; a known count before an unknown one.
  if (a.lost_records != b.lost_records) return a.lost_records < b.lost_records;
  if (a.loss_known != b.loss_known) return a.loss_known;
  // 3. With equal loss, waiting for a stopped broker buys nothing.
  if (a.live != b.live) return a.live;
  // 4. KIP-966's unclean recovery order (GetReplicaLogInfo): the highest last epoch, then
  //    the longest log.
  if (a.last_epoch != b.last_epoch) return a.last_epoch > b.last_epoch;
  if (a.log_end_offset != b.log_end_offset) return a.log_end_offset > b.log_end_offset;
  // 5. Kafka's own choice: nothing to do.
  if (a.kafka_choice != b.kafka_choice) return a.kafka_choice;
  return a.broker < b.broker;
}

PartitionPlan plan_partition(const PlanPartitionInput& p,
                             const std::set<std::int32_t>& live_brokers,
                             const std::set<std::int32_t>& gone_brokers) {
  PartitionPlan out;
  out.topic = p.topic;
  out.partition = p.partition;
  out.state = p.state;
  out.unclean_allowed = p.unclean_allowed;
  out.min_isr = p.min_isr;
  out.unclean_source = p.unclean_source;
  out.min_isr_source = p.min_isr_source;
  out.topic_id = p.topic_id;
  // A replica of another topic id holds none of this topic's records: the known replicas
  // are then the others (a copy of the map only in that case).
  Replicas others;
  for (const auto& [broker, r] : p.replicas) {
    if (p.topic_id && r->topic_id && *r->topic_id != *p.topic_id)
      out.other_topic_replicas.push_back({broker, *r->topic_id});
    else
      others.emplace(broker, r);
  }
  const Replicas& replicas = out.other_topic_replicas.empty() ? p.replicas : others;
  // Whether a broker is live (registered, unfenced, not gone).
  const auto is_live = [&](std::int32_t id) {
    return live_brokers.count(id) > 0 && !gone_brokers.count(id);
  };
  for (const auto id : p.state.replicas) {
    if (!replicas.count(id)) out.unknown_replicas.push_back(id);
    if (!is_live(id)) out.stopped_replicas.push_back(id);
  }
  // As recorded, even above the replica's own log end (shown only: what it commits is
  // committed_bound's, per record).
  for (const auto& [broker, r] : replicas) {
    const std::int64_t hw = std::max(r->loaded.high_watermark, r->high_watermark.value_or(0));
    out.highest_high_watermark = std::max(out.highest_high_watermark.value_or(hw), hw);
  }
  const bool leader_live = p.state.leader != kNoLeader && is_live(p.state.leader);
  stale_metadata_findings(p, replicas, leader_live, out);
  out.state_current = out.metadata_findings.empty();

  if (leader_live) {
    out.condition = static_cast<std::int32_t>(p.state.isr.size()) < p.min_isr
                        ? PartitionCondition::under_min_isr
                        : PartitionCondition::healthy;
    out.kind = RecommendationKind::healthy;
    out.chosen = p.state.leader;
    out.kafka_choice = p.state.leader;
    out.kafka_choice_clean = contains(p.state.isr, p.state.leader);
    out.kafka_choice_now = true;
    return out;
  }

  // The live brokers among those the partition names: every question the plan and the
  // election (epoch/election.cpp's acceptable) ask of `live` is about a replica, an ISR, ELR
  // or last known ELR member, or the leader. Not the whole cluster's set per partition: that
  // made the plan's cost grow with brokers x partitions.
  std::set<std::int32_t> live;
  for (const auto* ids : {&p.state.replicas, &p.state.isr, &p.state.elr, &p.state.last_known_elr})
    for (const auto id : *ids)
      if (is_live(id)) live.insert(id);
  if (is_live(p.state.leader)) live.insert(p.state.leader);
  // Kafka's choice now, else once every broker that may return is back (a replica whose
  // state is not given returns too: an ISR member among them is Kafka's clean choice).
  KafkaElection kafka = kafka_election(p, live);
  out.kafka_choice_now = kafka.node != kNoLeader;
  if (kafka.node == kNoLeader) {
    std::set<std::int32_t> returning = live;
    for (const auto id : p.state.replicas)
      if (!gone_brokers.count(id)) returning.insert(id);
    for (const auto& o : out.other_topic_replicas)  // holds nothing of this topic: cannot lead
      returning.erase(o.broker);
    kafka = kafka_election(p, returning);
  }
  if (kafka.node != kNoLeader) {
    out.kafka_choice = kafka.node;
    out.kafka_choice_clean = kafka.clean;
  }
  const bool clean_now = out.kafka_choice_now && out.kafka_choice_clean;
  out.condition = clean_now || !p.unclean_allowed ? PartitionCondition::leaderless
                                                  : PartitionCondition::unclean;

  const std::int32_t epoch = new_leader_epoch(p, replicas);
  // Kafka's guarantee (an ISR member holds every committed record) speaks of the ISR as it
  // is; a replica holding an epoch the state has not reached shows the ISR given is older
  // than what the replicas wrote since, so it rules nothing out.
  bool state_current = out.metadata_findings.empty();
  for (const auto& [broker, r] : replicas)
    if (p.leader_epoch_known && r->loaded.cache.latest_epoch().value_or(-1) > p.state.leader_epoch)
      state_current = false;
  out.state_current = state_current;
  std::vector<const PartitionReplica*> known;
  for (const auto& [id, r] : replicas)
    known.push_back(r);
  Bounds bounds;
  for (const auto& [id, r] : replicas)
    bounds.emplace(id, committed_bound(*r, known, false));
  const auto clean_eligible = [&p](std::int32_t id) {
    return contains(p.state.isr, id) || (p.state.isr.empty() && contains(p.state.elr, id));
  };
  // A replica whose state is not given may hold committed records no known replica holds
  // when the metadata says it held every committed record (an ISR member, or the ELR's when
  // the ISR is empty: PartitionChangeBuilder's clean election), or when the metadata is older
  // than the disks (then any may). Its committed end is unknown, not zero.
  for (const auto id : out.unknown_replicas)
    if (clean_eligible(id) || !state_current) out.unknown_holders.push_back(id);
  for (const auto id : p.state.replicas) {
    const auto it = replicas.find(id);
    if (it == replicas.end() || gone_brokers.count(id)) continue;
    const bool clean = clean_eligible(id);
    // Kafka's guarantee (a clean leader holds every committed record) with the metadata
    // current, unless the candidate's own checkpoint shows committed records gone from it.
    const bool holds_committed = leader_holds_committed(*it->second, clean && state_current);
    CandidateOutcome c =
        evaluate_candidate(replicas, bounds, id, *it->second, epoch, holds_committed);
    c.live = live.count(id) > 0;
    c.clean = clean;
    c.kafka_choice = out.kafka_choice == id;
    // What the replicas not given hold is not counted: every count is a lower bound, and
    // unless this candidate holds every committed record (a clean leader, the metadata
    // current) a committed loss cannot be ruled out when one of them may hold some.
    if (!out.unknown_replicas.empty()) c.loss_known = false;
    if (!out.unknown_holders.empty() && !holds_committed) c.committed_loss_possible = true;
    out.candidates.push_back(std::move(c));
  }
  std::stable_sort(out.candidates.begin(), out.candidates.end(), ranks_before);
  for (std::size_t i = 0; i < out.candidates.size(); ++i)
    out.candidates[i].rank = static_cast<int>(i + 1);

  // An unknown replica that may hold committed records and may return, when no known
  // candidate is safe: wait for it (an ISR member, which Kafka elects cleanly once it is
  // back), or, when the metadata cannot say who holds them, nothing can be recommended
  // before its state is given.
  std::optional<std::int32_t> waitable;
  bool returning_holder = false;
  for (const auto id : out.unknown_holders) {
    if (gone_brokers.count(id)) continue;
    returning_holder = true;
    if (!waitable && clean_eligible(id) && state_current) waitable = id;
  }
  const bool best_safe = !out.candidates.empty() && !out.candidates.front().committed_loss_possible;
  // Kafka's clean choice keeps every committed record, unless its own checkpoint shows
  // committed records gone from it (leader_holds_committed): then the candidates are weighed.
  const auto kafka_replica = out.kafka_choice ? replicas.find(*out.kafka_choice) : replicas.end();
  const bool kafka_holds_committed =
      kafka_replica == replicas.end() || leader_holds_committed(*kafka_replica->second, true);
  if (clean_now && kafka_holds_committed) {
    // A live ISR (or ELR) member: Kafka's clean election keeps every committed record.
    out.kind = RecommendationKind::kafka_default_best;
    out.chosen = out.kafka_choice;
  } else if (returning_holder && !best_safe) {
    if (waitable) {
      out.kind = RecommendationKind::wait_for_broker;
      out.chosen = waitable;
    } else {
      out.kind = RecommendationKind::unknown;
    }
  } else if (out.candidates.empty()) {
    out.kind = RecommendationKind::unknown;
  } else {
    const CandidateOutcome& best = out.candidates.front();
    out.chosen = best.broker;
    if (!best.live)
      out.kind = RecommendationKind::wait_for_broker;
    else if (best.kafka_choice && out.kafka_choice_now)
      out.kind = RecommendationKind::kafka_default_best;
    else
      out.kind = RecommendationKind::elect_unclean;
  }
  return out;
}

RecoveryPlanBuilder::RecoveryPlanBuilder(std::set<std::int32_t> gone) : gone_(std::move(gone)) {}

void RecoveryPlanBuilder::step(std::int32_t broker, StartPhase phase,
                               const std::string& partition) {
  auto [it, added] = steps_.try_emplace(broker, StartStep{broker, phase, {}, nullptr, 0});
  StartStep& s = it->second;
  if (added && spill_) {
    s.spilled = spill_;
    s.spilled_list = spill_->add_list();
  }
  if (phase < s.phase) {  // an earlier phase wins: first < after_elections < any_time
    s.phase = phase;
    if (s.spilled)
      s.spilled->clear(s.spilled_list);
    else
      s.partitions.clear();
  }
  if (phase == s.phase && !partition.empty()) {
    if (s.spilled)
      s.spilled->append(s.spilled_list, partition);
    else
      s.partitions.push_back(partition);
  }
}

bool RecoveryPlanBuilder::listed(const PartitionPlan& pp) {
  return pp.condition != PartitionCondition::healthy || !pp.metadata_findings.empty() ||
         !pp.other_topic_replicas.empty();
}

void RecoveryPlanBuilder::add(PartitionPlan pp, bool keep) {
  count(pp);
  if (keep) plan_.partitions.push_back(std::move(pp));
}

void RecoveryPlanBuilder::count(const PartitionPlan& pp) {
  PlanTotals& t = plan_.totals;
  ++t.partitions;
  for (const auto id : pp.stopped_replicas)
    if (!gone_.count(id)) step(id, StartPhase::any_time, "");
  if (!pp.metadata_findings.empty()) ++t.stale_partitions;
  // A live leader: nothing to elect, but with an ISR below min.insync.replicas it refuses
  // acks=all writes (Partition.appendRecordsToLeader: NOT_ENOUGH_REPLICAS) until a replica
  // catches up, which the operator has to know.
  if (pp.kind == RecommendationKind::healthy) {
    if (pp.condition == PartitionCondition::under_min_isr) {
      ++t.affected;
      ++t.under_min_isr;
    }
    return;
  }
  const std::string name = fmt::format("{}-{}", pp.topic, pp.partition);
  ++t.affected;
  ++t.leaderless;
  // A live ISR member leading holds every committed record (Kafka's guarantee); otherwise a
  // replica whose state is unknown may hold committed records the plan cannot count.
  const bool clean_now = pp.kafka_choice_now && pp.kafka_choice_clean &&
                         pp.kind == RecommendationKind::kafka_default_best;
  bool committed_possible = !clean_now && !pp.unknown_holders.empty();
  if (const CandidateOutcome* k = pp.kafka_candidate()) {
    t.kafka_default_lost_records += k->lost_records;
    t.kafka_default_committed_lost_records += k->committed_lost_records;
    if (k->committed_loss_possible && k->committed_lost_records == 0)
      t.kafka_default_committed_unknown = true;
    t.complete = t.complete && k->loss_known;
  } else {
    t.complete = false;
  }
  if (const CandidateOutcome* c = pp.chosen_candidate()) {
    t.plan_lost_records += c->lost_records;
    t.plan_committed_lost_records += c->committed_lost_records;
    t.complete = t.complete && c->loss_known;
    committed_possible = committed_possible || c->committed_loss_possible;
  } else if (pp.kind == RecommendationKind::wait_for_broker && pp.state_current) {
    // Waiting for an ISR member whose state is not given: Kafka elects it cleanly once it
    // is back, and it holds every committed record; what it costs the others is unknown.
    committed_possible = false;
    t.complete = false;
  } else {
    committed_possible = true;
    t.complete = false;
  }
  if (!clean_now && !pp.unknown_replicas.empty()) t.complete = false;
  if (committed_possible) ++t.plan_committed_loss_partitions;
  const CandidateOutcome* chosen = pp.chosen_candidate();
  if (committed_possible && (!chosen || chosen->committed_lost_records == 0))
    t.plan_committed_unknown = true;
  switch (pp.kind) {
    case RecommendationKind::wait_for_broker:
      ++t.wait;
      break;
    case RecommendationKind::elect_unclean:
      ++t.elect_unclean;
      break;
    case RecommendationKind::unknown:
      ++t.unknown;
      break;
    default:
      break;
  }
  // Every unclean election of the plan picks the first live replica in assignment order:
  // the other stopped replicas of those partitions start once it is done.
  if (pp.kind == RecommendationKind::wait_for_broker ||
      pp.kind == RecommendationKind::elect_unclean ||
      (pp.kind == RecommendationKind::kafka_default_best && !pp.kafka_choice_clean)) {
    for (const auto id : pp.stopped_replicas) {
      if (gone_.count(id)) continue;
      step(id, id == pp.chosen ? StartPhase::first : StartPhase::after_elections, name);
    }
  }
}

RecoveryPlan RecoveryPlanBuilder::finish() {
  for (auto& [broker, s] : steps_)
    plan_.start_order.push_back(std::move(s));
  steps_.clear();
  std::stable_sort(plan_.start_order.begin(), plan_.start_order.end(),
                   [](const StartStep& a, const StartStep& b) {
                     if (a.phase != b.phase) return a.phase < b.phase;
                     if (a.partition_count() != b.partition_count())
                       return a.partition_count() > b.partition_count();
                     return a.broker < b.broker;
                   });
  return std::move(plan_);
}

std::vector<PartitionPlan> plan_partitions(const std::vector<PlanPartitionInput>& partitions,
                                           const std::set<std::int32_t>& live_brokers,
                                           const std::set<std::int32_t>& gone_brokers,
                                           unsigned jobs) {
  std::vector<PartitionPlan> plans(partitions.size());
  std::vector<std::exception_ptr> errors(partitions.size());
  parallel_for(partitions.size(), jobs == 0 ? default_jobs() : jobs, [&](std::size_t i) {
    try {
      plans[i] = plan_partition(partitions[i], live_brokers, gone_brokers);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  for (const auto& e : errors)  // the first partition's error, whichever thread met it first
    if (e) std::rethrow_exception(e);
  return plans;
}

RecoveryPlan plan_recovery(const PlanInput& input) {
  // The partitions are planned independently, on every core; the totals and the start order
  // are then gathered in input order, so the plan is the same on any number of threads.
  RecoveryPlanBuilder builder(input.gone_brokers);
  for (auto& pp :
       plan_partitions(input.partitions, input.live_brokers, input.gone_brokers, input.jobs))
    builder.add(std::move(pp));
  return builder.finish();
}

}  // namespace kepoch::forecast
