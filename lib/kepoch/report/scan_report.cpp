#include "kepoch/report/scan_report.hpp"

#include <fmt/format.h>

#include <string>

#include "kepoch/report/common_values.hpp"

namespace kepoch::report {
namespace {

std::string finding_text(const FindingSummary& f) {
  std::string out = f.file;
  if (f.position) {
    out += '@';
    out += std::to_string(*f.position);
  }
  if (!out.empty()) out += ": ";
  return out + f.message;
}

Value compact_row(const PartitionScan& p) {
  return Value::object()
      .set("partition", p.name)
      .set("log_end_offset", p.unreadable ? Value() : Value(p.log_end_offset))
      .set("segments", p.segments)
      .set("bytes", p.bytes)
      .set("errors", p.errors)
      .set("warnings", p.warnings)
      .set("first_problem", p.first_error     ? Value(finding_text(*p.first_error))
                            : p.first_warning ? Value(finding_text(*p.first_warning))
                                              : Value());
}

Value partition_row(const PartitionScan& p) {
  // What the next start of Kafka would cut, else what a full recovery would.
  const auto& cut = p.recovery_next_start ? p.recovery_next_start : p.recovery_full;
  Value row = Value::object();
  row.set("dir", p.dir.string())
      .set("name", p.name)
      .set("topic", p.topic)
      .set("partition", p.partition)
      .set("state", p.state)
      .set("metadata_log", p.metadata_log)
      .set("log_start_offset", p.unreadable ? Value() : Value(p.log_start_offset))
      .set("log_end_offset", p.unreadable ? Value() : Value(p.log_end_offset))
      .set("high_watermark", optional_value(p.high_watermark))
      .set("segments", p.segments)
      .set("bytes", p.bytes)
      .set("batches", p.batches)
      .set("errors", p.errors)
      .set("warnings", p.warnings)
      .set("first_error", p.first_error ? Value(finding_text(*p.first_error)) : Value())
      .set("first_error_file", p.first_error ? Value(p.first_error->file) : Value())
      .set("first_error_position",
           p.first_error ? optional_value(p.first_error->position) : Value())
      .set("first_warning", p.first_warning ? Value(finding_text(*p.first_warning)) : Value())
      .set("recovery_truncate_to_offset", cut ? Value(cut->truncate_to_offset) : Value())
      .set("recovery_truncated_bytes",
           cut ? Value(cut->truncated_bytes + cut->deleted_bytes) : Value());
  return row;
}

Value epochs_value(const std::vector<EpochEntry>& entries) {
  Value v = Value::array();
  for (const auto& e : entries)
    v.push(Value::object().set("epoch", e.epoch).set("start_offset", e.start_offset));
  return v;
}

// What the leader's remote-log retention does to a segment (epoch/remote_retention.hpp).
Value fate_value(const std::optional<RemoteSegmentFate>& f) {
  if (!f) return Value();
  return Value::object()
      .set("fate", std::string(remote_fate_name(f->fate)))
      .set("deleted", remote_fate_deleted(f->fate))
      .set("pass", f->pass > 0 ? Value(f->pass) : Value())
      .set("truncation_after", f->truncation_after ? Value(*f->truncation_after) : Value())
      .set("reason", f->reason);
}

// compact (the table): a segment is one row, its epochs "epoch@offset ...".
Value tiered_value(const TieredLogDirView& t, bool compact) {
  if (t.metadata_partitions.empty()) return Value();
  Value parts = Value::array();
  for (const auto& p : t.partitions) {
    Value segments = Value::array();
    std::size_t finished = 0;
    for (const auto& s : p.segments) {
      if (s.state == "COPY_SEGMENT_FINISHED") ++finished;
      if (compact) {
        std::string epochs;
        for (const auto& e : s.leader_epochs)
          epochs += fmt::format("{}{}@{}", epochs.empty() ? "" : " ", e.epoch, e.start_offset);
        segments.push(
            Value::object()
                .set("start_offset", s.start_offset)
                .set("end_offset", s.end_offset)
                .set("state", s.state)
                .set("leader_epochs", epochs)
                .set("within_lineage", s.within_lineage ? Value(*s.within_lineage) : Value())
                .set("fate", s.fate ? Value(std::string(remote_fate_name(s.fate->fate))) : Value())
                .set("segment_id", s.segment_id.to_string()));
        continue;
      }
      segments.push(
          Value::object()
              .set("segment_id", s.segment_id.to_string())
              .set("start_offset", s.start_offset)
              .set("end_offset", s.end_offset)
              .set("size_in_bytes", s.size_in_bytes)
              .set("broker_id", s.broker_id)
              .set("state", s.state)
              .set("leader_epochs", epochs_value(s.leader_epochs))
              .set("within_lineage", s.within_lineage ? Value(*s.within_lineage) : Value())
              .set("lineage_reason", s.lineage_reason.empty() ? Value() : Value(s.lineage_reason))
              .set("retention_fate", fate_value(s.fate))
              .set("retention_fate_kafka_3_9", fate_value(s.fate_kafka_3_9)));
    }
    Value findings = Value::array();
    for (const auto& f : p.findings)
      findings.push(Value::object()
                        .set("severity", f.severity)
                        .set("kind", f.kind)
                        .set("message", f.message));
    auto opt = [](const std::optional<std::int64_t>& v) { return v ? Value(*v) : Value(); };
    parts.push(Value::object()
                   .set("topic", p.topic)
                   .set("partition", p.partition)
                   .set("topic_id", p.topic_id.to_string())
                   .set("remote_start", opt(p.remote_start))
                   .set("remote_end", opt(p.remote_end))
                   .set("remote_segments", finished)
                   .set("partition_delete_state",
                        p.partition_delete_state ? Value(*p.partition_delete_state) : Value())
                   .set("local_replica", p.local_replica)
                   .set("local_start", p.local_replica ? Value(p.local_start) : Value())
                   .set("local_end", p.local_replica ? Value(p.local_end) : Value())
                   .set("local_epochs",
                        p.local_replica && !compact ? epochs_value(p.local_epochs) : Value())
                   .set("log_start_after_retention", opt(p.log_start_after_retention))
                   .set("findings", std::move(findings))
                   .set("segments", std::move(segments)));
  }
  return Value::object()
      .set("metadata_partitions", strings_value(t.metadata_partitions))
      .set("records", t.records)
      .set("partitions", std::move(parts));
}

// compact (the table): an entry's files as a count, its note left to JSON/YAML.
Value remote_index_cache_value(const RemoteIndexCacheView& c, bool compact) {
  auto opt = [](const auto& v) { return v ? Value(*v) : Value(); };
  Value entries = Value::array();
  for (const auto& e : c.entries) {
    Value files = Value::array();
    for (const auto& f : e.files)
      files.push(f);
    Value row = Value::object()
                    .set("start_offset", opt(e.start_offset))
                    .set("segment_id", e.segment_id.to_string())
                    .set("state", e.state)
                    .set("at_startup", e.at_startup)
                    .set("metadata", e.metadata)
                    .set("topic", e.topic.empty() ? Value() : Value(e.topic))
                    .set("partition", opt(e.partition));
    if (compact) {
      row.set("files", e.files.size()).set("bytes", e.bytes);
    } else {
      row.set("files", std::move(files))
          .set("bytes", e.bytes)
          .set("segment_state", opt(e.segment_state))
          .set("metadata_start_offset", opt(e.metadata_start_offset))
          .set("metadata_end_offset", opt(e.metadata_end_offset))
          .set("startup_note", e.startup_note);
    }
    entries.push(std::move(row));
  }
  Value findings = Value::array();
  for (const auto& f : c.findings)
    findings.push(Value::object()
                      .set("severity", f.severity)
                      .set("kind", f.kind)
                      .set("file", f.file)
                      .set("message", f.message));
  return Value::object()
      .set("dir", c.dir.string())
      .set("files", c.files)
      .set("bytes", c.bytes)
      .set("metadata_read", c.metadata_read)
      .set("unreadable", opt(c.unreadable))
      .set("findings", std::move(findings))
      .set("entries", std::move(entries));
}

}  // namespace

Value scan_value(const std::vector<LogDirScan>& scans, bool all, bool compact,
                 const std::vector<TieredLogDirView>* tiered,
                 const std::vector<std::optional<RemoteIndexCacheView>>* caches) {
  Value dirs = Value::array();
  for (std::size_t i = 0; i < scans.size(); ++i) {
    const LogDirScan& s = scans[i];
    if (s.unreadable) continue;
    Value checkpoints = Value::array();
    for (const auto& c : s.checkpoints) {
      checkpoints.push(
          Value::object()
              .set("file", c.file)
              .set("kind", c.kind)
              .set("valid", c.valid)
              .set("errors", c.errors)
              .set("warnings", c.warnings)
              .set("first_problem", c.first_problem.empty() ? Value() : Value(c.first_problem)));
    }
    Value problems = Value::array();
    for (const auto& p : s.problems)
      problems.push(Value::object()
                        .set("file", p.file)
                        .set("severity", p.severity)
                        .set("message", p.message)
                        .set("kafka_outcome", p.kafka_outcome));
    Value rows = Value::array();
    for (const auto& p : s.partitions)
      if (all || p.errors > 0 || p.warnings > 0)
        rows.push(compact ? compact_row(p) : partition_row(p));
    Value dir = Value::object()
                    .set("dir", s.dir.string())
                    .set("partitions", s.partitions.size())
                    .set("with_errors", s.with_errors())
                    .set("with_warnings", s.with_warnings())
                    .set("segments", s.total_segments())
                    .set("bytes", s.total_bytes())
                    .set("batches", s.total_batches())
                    .set("checkpoints_valid", s.checkpoints_valid())
                    // What decides the exit code (LogDirScan::has_errors): partitions,
                    // checkpoints, and the log dir's own errors (a dir Kafka refuses to load).
                    .set("has_errors", s.has_errors())
                    .set("checkpoints", std::move(checkpoints))
                    .set("notes", strings_value(s.notes))
                    .set("problems", std::move(problems))
                    .set("partitions_report", std::move(rows));
    // null when the log dir holds no __remote_log_metadata (left out of the table).
    if (tiered && i < tiered->size()) {
      Value t = tiered_value((*tiered)[i], compact);
      if (!compact || !t.is_null()) dir.set("tiered", std::move(t));
    }
    // null when the log dir has no remote-log-index-cache (left out of the table).
    if (caches && i < caches->size()) {
      const auto& c = (*caches)[i];
      if (c)
        dir.set("remote_index_cache", remote_index_cache_value(*c, compact));
      else if (!compact)
        dir.set("remote_index_cache", Value());
    }
    dirs.push(std::move(dir));
  }
  return Value::object().set("log_dirs", std::move(dirs));
}

}  // namespace kepoch::report
