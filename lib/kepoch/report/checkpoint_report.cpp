#include "kepoch/report/checkpoint_report.hpp"

#include "kepoch/report/common_values.hpp"

namespace kepoch::report {
namespace {

Value offset_entries(const std::vector<TopicPartitionOffset>& entries) {
  Value list = Value::array();
  for (const auto& e : entries)
    list.push(Value::object()
                  .set("topic", e.topic)
                  .set("partition", e.partition)
                  .set("offset", e.offset));
  return list;
}

Value property_entries(const std::vector<java::Property>& props) {
  Value list = Value::array();
  for (const auto& p : props)
    list.push(Value::object().set("key", p.key).set("value", p.value));
  return list;
}

Value problem_list(const std::vector<Problem>& problems) {
  Value list = Value::array();
  for (const auto& p : problems) {
    Value v = Value::object()
                  .set("severity", p.severity == Severity::error     ? "error"
                                   : p.severity == Severity::warning ? "warning"
                                                                     : "info")
                  .set("line", p.line)
                  .set("message", p.message);
    if (!p.kafka_exception.empty()) {
      v.set("kafka_exception", p.kafka_exception).set("kafka_message", p.kafka_message);
    }
    list.push(std::move(v));
  }
  return list;
}

void content(Value& v, const CheckpointReport& r) {
  switch (r.type.kind) {
    case CheckpointKind::leader_epoch:
      v.set("version", optional_value(r.version)).set("entries", epochs_value(r.epoch_entries));
      break;
    case CheckpointKind::offsets:
      v.set("version", optional_value(r.version)).set("entries", offset_entries(r.offsets));
      break;
    case CheckpointKind::partition_metadata:
      v.set("version", optional_value(r.version))
          .set("topic_id", r.topic_id ? Value(r.topic_id->to_string()) : Value());
      break;
    case CheckpointKind::meta_properties:
      v.set("version", optional_value(r.version))
          .set("node_id", optional_value(r.node_id))
          .set("cluster_id", optional_value(r.cluster_id))
          .set("directory_id", r.directory_id ? Value(r.directory_id->to_string()) : Value())
          .set("entries", property_entries(r.properties));
      break;
  }
}

}  // namespace

Value checkpoint_value(const CheckpointReport& r, CheckDepth depth) {
  Value v = Value::object();
  v.set("file", r.file).set("kind", kind_name(r.type.kind));
  if (r.type.kind == CheckpointKind::offsets) v.set("role", role_name(r.type.role));
  if (r.type.tmp) v.set("tmp", true);
  content(v, r);
  v.set("valid", r.valid);
  if (depth == CheckDepth::validate) {
    v.set("kafka_outcome", outcome_name(r.outcome)).set("kafka_action", r.kafka_action);
    if (r.type.kind == CheckpointKind::leader_epoch) {
      v.set("loaded_entries", r.loaded_entries ? epochs_value(*r.loaded_entries) : Value());
    }
  }
  v.set("problems", problem_list(r.problems));
  return v;
}

}  // namespace kepoch::report
