#include "kepoch/report/remote_log_metadata_report.hpp"

#include <fmt/format.h>

#include "kepoch/report/common_values.hpp"

namespace kepoch::report {

Value remote_log_metadata_value(const RemoteLogMetadataRecord& record) {
  Value v = Value::object()
                .set("type", remote_log_metadata_type_name(record.api_key))
                .set("api_key", record.api_key)
                .set("version", record.version);
  if (!record.metadata) return v;
  const RemoteLogMetadata& m = *record.metadata;
  using Kind = RemoteLogMetadata::Kind;
  if (m.kind != Kind::segment_snapshot) {
    v.set("topic", m.partition.topic)
        .set("topic_id", m.partition.topic_id.to_string())
        .set("partition", m.partition.partition);
  }
  if (m.kind != Kind::partition_delete) v.set("segment_id", m.segment_id.to_string());
  const auto state = m.kind == Kind::partition_delete ? remote_partition_delete_state_name(m.state)
                                                      : remote_segment_state_name(m.state);
  v.set("state", state ? Value(*state) : Value()).set("state_id", m.state);
  v.set("broker_id", m.broker_id).set("event_timestamp_ms", m.event_timestamp_ms);
  if (m.kind == Kind::segment || m.kind == Kind::segment_snapshot) {
    Value epochs = Value::array();
    for (const auto& [epoch, offset] : m.segment_leader_epochs)
      epochs.push(Value::object().set("leader_epoch", epoch).set("offset", offset));
    v.set("start_offset", m.start_offset)
        .set("end_offset", m.end_offset)
        .set("max_timestamp_ms", m.max_timestamp_ms)
        .set("segment_size_in_bytes", m.segment_size_in_bytes)
        .set("segment_leader_epochs", std::move(epochs))
        .set("txn_index_empty", m.txn_index_empty ? Value(*m.txn_index_empty) : Value());
  }
  if (m.kind != Kind::partition_delete) v.set("custom_metadata", m.custom_metadata);
  if (!record.notes.empty()) v.set("notes", strings_value(record.notes));
  return v;
}

Value live_remote_log_metadata_value(const forecast::LiveRemoteLogMetadata& live) {
  Value v = Value::object().set("complete", live.complete);
  if (!live.complete) v.set("unknown_reason", live.unknown_reason);
  Value partitions = Value::array();
  for (const auto p : live.partitions_read)
    partitions.push(p);
  Value records = Value::array();
  for (const auto& r : live.records) {
    Value one = Value::object().set("partition", r.partition).set("offset", r.offset);
    if (r.record)
      one.set("remote_log_metadata", remote_log_metadata_value(*r.record));
    else
      one.set("error", r.error);
    records.push(std::move(one));
  }
  Value warnings = Value::array();
  for (const auto& w : live.warnings)
    warnings.push(w);
  return v.set("partitions_read", partitions)
      .set("record_count", live.record_count)
      .set("errors", live.errors)
      .set("records", records)
      .set("warnings", warnings);
}

std::string live_remote_log_metadata_summary(const forecast::LiveRemoteLogMetadata& live) {
  if (!live.complete)
    return "__remote_log_metadata could not be read whole, so the remote segments it describes "
           "are unknown: " +
           live.unknown_reason + ".";
  if (live.errors > 0)
    return fmt::format(
        "__remote_log_metadata read whole ({} record(s) in {} partition(s)); {} record(s) do not "
        "decode (Kafka's RemoteLogMetadataSerde refuses them).",
        live.record_count, live.partitions_read.size(), live.errors);
  return fmt::format(
      "__remote_log_metadata read whole: {} record(s) in {} partition(s), every one decoded.",
      live.record_count, live.partitions_read.size());
}

}  // namespace kepoch::report
