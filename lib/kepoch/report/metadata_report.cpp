#include "kepoch/report/metadata_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <variant>

#include "kepoch/report/common_values.hpp"
#include "kepoch/report/segment_report.hpp"

namespace kepoch::report {
namespace {

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
  if (r.cordoned_log_dirs) v.set("cordoned_log_dirs", uuids_value(*r.cordoned_log_dirs));
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
    v.set("eligible_leader_replicas", optional_ids_value(r.eligible_leader_replicas))
        .set("last_known_elr", optional_ids_value(r.last_known_elr));
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
  if (r.cordoned_log_dirs) v.set("cordoned_log_dirs", uuids_value(*r.cordoned_log_dirs));
  return v;
}

// "name=value ..." of a generic record's scalar fields (arrays: their length).
std::string schema_summary(const SchemaValue& s) {
  std::string out;
  for (const auto& [name, member] : s.members) {
    if (!out.empty()) out += ' ';
    out += name;
    out += '=';
    switch (member.kind) {
      case SchemaValue::Kind::null:
        out += "null";
        break;
      case SchemaValue::Kind::boolean:
        out += member.boolean ? "true" : "false";
        break;
      case SchemaValue::Kind::integer:
        out += fmt::format("{}", member.integer);
        break;
      case SchemaValue::Kind::floating:
        out += fmt::format("{}", member.floating);
        break;
      case SchemaValue::Kind::text:
        out += member.text;
        break;
      case SchemaValue::Kind::array:
        out += fmt::format("[{} item(s)]", member.items.size());
        break;
      case SchemaValue::Kind::object:
        out += "{...}";
        break;
    }
  }
  return out;
}

std::string ids_text(const BrokerIds& ids) {
  return fmt::format("[{}]", fmt::join(ids, ","));
}

std::string topic_text(const Uuid& id, const TopicNames& names) {
  const auto it = names.find(id.to_string());
  return it != names.end() ? it->second : id.to_string();
}

std::string summary_of(const PartitionRecord& r, const TopicNames& names) {
  std::string s = fmt::format(
      "topic={} partition={} leader={} leader_epoch={} partition_epoch={} "
      "replicas={} isr={}",
      topic_text(r.topic_id, names), r.partition_id, r.leader, r.leader_epoch, r.partition_epoch,
      ids_text(r.replicas), ids_text(r.isr));
  if (r.eligible_leader_replicas && !r.eligible_leader_replicas->empty())
    s += " elr=" + ids_text(*r.eligible_leader_replicas);
  if (r.last_known_elr && !r.last_known_elr->empty())
    s += " last_known_elr=" + ids_text(*r.last_known_elr);
  if (!r.adding_replicas.empty()) s += " adding=" + ids_text(r.adding_replicas);
  if (!r.removing_replicas.empty()) s += " removing=" + ids_text(r.removing_replicas);
  if (r.leader_recovery_state != 0)
    s += fmt::format(" leader_recovery_state={}", r.leader_recovery_state);
  return s;
}

std::string summary_of(const PartitionChangeRecord& r, const TopicNames& names) {
  std::string s =
      fmt::format("topic={} partition={}", topic_text(r.topic_id, names), r.partition_id);
  if (r.leader != kNoLeaderChange) s += fmt::format(" leader={}", r.leader);
  if (r.isr) s += " isr=" + ids_text(*r.isr);
  if (r.eligible_leader_replicas) s += " elr=" + ids_text(*r.eligible_leader_replicas);
  if (r.last_known_elr) s += " last_known_elr=" + ids_text(*r.last_known_elr);
  if (r.replicas) s += " replicas=" + ids_text(*r.replicas);
  if (r.adding_replicas) s += " adding=" + ids_text(*r.adding_replicas);
  if (r.removing_replicas) s += " removing=" + ids_text(*r.removing_replicas);
  if (r.leader_recovery_state != kNoLeaderRecoveryChange)
    s += fmt::format(" leader_recovery_state={}", r.leader_recovery_state);
  if (r.directories) s += fmt::format(" directories={}", r.directories->size());
  return s;
}

std::string summary_of(const RegisterBrokerRecord& r) {
  std::string s =
      fmt::format("broker={} broker_epoch={} fenced={}", r.broker_id, r.broker_epoch, r.fenced);
  if (r.in_controlled_shutdown) s += " in_controlled_shutdown=true";
  for (const auto& e : r.endpoints)
    s += fmt::format(" {}://{}:{}", e.name, e.host, e.port);
  if (r.rack) s += " rack=" + *r.rack;
  return s;
}

std::string summary_of(const BrokerRegistrationChangeRecord& r) {
  std::string s = fmt::format("broker={} broker_epoch={}", r.broker_id, r.broker_epoch);
  if (r.fenced != 0) s += r.fenced == 1 ? " fenced=true" : " fenced=false";
  if (r.in_controlled_shutdown != 0)
    s += fmt::format(" in_controlled_shutdown={}", r.in_controlled_shutdown == 1);
  if (r.log_dirs) s += fmt::format(" log_dirs={}", r.log_dirs->size());
  return s;
}

std::string record_summary(const MetadataRecord& record, const TopicNames& names) {
  return std::visit(
      [&](const auto& r) -> std::string {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, PartitionRecord> ||
                      std::is_same_v<T, PartitionChangeRecord>) {
          return summary_of(r, names);
        } else if constexpr (std::is_same_v<T, RegisterBrokerRecord> ||
                             std::is_same_v<T, BrokerRegistrationChangeRecord>) {
          return summary_of(r);
        } else if constexpr (std::is_same_v<T, UnregisterBrokerRecord>) {
          return fmt::format("broker={} broker_epoch={}", r.broker_id, r.broker_epoch);
        } else if constexpr (std::is_same_v<T, TopicRecord>) {
          return fmt::format("topic={} topic_id={}", r.name, r.topic_id.to_string());
        } else if constexpr (std::is_same_v<T, RemoveTopicRecord>) {
          return fmt::format("topic={} topic_id={}", topic_text(r.topic_id, names),
                             r.topic_id.to_string());
        } else if constexpr (std::is_same_v<T, FenceBrokerRecord> ||
                             std::is_same_v<T, UnfenceBrokerRecord>) {
          return fmt::format("broker={} broker_epoch={}", r.id, r.epoch);
        } else if constexpr (std::is_same_v<T, FeatureLevelRecord>) {
          return fmt::format("{}={}", r.name, r.feature_level);
        } else if constexpr (std::is_same_v<T, ConfigRecord>) {
          return fmt::format("resource_type={} resource_name={} {}={}", r.resource_type,
                             r.resource_name, r.name, r.value ? *r.value : "(deleted)");
        } else if constexpr (std::is_same_v<T, ClearElrRecord>) {
          return r.topic_name.empty() ? "every topic" : "topic=" + r.topic_name;
        } else if constexpr (std::is_same_v<T, GenericRecord>) {
          return schema_summary(r.fields);
        } else {
          return "";
        }
      },
      record.body);
}

std::string voters_text(const std::vector<ControlVoter>& voters) {
  std::vector<std::int32_t> ids;
  for (const auto& v : voters)
    ids.push_back(v.voter_id);
  return ids_text(ids);
}

std::string control_summary(const ControlRecord& c) {
  switch (c.type) {
    case ControlRecordType::leader_change:
      return fmt::format("leader={} voters={} granting_voters={}", c.leader_id.value_or(-1),
                         voters_text(c.voters), voters_text(c.granting_voters));
    case ControlRecordType::snapshot_header:
      return fmt::format("last_contained_log_timestamp={}",
                         c.last_contained_log_timestamp.value_or(-1));
    case ControlRecordType::kraft_version:
      return fmt::format("kraft_version={}", c.kraft_version.value_or(-1));
    case ControlRecordType::kraft_voters:
      return fmt::format("voters={}", voters_text(c.voters));
    case ControlRecordType::abort:
    case ControlRecordType::commit:
      return fmt::format("coordinator_epoch={}", c.coordinator_epoch.value_or(-1));
    default:
      return "";
  }
}

}  // namespace

// A record read by the schema table: its fields as Kafka's JsonConverter writes them.
Value schema_value(const SchemaValue& s) {
  switch (s.kind) {
    case SchemaValue::Kind::null:
      return Value();
    case SchemaValue::Kind::boolean:
      return Value(s.boolean);
    case SchemaValue::Kind::integer:
      return Value(s.integer);
    case SchemaValue::Kind::floating:
      return Value(s.floating);
    case SchemaValue::Kind::text:
      return Value(s.text);
    case SchemaValue::Kind::array: {
      Value v = Value::array();
      for (const auto& item : s.items)
        v.push(schema_value(item));
      return v;
    }
    case SchemaValue::Kind::object: {
      Value v = Value::object();
      for (const auto& [name, member] : s.members)
        v.set(std::string(name), schema_value(member));
      return v;
    }
  }
  return Value();
}

Value partition_step_value(const PartitionStep& s) {
  const PartitionRegistration& p = s.state;
  return Value::object()
      .set("offset", position_offset(s.at))
      .set("timestamp", s.at.timestamp)
      .set("snapshot", position_snapshot(s.at))
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

Value position_offset(const MetadataPosition& at) {
  return at.snapshot || at.offset < 0 ? Value() : Value(at.offset);
}

Value position_snapshot(const MetadataPosition& at) {
  return at.snapshot ? Value(snapshot_id_text(*at.snapshot)) : Value();
}

std::string metadata_summary(const MetadataLogEntry& e, const TopicNames& names) {
  if (e.error) return "error: " + *e.error;
  if (e.record) return record_summary(*e.record, names);
  if (e.control) return control_summary(*e.control);
  return "";
}

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
        } else if constexpr (std::is_same_v<T, ConfigRecord>) {
          return Value::object()
              .set("resource_type", r.resource_type)
              .set("resource_name", r.resource_name)
              .set("name", r.name)
              .set("value", r.value ? Value(*r.value) : Value());
        } else if constexpr (std::is_same_v<T, ClearElrRecord>) {
          return Value::object().set("topic_name", r.topic_name);
        } else if constexpr (std::is_same_v<T, GenericRecord>) {
          return schema_value(r.fields);
        } else {
          return Value::object();
        }
      },
      record.body);
}

Value metadata_entry_value(const MetadataLogEntry& e, const TopicNames& names) {
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
  v.set("summary", metadata_summary(e, names));
  if (notes && !notes->empty()) v.set("notes", strings_value(*notes));
  if (e.error) v.set("error", *e.error);
  return v;
}

std::vector<std::string> metadata_entry_table_columns() {
  return {"offset", "timestamp", "type", "summary"};
}

std::size_t metadata_type_width() {
  std::size_t width = std::string_view("control:snapshot_header").size();
  for (std::uint32_t key = 0; key < 256; ++key) {
    const std::string name = metadata_record_type_name(key);
    if (!name.starts_with("UNKNOWN")) width = std::max(width, name.size());
  }
  return width;
}

Value partition_timeline_leading(const PartitionTimeline& t, std::optional<std::int32_t> last_led) {
  return Value::object()
      .set("topic", t.topic)
      .set("topic_id", t.topic_id.to_string())
      .set("partition", t.partition)
      .set("last_led_epoch", optional_value(last_led));
}

Value partition_timeline_value(const PartitionTimeline& t, const TimeRange& time) {
  Value steps = Value::array();
  for (const auto& s : t.steps)
    if (time.contains(s.at.timestamp)) steps.push(partition_step_value(s));
  return partition_timeline_leading(t, last_led_epoch(t)).set("steps", std::move(steps));
}

std::vector<std::string> partition_step_table_columns() {
  return {"offset",
          "snapshot",
          "timestamp",
          "causes",
          "leader",
          "leader_epoch",
          "partition_epoch",
          "isr",
          "elr",
          "replicas",
          "leader_recovery_state"};
}

Value metadata_start_value(const MetadataReplayPlan& plan, const MetadataReplaySummary& summary) {
  Value snapshot;
  if (plan.snapshot)
    snapshot = Value::object()
                   .set("file", plan.snapshot->path.string())
                   .set("id", snapshot_id_text(plan.snapshot->id))
                   .set("end_offset", plan.snapshot->id.end_offset)
                   .set("epoch", plan.snapshot->id.epoch)
                   .set("last_contained_log_timestamp", optional_value(summary.snapshot_timestamp));
  return Value::object()
      .set("rule", std::string(metadata_start_rule_name(plan.start.rule)))
      .set("snapshot", std::move(snapshot))
      .set("log_start_offset", optional_value(plan.shape.log_start_offset))
      .set("log_end_offset", optional_value(plan.shape.log_end_offset))
      .set("replayed_from_offset",
           plan.start.read_log && !plan.segments.empty() ? Value(plan.start.from_offset) : Value())
      .set("first_log_offset", optional_value(summary.first_log_offset))
      .set("notes", strings_value(plan.notes));
}

Value broker_event_value(const BrokerEvent& e) {
  Value v = Value::object()
                .set("offset", position_offset(e.at))
                .set("timestamp", e.at.timestamp)
                .set("snapshot", position_snapshot(e.at))
                .set("broker_id", e.broker_id)
                .set("broker_epoch", e.broker_epoch)
                .set("event", e.event);
  if (e.fenced) v.set("fenced", *e.fenced);
  return v;
}

Value metadata_problems(const std::vector<std::string>& messages) {
  return problems_value("error", messages);
}

}  // namespace kepoch::report
