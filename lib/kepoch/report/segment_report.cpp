#include "kepoch/report/segment_report.hpp"

#include <fmt/format.h>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/compression.hpp"
#include "kepoch/report/common_values.hpp"
#include "kepoch/report/json_object_writer.hpp"
#include "kepoch/report/metadata_report.hpp"
#include "kepoch/report/remote_log_metadata_report.hpp"

namespace kepoch::report {
namespace {

std::string_view codec_name(int codec) {
  const auto type = compression_from_attributes(codec);
  return type ? compression_name(*type) : "unknown";
}

// Printable bytes as they are; anything else as \xNN (kcat's convention).
std::string as_text(std::span<const std::uint8_t> b) {
  std::string out;
  for (std::uint8_t c : b) {
    if (c >= 0x20 && c < 0x7f && c != '\\')
      out += static_cast<char>(c);
    else
      out += fmt::format("\\x{:02x}", c);
  }
  return out;
}

std::string as_hex(std::span<const std::uint8_t> b) {
  std::string out;
  for (std::uint8_t c : b)
    out += fmt::format("{:02x}", c);
  return out;
}

std::string as_base64(std::span<const std::uint8_t> b) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < b.size(); i += 3) {
    const std::uint32_t v = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    for (int s = 18; s >= 0; s -= 6)
      out += kAlphabet[(v >> s) & 0x3f];
  }
  if (i < b.size()) {
    const std::uint32_t v = (b[i] << 16) | (i + 1 < b.size() ? b[i + 1] << 8 : 0);
    out += kAlphabet[(v >> 18) & 0x3f];
    out += kAlphabet[(v >> 12) & 0x3f];
    out += i + 1 < b.size() ? kAlphabet[(v >> 6) & 0x3f] : '=';
    out += '=';
  }
  return out;
}

Value voter_value(const ControlVoter& v) {
  Value endpoints = Value::array();
  for (const auto& e : v.endpoints)
    endpoints.push(Value::object().set("name", e.name).set("host", e.host).set("port", e.port));
  return Value::object()
      .set("voter_id", v.voter_id)
      .set("voter_directory_id", v.voter_directory_id ? v.voter_directory_id->to_string() : Value())
      .set("endpoints", std::move(endpoints))
      .set("kraft_version_feature", Value::object()
                                        .set("min_supported_version", v.min_supported_version)
                                        .set("max_supported_version", v.max_supported_version));
}

Value voter_ids(const std::vector<ControlVoter>& voters) {
  Value ids = Value::array();
  for (const auto& v : voters)
    ids.push(v.voter_id);
  return ids;
}

// The type's own fields, named as Kafka's message schemas name them (snake_case).
void control_fields(Value& v, const ControlRecord& c) {
  if (c.version) v.set("version", *c.version);
  switch (c.type) {
    case ControlRecordType::abort:
    case ControlRecordType::commit:
      if (c.coordinator_epoch) v.set("coordinator_epoch", *c.coordinator_epoch);
      break;
    case ControlRecordType::leader_change:
      if (!c.leader_id) break;
      v.set("leader_id", *c.leader_id)
          .set("voters", voter_ids(c.voters))
          .set("granting_voters", voter_ids(c.granting_voters));
      break;
    case ControlRecordType::snapshot_header:
      if (c.last_contained_log_timestamp)
        v.set("last_contained_log_timestamp", *c.last_contained_log_timestamp);
      break;
    case ControlRecordType::kraft_version:
      if (c.kraft_version) v.set("kraft_version", *c.kraft_version);
      break;
    case ControlRecordType::kraft_voters: {
      Value voters = Value::array();
      for (const auto& voter : c.voters)
        voters.push(voter_value(voter));
      if (c.version) v.set("voters", std::move(voters));
      break;
    }
    default:
      break;
  }
}

}  // namespace

Value control_value(const DumpedControl& d) {
  Value v = Value::object();
  if (d.control) {
    const ControlRecord& c = *d.control;
    v.set("type", control_type_name(c.type))
        .set("type_id", c.type_id)
        .set("key_version", c.key_version);
    control_fields(v, c);
    if (!c.notes.empty()) v.set("notes", strings_value(c.notes));
  }
  if (d.error) v.set("error", *d.error);
  return v;
}

Value coordinator_value(const DumpedCoordinator& d) {
  Value v = Value::object();
  if (d.record) {
    const CoordinatorRecord& r = *d.record;
    v.set("type", r.type->snake_name)
        .set("type_id", r.type->type)
        .set("key", schema_value(r.key))
        .set("value_version", r.value_version ? Value(*r.value_version) : Value())
        .set("value", schema_value(r.value));
    if (!r.notes.empty()) v.set("notes", strings_value(r.notes));
  }
  if (d.error) v.set("error", *d.error);
  return v;
}

namespace {

// A decoded field as JSON: the text json_object_writer writes for schema_value(s).
void append_schema_json(detail::TextBuffer& out, const SchemaValue& s) {
  switch (s.kind) {
    case SchemaValue::Kind::null:
      out += "null";
      return;
    case SchemaValue::Kind::boolean:
      out += s.boolean ? "true" : "false";
      return;
    case SchemaValue::Kind::integer:
      return detail::append_json_integer(out, s.integer);
    case SchemaValue::Kind::floating:
      return detail::append_json(out, Value(s.floating));
    case SchemaValue::Kind::text:
      return detail::append_json_string(out, s.text);
    case SchemaValue::Kind::array:
      out += '[';
      for (std::size_t i = 0; i < s.items.size(); ++i) {
        if (i) out += ',';
        append_schema_json(out, s.items[i]);
      }
      out += ']';
      return;
    case SchemaValue::Kind::object:
      out += '{';
      for (std::size_t i = 0; i < s.members.size(); ++i) {
        if (i) out += ',';
        detail::append_json_string(out, s.members[i].name);
        out += ':';
        append_schema_json(out, s.members[i].value);
      }
      out += '}';
      return;
  }
}

// coordinator_value(d), written as JSON without building it (one per record of a
// __consumer_offsets dump).
class CoordinatorMember final : public LazyMember {
 public:
  explicit CoordinatorMember(const DumpedCoordinator& d) : d_(d) {}
  Value value() const override { return coordinator_value(d_); }
  void append_json(detail::TextBuffer& out) const override {
    out += '{';
    bool first = true;
    const auto key = [&](std::string_view k) {
      if (!first) out += ',';
      first = false;
      detail::append_json_string(out, k);
      out += ':';
    };
    if (d_.record) {
      const CoordinatorRecord& r = *d_.record;
      key("type");
      detail::append_json_string(out, r.type->snake_name);
      key("type_id");
      detail::append_json_integer(out, r.type->type);
      key("key");
      append_schema_json(out, r.key);
      key("value_version");
      if (r.value_version)
        detail::append_json_integer(out, *r.value_version);
      else
        out += "null";
      key("value");
      append_schema_json(out, r.value);
      if (!r.notes.empty()) {
        key("notes");
        detail::append_json(out, strings_value(r.notes));
      }
    }
    if (d_.error) {
      key("error");
      detail::append_json_string(out, *d_.error);
    }
    out += '}';
  }

 private:
  const DumpedCoordinator& d_;
};

void write_data(ObjectWriter& w, std::string_view key,
                const std::optional<std::span<const std::uint8_t>>& b, DataFormat f) {
  if (!b) return w.null(key);
  switch (f) {
    case DataFormat::hex:
      return w.string(key, as_hex(*b));
    case DataFormat::base64:
      return w.string(key, as_base64(*b));
    default:
      return w.string(key, as_text(*b));
  }
}

// The file position of a record value: inside an uncompressed batch's bytes exactly; in
// decompressed bytes, the batch's.
// `entry` is the batch's bytes as read from the file (walk_records clears b.unwalked).
std::uint64_t value_position(const DumpedBatch& b, std::span<const std::uint8_t> entry,
                             std::span<const std::uint8_t> value) {
  const auto begin = reinterpret_cast<std::uintptr_t>(entry.data());
  const auto at = reinterpret_cast<std::uintptr_t>(value.data());
  if (!entry.empty() && at >= begin && at <= begin + entry.size())
    return b.header.position + (at - begin);
  return b.header.position;
}

// A record's value decoded as a __remote_log_metadata record (RemoteLogMetadataSerde).
Value remote_value(const DumpedBatch& b, std::span<const std::uint8_t> entry, const Record& r,
                   RecordDecoding& decoding) {
  std::uint64_t position = b.header.position;
  std::string error;
  if (!r.value) {
    error = "the value is null (RemoteLogMetadataSerde reads a value)";
  } else {
    position = value_position(b, entry, *r.value);
    try {
      return remote_log_metadata_value(decode_remote_log_metadata_record(*r.value, position));
    } catch (const FormatError& e) {
      position = e.position();
      error = e.what();
    }
  }
  ++decoding.errors;
  if (decoding.problems.size() < RecordDecoding::kMaxProblems) {
    decoding.problems.push_back(
        Value::object()
            .set("severity", "error")
            .set("position", position)
            .set("message", fmt::format("record at offset {}: {}", r.offset, error)));
  }
  return Value::object().set("error", error).set("position", position);
}

// A record's integer members, in the order every form writes them.
constexpr std::string_view kRecordNames[] = {"offset",   "timestamp",  "sequence", "size",
                                             "key_size", "value_size", "headers"};
struct RecordIntegers {
  std::int64_t values[std::size(kRecordNames)];
  explicit RecordIntegers(const Record& r)
      : values{r.offset,
               r.timestamp,
               r.sequence,
               r.size_in_bytes,
               r.key ? static_cast<std::int64_t>(r.key->size()) : -1,
               r.value ? static_cast<std::int64_t>(r.value->size()) : -1,
               static_cast<std::int64_t>(r.headers.size())} {}
};

// A record of a plain v2 data batch (no decode, no data): its integers only, the object in
// one call. The usual record: write_records picks this path once per batch.
void write_plain_record(ObjectWriter& w, const Record& r) {
  const RecordIntegers i(r);
  w.integers_object(kRecordNames, i.values);
}

// A record as an object of the list begun by begin_objects, with whatever decode its
// batch and segment ask for.
void write_record(ObjectWriter& w, const DumpedBatch& b, std::span<const std::uint8_t> entry,
                  const Record& r, const DumpedControl* control,
                  const DumpedCoordinator* coordinator, DataFormat data, RecordDecoding* decoding) {
  const bool decode = decoding && decoding->remote_log_metadata && !control &&
                      !b.header.is_control() && r.magic >= 2;
  const MemberNames names(kRecordNames);
  const RecordIntegers integers(r);
  const std::span<const std::int64_t> values(integers.values);
  if (r.magic >= 2 && !control && !coordinator && data == DataFormat::none && !decode)
    return w.integers_object(names, values);
  w.begin_object();
  if (coordinator) {
    // The decode right after the offset: what a table's record line shows first.
    w.integer(kRecordNames[0], values[0]);
    w.lazy("coordinator", CoordinatorMember(*coordinator));
    w.integers(names.part(1, std::size(kRecordNames) - 1), values.subspan(1));
  } else {
    w.integers(names, values);
  }
  if (r.magic < 2) {
    w.integer("magic", r.magic);
    w.string("timestamp_type", r.timestamp_type);
    w.integer("crc", r.crc);
    w.boolean("crc_valid", r.crc == r.computed_crc);
  }
  if (control) w.value("control", control_value(*control));
  if (decode) w.value("remote_log_metadata", remote_value(b, entry, r, *decoding));
  if (data != DataFormat::none) {
    write_data(w, "key", r.key, data);
    write_data(w, "value", r.value, data);
  }
  w.end_object();
}

void write_records(ObjectWriter& w, DumpedBatch& b, DataFormat data, RecordDecoding* decoding) {
  w.begin_objects("records");
  const std::span<const std::uint8_t> entry = b.unwalked.value_or(std::span<const std::uint8_t>{});
  if (b.unwalked) {  // walked here, one record at a time
    // Which form its records take is the batch's and the segment's to decide, once per
    // batch: a plain v2 data batch's records go straight to integers_object, with none of
    // the decoders' tests per record.
    const bool plain = b.header.is_v2() && !b.header.is_control() && !b.coordinator &&
                       data == DataFormat::none && !(decoding && decoding->remote_log_metadata);
    if (plain) {
      walk_records(b, [&w](const Record& r, const DumpedControl*, const DumpedCoordinator*) {
        write_plain_record(w, r);
      });
    } else {
      walk_records(b, [&](const Record& r, const DumpedControl* control,
                          const DumpedCoordinator* coordinator) {
        write_record(w, b, entry, r, control, coordinator, data, decoding);
      });
    }
  }
  for (std::size_t i = 0; i < b.records.size(); ++i)
    write_record(w, b, entry, b.records[i], i < b.controls.size() ? &b.controls[i] : nullptr,
                 nullptr, data, decoding);
  w.end_objects();
  if (b.records_error) w.string("records_error", *b.records_error);
  if (!b.records_notes.empty()) w.value("records_notes", strings_value(b.records_notes));
}

}  // namespace

Value segment_fields(const std::string& file, std::optional<std::int64_t> base_offset) {
  return Value::object()
      .set("file", file)
      .set("kind", "log")
      .set("base_offset", base_offset ? Value(*base_offset) : Value());
}

void write_batch(ObjectWriter& w, DumpedBatch& b, bool with_records, DataFormat data,
                 RecordDecoding* decoding) {
  const BatchHeader& h = b.header;
  static constexpr std::string_view kHead[] = {"position",    "size",  "base_offset",
                                               "last_offset", "count", "partition_leader_epoch",
                                               "magic",       "crc"};
  const std::int64_t head[] = {static_cast<std::int64_t>(h.position),
                               static_cast<std::int64_t>(h.size_in_bytes()),
                               h.base_offset,
                               h.last_offset(),
                               h.is_v2() ? h.records_count : 1,
                               h.partition_leader_epoch,
                               h.magic,
                               h.crc};
  w.integers(kHead, head);
  if (b.crc_valid)
    w.boolean("crc_valid", *b.crc_valid);
  else
    w.null("crc_valid");
  w.string("compression", codec_name(h.codec()));
  w.string("timestamp_type", h.log_append_time() ? "log-append-time" : "create-time");
  w.boolean("is_control", h.is_control());
  w.boolean("is_transactional", h.is_transactional());
  static constexpr std::string_view kProducer[] = {"producer_id", "producer_epoch", "base_sequence",
                                                   "base_timestamp", "max_timestamp"};
  const std::int64_t producer[] = {h.producer_id, h.producer_epoch, h.base_sequence,
                                   h.base_timestamp, h.max_timestamp};
  w.integers(kProducer, producer);
  if (with_records) write_records(w, b, data, decoding);
}

Value batch_value(DumpedBatch& b, bool with_records, DataFormat data) {
  ValueBuilder builder;
  write_batch(builder, b, with_records, data);
  return builder.take();
}

Value segment_trailer(const SegmentDumpSummary& s, const std::vector<DumpedBatch>& bad) {
  Value problems = Value::array();
  for (const auto& b : bad) {
    if (b.invalid) {
      problems.push(Value::object()
                        .set("severity", "error")
                        .set("position", b.header.position)
                        .set("message", fmt::format("batch at offset {}: {}", b.header.base_offset,
                                                    *b.invalid)));
    }
    for (const auto& c : b.controls) {
      if (!c.error) continue;
      problems.push(Value::object()
                        .set("severity", "error")
                        .set("position", b.header.position)
                        .set("message", fmt::format("control batch at offset {}: {}",
                                                    b.header.base_offset, *c.error)));
    }
    for (const auto& e : b.coordinator_errors) {
      problems.push(
          Value::object()
              .set("severity", "error")
              .set("position", b.header.position)
              .set("message", fmt::format("batch at offset {}: {}", b.header.base_offset, e)));
    }
    if (b.coordinator_error_count > b.coordinator_errors.size()) {
      problems.push(Value::object()
                        .set("severity", "error")
                        .set("position", b.header.position)
                        .set("message",
                             fmt::format("batch at offset {}: {} more record(s) that do not "
                                         "decode as records of the coordinator log",
                                         b.header.base_offset,
                                         b.coordinator_error_count - b.coordinator_errors.size())));
    }
    if (b.records_error) {
      problems.push(Value::object()
                        .set("severity", "error")
                        .set("position", b.header.position)
                        .set("message", fmt::format("batch at offset {}: {}", b.header.base_offset,
                                                    *b.records_error)));
    }
  }
  if (s.end.reason != LogEndReason::end_of_file) {
    problems.push(
        Value::object()
            .set("severity", s.end.reason == LogEndReason::corrupt_size ? "error" : "warning")
            .set("position", s.end.position)
            .set("message",
                 fmt::format("{}: {}", log_end_reason_name(s.end.reason), s.end.message)));
  }
  return Value::object()
      .set("batch_count", s.batches)
      .set("trailing_bytes", s.end.trailing_bytes)
      .set("end", s.stopped_early ? "max-batches" : log_end_reason_name(s.end.reason))
      .set("problems", std::move(problems));
}

std::vector<std::string> batch_table_columns() {
  // Most useful first: what a table of 120 columns leaves out is the end of this list.
  return {"base_offset",
          "last_offset",
          "partition_leader_epoch",
          "count",
          "crc_valid",
          "max_timestamp",
          "position",
          "size",
          "is_control",
          "is_transactional",
          "producer_id",
          "compression"};
}

}  // namespace kepoch::report
