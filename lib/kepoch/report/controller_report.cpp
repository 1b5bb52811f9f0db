#include "kepoch/report/controller_report.hpp"

#include "kepoch/metadata/epoch_agreement.hpp"
#include "kepoch/report/common_values.hpp"
#include "kepoch/report/metadata_report.hpp"

namespace kepoch::report {
namespace {

constexpr const char* kStateFields[] = {"topic_id",
                                        "offset",
                                        "snapshot",
                                        "leader",
                                        "leader_epoch",
                                        "partition_epoch",
                                        "leader_recovery_state",
                                        "replicas",
                                        "isr",
                                        "elr",
                                        "last_known_elr",
                                        "last_led_epoch"};

}  // namespace

const PartitionTimeline* find_timeline(const PartitionHistory& history,
                                       const PartitionReplica& replica) {
  const PartitionTimeline* found = nullptr;
  for (const auto* t : history.timelines()) {
    if (t->partition != replica.partition) continue;
    if (replica.topic_id ? *replica.topic_id == t->topic_id : t->topic == replica.topic) found = t;
  }
  return found;
}

Value controller_view_value(const PartitionTimeline* timeline,
                            const std::vector<const PartitionReplica*>& replicas, bool& findings) {
  Value v = Value::object();
  if (!timeline || timeline->steps.empty()) {
    for (const char* f : kStateFields)
      v.set(f, Value());
    return v.set("issued", Value())
        .set("findings", Value::array())
        .set("note", "the metadata log has no PartitionRecord for this partition");
  }
  const PartitionStep& last = timeline->steps.back();
  const PartitionRegistration& p = last.state;
  v.set("topic_id", timeline->topic_id.to_string())
      .set("offset", position_offset(last.at))
      .set("snapshot", position_snapshot(last.at))
      .set("leader", p.leader)
      .set("leader_epoch", p.leader_epoch)
      .set("partition_epoch", p.partition_epoch)
      .set("leader_recovery_state", p.leader_recovery_state)
      .set("replicas", ids_value(p.replicas))
      .set("isr", ids_value(p.isr))
      .set("elr", ids_value(p.eligible_leader_replicas))
      .set("last_known_elr", ids_value(p.last_known_elr))
      .set("last_led_epoch", optional_value(last_led_epoch(*timeline)));
  const auto issued = issued_epochs(*timeline);
  Value list = Value::array();
  for (const auto& i : issued)
    list.push(Value::object()
                  .set("epoch", i.epoch)
                  .set("leader", i.leader)
                  .set("metadata_offset", i.snapshot || i.offset < 0 ? Value() : Value(i.offset))
                  .set("snapshot", i.snapshot ? Value(snapshot_id_text(*i.snapshot)) : Value()));
  Value found = Value::array();
  for (const auto* r : replicas) {
    for (const auto& f : check_epoch_cache(issued, r->checkpoint_entries)) {
      found.push(Value::object().set("replica", r->dir.string()).set("message", f));
      findings = true;
    }
  }
  return v.set("issued", std::move(list)).set("findings", std::move(found));
}

}  // namespace kepoch::report
