#include "kepoch/report/checkpoint_report.hpp"

#include "kepoch/report/common_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "kepoch/base/text.hpp"

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

namespace {

std::size_t count_of(const CheckpointReport& r, Severity severity) {
  return static_cast<std::size_t>(
      std::count_if(r.problems.begin(), r.problems.end(),
                    [&](const Problem& p) { return p.severity == severity; }));
}

// "line 4: expected 2 fields ..." or the message alone when it is about the whole file.
std::string where_and_what(const Problem& p) {
  return p.line > 0 ? fmt::format("line {}: {}", p.line, p.message) : p.message;
}

std::string entries_phrase(const CheckpointReport& r) {
  switch (r.type.kind) {
    case CheckpointKind::leader_epoch:
      return fmt::format("{} epoch entr{}", r.epoch_entries.size(),
                         r.epoch_entries.size() == 1 ? "y" : "ies");
    case CheckpointKind::offsets:
      return fmt::format("{} partition offset{}", r.offsets.size(),
                         r.offsets.size() == 1 ? "" : "s");
    case CheckpointKind::meta_properties:
      return r.node_id ? fmt::format("node {}", *r.node_id) : "no node id";
    case CheckpointKind::partition_metadata:
      return r.topic_id ? "topic id " + r.topic_id->to_string() : "no topic id";
  }
  return "";
}

}  // namespace

std::string checkpoint_summary(const CheckpointReport& r, CheckDepth depth) {
  const std::size_t errors = count_of(r, Severity::error);
  const std::size_t warnings = count_of(r, Severity::warning);
  // What Kafka does with it: validate knows (kafka_action); dump only whether Kafka reads it.
  const std::string kafka = depth == CheckDepth::validate && !r.kafka_action.empty()
                                ? r.kafka_action
                                : (r.valid ? "Kafka reads it" : "Kafka rejects it");
  const auto first = [&](Severity s) {
    return std::find_if(r.problems.begin(), r.problems.end(),
                        [&](const Problem& p) { return p.severity == s; });
  };
  if (!r.valid) {
    const auto e = first(Severity::error);
    const std::string why = e != r.problems.end() ? " (" + where_and_what(*e) + ")" : "";
    const std::string more =
        errors > 1 ? fmt::format(", and {} more error{}", errors - 1, errors == 2 ? "" : "s") : "";
    return fmt::format("{} is not usable as written{}{}. {}.", r.file, why, more, kafka);
  }
  if (warnings > 0) {
    const auto w = first(Severity::warning);
    return fmt::format("{} is readable ({}) with {} warning{}, the first at {}. {}.", r.file,
                       entries_phrase(r), warnings, warnings == 1 ? "" : "s", where_and_what(*w),
                       kafka);
  }
  return fmt::format("{} is intact: {}, no problem. {}.", r.file, entries_phrase(r), kafka);
}

Value checkpoint_value(const CheckpointReport& r, CheckDepth depth) {
  Value v = Value::object();
  v.set("summary", checkpoint_summary(r, depth));
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

namespace {

std::size_t digits(std::int64_t v) {
  std::size_t n = v < 0 ? 2 : 1;
  for (std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
       u >= 10; u /= 10)
    ++n;
  return n;
}

// The table's columns as wide as their widest value: rows are written one at a time.
void epoch_widths(ReportStream& stream, const std::vector<EpochEntry>& entries) {
  std::size_t epoch = 0, start = 0;
  for (const auto& e : entries) {
    epoch = std::max(epoch, digits(e.epoch));
    start = std::max(start, digits(e.start_offset));
  }
  stream.min_column_width("epoch", epoch);
  stream.min_column_width("start_offset", start);
}

void write_epochs(ReportStream& stream, const std::vector<EpochEntry>& entries) {
  for (const auto& e : entries) {
    stream.write_element([&e](ObjectWriter& w) {
      w.integer("epoch", e.epoch);
      w.integer("start_offset", e.start_offset);
    });
  }
}

void write_offsets(ReportStream& stream, const std::vector<TopicPartitionOffset>& entries) {
  std::size_t topic = 0, partition = 0, offset = 0;
  for (const auto& e : entries) {
    topic =
        std::max(topic, needs_escape(e.topic) ? escape_control(e.topic).size() : e.topic.size());
    partition = std::max(partition, digits(e.partition));
    offset = std::max(offset, digits(e.offset));
  }
  stream.min_column_width("topic", topic);
  stream.min_column_width("partition", partition);
  stream.min_column_width("offset", offset);
  for (const auto& e : entries) {
    stream.write_element([&e](ObjectWriter& w) {
      w.string("topic", e.topic);
      w.integer("partition", e.partition);
      w.integer("offset", e.offset);
    });
  }
}

}  // namespace

void write_checkpoint(ReportStream& stream, const CheckpointReport& r, CheckDepth depth) {
  const CheckpointKind kind = r.type.kind;
  if (kind == CheckpointKind::partition_metadata) return stream.item(checkpoint_value(r, depth));

  Value head = Value::object();
  head.set("summary", checkpoint_summary(r, depth));
  head.set("file", r.file).set("kind", kind_name(kind));
  if (kind == CheckpointKind::offsets) head.set("role", role_name(r.type.role));
  if (r.type.tmp) head.set("tmp", true);
  head.set("version", optional_value(r.version));
  if (kind == CheckpointKind::meta_properties) {
    head.set("node_id", optional_value(r.node_id))
        .set("cluster_id", optional_value(r.cluster_id))
        .set("directory_id", r.directory_id ? Value(r.directory_id->to_string()) : Value());
  }
  stream.begin_item(head, "entries");
  switch (kind) {
    case CheckpointKind::leader_epoch:
      epoch_widths(stream, r.epoch_entries);
      write_epochs(stream, r.epoch_entries);
      break;
    case CheckpointKind::offsets:
      write_offsets(stream, r.offsets);
      break;
    case CheckpointKind::meta_properties:
      for (const auto& p : r.properties)
        stream.element(Value::object().set("key", p.key).set("value", p.value));
      break;
    case CheckpointKind::partition_metadata:
      break;
  }

  Value middle = Value::object();
  middle.set("valid", r.valid);
  if (depth == CheckDepth::validate) {
    middle.set("kafka_outcome", outcome_name(r.outcome)).set("kafka_action", r.kafka_action);
    if (kind == CheckpointKind::leader_epoch) {
      if (r.loaded_entries) {
        stream.next_list(middle, "loaded_entries");
        epoch_widths(stream, *r.loaded_entries);
        write_epochs(stream, *r.loaded_entries);
        stream.end_item(Value::object().set("problems", problem_list(r.problems)));
        return;
      }
      middle.set("loaded_entries", Value());
    }
  }
  middle.set("problems", problem_list(r.problems));
  stream.end_item(middle);
}

}  // namespace kepoch::report
