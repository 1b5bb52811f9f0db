#include "kepoch/report/metadata_report.hpp"

#include <variant>

#include "kepoch/report/common_values.hpp"
#include "kepoch/report/segment_report.hpp"

namespace kepoch::report {
namespace {

Value ids_value(const BrokerIds& ids) {
  Value v = Value::array();
  for (auto id : ids)
    v.push(id);
  return v;
}

Value optional_ids(const std::optional<BrokerIds>& ids) {
  return ids ? ids_value(*ids) : Value();
}

Value uuids_value(const std::vector<Uuid>& ids) {
  Value v = Value::array();
  for (const auto& id : ids)
    v.push(id.to_string());
  return v;
}

Value fields_of(const RegisterBrokerRecord& r, std::uint32_t version) {
  Value endpoints = Value::array();
  for (const auto& e : r.endpoints)
    endpoints.push(Value::object()
                       .set("name", e.name)
                       .set("host", e.host)
                       .set("port", e.port)
                       .set("security_protocol", e.security_protocol));
  Value features = Value::array();
  for (const auto& f : r.features)
    features.push(Value::object()
                      .set("name", f.name)
                      .set("min_supported_version", f.min_supported_version)
                      .set("max_supported_version", f.max_supported_version));
  Value v = Value::object().set("broker_id", r.broker_id);
  if (version >= 2) v.set("is_migrating_zk_broker", r.is_migrating_zk_broker);
  v.set("incarnation_id", r.incarnation_id.to_string())
      .set("broker_epoch", r.broker_epoch)
      .set("end_points", std::move(endpoints))
      .set("features", std::move(features))
      .set("rack", optional_value(r.rack))
      .set("fenced", r.fenced);
  if (version >= 1) v.set("in_controlled_shutdown", r.in_controlled_shutdown);
  if (version >= 3) v.set("log_dirs", uuids_value(r.log_dirs));
  return v;
}

Value fields_of(const PartitionRecord& r, std::uint32_t version) {
  Value v = Value::object()
                .set("partition_id", r.partition_id)
                .set("topic_id", r.topic_id.to_string())
                .set("replicas", ids_value(r.replicas))
                .set("isr", ids_value(r.isr))
                .set("removing_replicas", ids_value(r.removing_replicas))
                .set("adding_replicas", ids_value(r.adding_replicas))
                .set("leader", r.leader)
                .set("leader_recovery_state", r.leader_recovery_state)
                .set("leader_epoch", r.leader_epoch)
                .set("partition_epoch", r.partition_epoch);
  if (version >= 1) v.set("directories", uuids_value(r.directories));
  if (version >= 2)
    v.set("eligible_leader_replicas", optional_ids(r.eligible_leader_replicas))
        .set("last_known_elr", optional_ids(r.last_known_elr));
  return v;
}

// Only the fields the record carries (absent tagged fields mean "unchanged").
Value fields_of(const PartitionChangeRecord& r) {
  Value v =
      Value::object().set("partition_id", r.partition_id).set("topic_id", r.topic_id.to_string());
  if (r.isr) v.set("isr", ids_value(*r.isr));
  if (r.leader != kNoLeaderChange) v.set("leader", r.leader);
  if (r.replicas) v.set("replicas", ids_value(*r.replicas));
  if (r.removing_replicas) v.set("removing_replicas", ids_value(*r.removing_replicas));
  if (r.adding_replicas) v.set("adding_replicas", ids_value(*r.adding_replicas));
  if (r.leader_recovery_state != kNoLeaderRecoveryChange)
    v.set("leader_recovery_state", r.leader_recovery_state);
  if (r.eligible_leader_replicas)
    v.set("eligible_leader_replicas", ids_value(*r.eligible_leader_replicas));
  if (r.last_known_elr) v.set("last_known_elr", ids_value(*r.last_known_elr));
  if (r.directories) v.set("directories", uuids_value(*r.directories));
  return v;
}

Value fields_of(const BrokerRegistrationChangeRecord& r) {
  Value v = Value::object().set("broker_id", r.broker_id).set("broker_epoch", r.broker_epoch);
  if (r.fenced != 0) v.set("fenced", r.fenced);
  if (r.in_controlled_shutdown != 0) v.set("in_controlled_shutdown", r.in_controlled_shutdown);
  if (r.log_dirs) v.set("log_dirs", uuids_value(*r.log_dirs));
  return v;
}

Value step_value(const PartitionStep& s) {
  const PartitionRegistration& p = s.state;
  return Value::object()
      .set("offset", s.at.offset)
      .set("timestamp", s.at.timestamp)
      .set("record", s.record_type)
      .set("causes", strings_value(s.causes))
      .set("leader", p.leader)
      .set("leader_epoch", p.leader_epoch)
      .set("partition_epoch", p.partition_epoch)
      .set("isr", ids_value(p.isr))
      .set("elr", ids_value(p.eligible_leader_replicas))
      .set("last_known_elr", ids_value(p.last_known_elr))
      .set("replicas", ids_value(p.replicas))
      .set("adding_replicas", ids_value(p.adding_replicas))
      .set("removing_replicas", ids_value(p.removing_replicas))
      .set("leader_recovery_state", p.leader_recovery_state)
      .set("directories", uuids_value(p.directories));
}

}  // namespace

Value metadata_fields(const MetadataRecord& record) {
  const std::uint32_t version = record.version;
  return std::visit(
      [&](const auto& r) -> Value {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return Value();
        } else if constexpr (std::is_same_v<T, RegisterBrokerRecord> ||
                             std::is_same_v<T, PartitionRecord>) {
          return fields_of(r, version);
        } else if constexpr (std::is_same_v<T, PartitionChangeRecord> ||
                             std::is_same_v<T, BrokerRegistrationChangeRecord>) {
          return fields_of(r);
        } else if constexpr (std::is_same_v<T, UnregisterBrokerRecord>) {
          return Value::object().set("broker_id", r.broker_id).set("broker_epoch", r.broker_epoch);
        } else if constexpr (std::is_same_v<T, TopicRecord>) {
          return Value::object().set("name", r.name).set("topic_id", r.topic_id.to_string());
        } else if constexpr (std::is_same_v<T, RemoveTopicRecord>) {
          return Value::object().set("topic_id", r.topic_id.to_string());
        } else if constexpr (std::is_same_v<T, FenceBrokerRecord> ||
                             std::is_same_v<T, UnfenceBrokerRecord>) {
          return Value::object().set("id", r.id).set("epoch", r.epoch);
        } else if constexpr (std::is_same_v<T, FeatureLevelRecord>) {
          return Value::object().set("name", r.name).set("feature_level", r.feature_level);
        } else {
          return Value::object();
        }
      },
      record.body);
}

Value metadata_entry_value(const MetadataLogEntry& e) {
  Value v = Value::object()
                .set("offset", e.offset)
                .set("timestamp", e.timestamp)
                .set("leader_epoch", e.batch_leader_epoch);
  const std::vector<std::string>* notes = nullptr;
  if (e.record) {
    v.set("type", metadata_record_type_name(e.record->api_key))
        .set("api_key", e.record->api_key)
        .set("version", e.record->version)
        .set("fields", metadata_fields(*e.record));
    notes = &e.record->notes;
  } else if (e.control) {
    Value fields = control_value(DumpedControl{e.control, std::nullopt});
    v.set("type", "control:" + std::string(control_type_name(e.control->type)))
        .set("version", optional_value(e.control->version))
        .set("fields", std::move(fields));
  } else {
    v.set("type", Value()).set("version", Value()).set("fields", Value());
  }
  if (notes && !notes->empty()) v.set("notes", strings_value(*notes));
  if (e.error) v.set("error", *e.error);
  return v;
}

std::vector<std::string> metadata_entry_table_columns() {
  return {"offset", "timestamp", "leader_epoch", "type", "version", "fields", "error"};
}

Value partition_timeline_value(const PartitionTimeline& t) {
  Value steps = Value::array();
  for (const auto& s : t.steps)
    steps.push(step_value(s));
  return Value::object()
      .set("topic", t.topic)
      .set("topic_id", t.topic_id.to_string())
      .set("partition", t.partition)
      .set("last_led_epoch", optional_value(last_led_epoch(t)))
      .set("steps", std::move(steps));
}

std::vector<std::string> partition_step_table_columns() {
  return {"offset",          "timestamp", "causes", "leader",   "leader_epoch",
          "partition_epoch", "isr",       "elr",    "replicas", "leader_recovery_state"};
}

Value broker_event_value(const BrokerEvent& e) {
  Value v = Value::object()
                .set("offset", e.at.offset)
                .set("timestamp", e.at.timestamp)
                .set("broker_id", e.broker_id)
                .set("broker_epoch", e.broker_epoch)
                .set("event", e.event);
  if (e.fenced) v.set("fenced", *e.fenced);
  return v;
}

Value metadata_problems(const std::vector<std::string>& messages) {
  Value v = Value::array();
  for (const auto& m : messages)
    v.push(Value::object().set("severity", "error").set("message", m));
  return v;
}

}  // namespace kepoch::report
