#include "kepoch/metadata/partition_history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace kepoch {
namespace {

constexpr std::int8_t kRecovering = 1;  // LeaderRecoveryState.RECOVERING

PartitionRegistration from_record(const PartitionRecord& r) {
  PartitionRegistration s;
  s.replicas = r.replicas;
  s.isr = r.isr;
  s.removing_replicas = r.removing_replicas;
  s.adding_replicas = r.adding_replicas;
  s.eligible_leader_replicas = r.eligible_leader_replicas.value_or(BrokerIds{});
  s.last_known_elr = r.last_known_elr.value_or(BrokerIds{});
  s.directories = r.directories;
  s.leader = r.leader;
  s.leader_recovery_state = r.leader_recovery_state;
  s.leader_epoch = r.leader_epoch;
  s.partition_epoch = r.partition_epoch;
  return s;
}

std::set<std::int32_t> as_set(const BrokerIds& ids) {
  return {ids.begin(), ids.end()};
}

// "isr_shrink", "isr_expand" or "isr_change" (a set neither contains the other), or "".
std::string isr_cause(const BrokerIds& before, const BrokerIds& after) {
  const auto b = as_set(before);
  const auto a = as_set(after);
  if (a == b) return "";
  if (std::includes(b.begin(), b.end(), a.begin(), a.end())) return "isr_shrink";
  if (std::includes(a.begin(), a.end(), b.begin(), b.end())) return "isr_expand";
  return "isr_change";
}

std::string leader_cause(const PartitionRegistration& before, const PartitionRegistration& after) {
  if (after.leader == -1) return "leader_lost";
  if (after.leader_recovery_state == kRecovering && before.leader_recovery_state != kRecovering)
    return "unclean_election";
  if (after.leader == before.leader) return "leader_epoch_bump";
  return "leader_change";
}

}  // namespace

PartitionRegistration merge(const PartitionRegistration& before, const PartitionChangeRecord& r) {
  PartitionRegistration s = before;
  if (r.replicas) s.replicas = *r.replicas;
  if (r.directories) s.directories = *r.directories;
  if (r.isr) s.isr = *r.isr;
  if (r.removing_replicas) s.removing_replicas = *r.removing_replicas;
  if (r.adding_replicas) s.adding_replicas = *r.adding_replicas;
  if (r.leader != kNoLeaderChange) {
    s.leader = r.leader;
    s.leader_epoch = before.leader_epoch + 1;
  }
  if (r.leader_recovery_state != kNoLeaderRecoveryChange)
    s.leader_recovery_state = r.leader_recovery_state;
  if (r.eligible_leader_replicas) s.eligible_leader_replicas = *r.eligible_leader_replicas;
  if (r.last_known_elr) s.last_known_elr = *r.last_known_elr;
  s.partition_epoch = before.partition_epoch + 1;
  return s;
}

std::vector<std::string> change_causes(const PartitionRegistration& before,
                                       const PartitionRegistration& after,
                                       const PartitionChangeRecord& r) {
  std::vector<std::string> causes;
  if (r.leader != kNoLeaderChange) causes.push_back(leader_cause(before, after));
  if (before.leader_recovery_state == kRecovering && after.leader_recovery_state != kRecovering)
    causes.push_back("recovered");
  if (const auto c = isr_cause(before.isr, after.isr); !c.empty()) causes.push_back(c);
  if (before.eligible_leader_replicas != after.eligible_leader_replicas ||
      before.last_known_elr != after.last_known_elr)
    causes.push_back("elr_change");
  if (r.replicas || r.adding_replicas || r.removing_replicas) causes.push_back("reassignment");
  if (r.directories && !r.replicas) causes.push_back("directories");
  return causes;
}

bool PartitionReplay::wanted(const Uuid& topic_id, std::int32_t partition) const {
  if (filter_.partition && *filter_.partition != partition) return false;
  if (!filter_.topic) return true;
  const auto it = topic_names_.find(topic_id.to_string());
  return it != topic_names_.end() ? it->second == *filter_.topic
                                  : topic_id.to_string() == *filter_.topic;
}

void PartitionReplay::created(const PartitionRecord& r, MetadataPosition at,
                              PartitionReplayVisitor& visit) {
  if (!wanted(r.topic_id, r.partition_id)) return;
  const std::string id = r.topic_id.to_string();
  Current& c = partitions_[{id, r.partition_id}];
  const auto name = topic_names_.find(id);
  c.partition.topic = name != topic_names_.end() ? name->second : id;
  c.partition.topic_id = r.topic_id;
  c.partition.partition = r.partition_id;
  // A PartitionRecord for a partition already known restates it (Kafka replaces the
  // registration): a new step, caused by the record itself. One read from a snapshot is the
  // partition as of the snapshot.
  const char* cause = at.snapshot ? "as_of_snapshot" : !c.state ? "created" : "restated";
  c.state = from_record(r);
  visit.step(c.partition, {at, "PARTITION_RECORD", *c.state, {cause}});
}

void PartitionReplay::changed(const PartitionChangeRecord& r, MetadataPosition at,
                              PartitionReplayVisitor& visit) {
  if (!wanted(r.topic_id, r.partition_id)) return;
  const auto it = partitions_.find({r.topic_id.to_string(), r.partition_id});
  if (it == partitions_.end() || !it->second.state) {
    visit.orphan(
        fmt::format("PARTITION_CHANGE_RECORD at offset {} for {}-{}, which no "
                    "PARTITION_RECORD created",
                    at.offset, r.topic_id.to_string(), r.partition_id));
    return;
  }
  Current& c = it->second;
  PartitionRegistration after = merge(*c.state, r);
  auto causes = change_causes(*c.state, after, r);
  c.state = std::move(after);
  visit.step(c.partition, {at, "PARTITION_CHANGE_RECORD", *c.state, std::move(causes)});
}

void PartitionReplay::removed(const RemoveTopicRecord& r, MetadataPosition at,
                              PartitionReplayVisitor& visit) {
  const std::string id = r.topic_id.to_string();
  for (auto& [key, c] : partitions_) {
    if (std::get<0>(key) != id || !c.state) continue;
    visit.step(c.partition, {at, "REMOVE_TOPIC_RECORD", *c.state, {"deleted"}});
  }
}

// TopicsDelta.replay(ClearElrRecord) (Kafka 4.1+; the controller writes it when ELR is turned
// off, for a topic or, with an empty name, for all): each partition of the topic with an ELR
// or a last known ELR is merged with a PartitionChangeRecord that empties both
// (TopicDelta.maybeClearElr), so its partition epoch moves on as any merge's does; a
// partition with neither is left as it is. A topic name no TopicRecord gave is Kafka's
// "Unable to clear elr for topic with name X: no such topic found." (the record cannot be
// replayed).
void PartitionReplay::elr_cleared(const ClearElrRecord& r, MetadataPosition at,
                                  PartitionReplayVisitor& visit) {
  std::optional<std::string> id;
  if (!r.topic_name.empty()) {
    for (const auto& [topic_id, name] : topic_names_)
      if (name == r.topic_name) id = topic_id;
    if (!id) {
      visit.orphan(
          fmt::format("CLEAR_ELR_RECORD at offset {} for topic {}, which no "
                      "TOPIC_RECORD created: Kafka's \"Unable to clear elr for topic "
                      "with name {}: no such topic found.\"",
                      at.offset, r.topic_name, r.topic_name));
      return;
    }
  }
  for (auto& [key, c] : partitions_) {
    if ((id && std::get<0>(key) != *id) || !c.state) continue;
    if (c.state->eligible_leader_replicas.empty() && c.state->last_known_elr.empty()) continue;
    PartitionChangeRecord change;
    change.partition_id = std::get<1>(key);
    change.topic_id = c.partition.topic_id;
    change.eligible_leader_replicas = BrokerIds{};
    change.last_known_elr = BrokerIds{};
    PartitionRegistration after = merge(*c.state, change);
    auto causes = change_causes(*c.state, after, change);
    c.state = std::move(after);
    visit.step(c.partition, {at, "CLEAR_ELR_RECORD", *c.state, std::move(causes)});
  }
}

void PartitionReplay::broker(const MetadataRecord& record, MetadataPosition at,
                             PartitionReplayVisitor& visit) {
  auto add = [&](std::int32_t id, std::int64_t epoch, std::string event,
                 std::optional<bool> fenced = std::nullopt) {
    visit.broker({at, id, epoch, std::move(event), fenced});
  };
  if (const auto* r = std::get_if<RegisterBrokerRecord>(&record.body)) {
    add(r->broker_id, r->broker_epoch, at.snapshot ? "as_of_snapshot" : "registered", r->fenced);
  } else if (const auto* u = std::get_if<UnregisterBrokerRecord>(&record.body)) {
    add(u->broker_id, u->broker_epoch, "unregistered");
  } else if (const auto* f = std::get_if<FenceBrokerRecord>(&record.body)) {
    add(f->id, f->epoch, "fenced");
  } else if (const auto* uf = std::get_if<UnfenceBrokerRecord>(&record.body)) {
    add(uf->id, uf->epoch, "unfenced");
  } else if (const auto* c = std::get_if<BrokerRegistrationChangeRecord>(&record.body)) {
    if (c->fenced == 1) add(c->broker_id, c->broker_epoch, "fenced");
    if (c->fenced == -1) add(c->broker_id, c->broker_epoch, "unfenced");
    if (c->in_controlled_shutdown == 1) add(c->broker_id, c->broker_epoch, "controlled_shutdown");
  }
}

void PartitionReplay::apply(const MetadataRecord& record, MetadataPosition at,
                            PartitionReplayVisitor& visit) {
  if (const auto* t = std::get_if<TopicRecord>(&record.body)) {
    topic_names_[t->topic_id.to_string()] = t->name;
  } else if (const auto* p = std::get_if<PartitionRecord>(&record.body)) {
    created(*p, at, visit);
  } else if (const auto* c = std::get_if<PartitionChangeRecord>(&record.body)) {
    changed(*c, at, visit);
  } else if (const auto* rm = std::get_if<RemoveTopicRecord>(&record.body)) {
    removed(*rm, at, visit);
  } else if (const auto* ce = std::get_if<ClearElrRecord>(&record.body)) {
    elr_cleared(*ce, at, visit);
  } else {
    broker(record, at, visit);
  }
}

void PartitionHistory::step(const PartitionTimeline& partition, const PartitionStep& step) {
  PartitionTimeline& t = timelines_[{partition.topic_id.to_string(), partition.partition}];
  t.topic = partition.topic;
  t.topic_id = partition.topic_id;
  t.partition = partition.partition;
  t.steps.push_back(step);
}

std::optional<std::int32_t> last_led_epoch(const PartitionTimeline& timeline) {
  for (auto it = timeline.steps.rbegin(); it != timeline.steps.rend(); ++it) {
    if (it->state.leader != -1) return it->state.leader_epoch;
  }
  return std::nullopt;
}

std::vector<const PartitionTimeline*> PartitionHistory::timelines() const {
  std::vector<const PartitionTimeline*> out;
  for (const auto& [key, t] : timelines_)
    out.push_back(&t);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto* a, const auto* b) { return timeline_order(*a, *b); });
  return out;
}

bool timeline_order(const PartitionTimeline& a, const PartitionTimeline& b) {
  return std::tie(a.topic, a.partition) < std::tie(b.topic, b.partition);
}

}  // namespace kepoch
