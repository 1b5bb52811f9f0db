#include "kepoch/report/segment_report.hpp"

#include <fmt/format.h>

#include "kepoch/format/compression.hpp"

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

Value data_value(const std::optional<std::span<const std::uint8_t>>& b, DataFormat f) {
  if (!b) return Value();
  switch (f) {
    case DataFormat::hex:
      return as_hex(*b);
    case DataFormat::base64:
      return as_base64(*b);
    default:
      return as_text(*b);
  }
}

Value record_value(const Record& r, DataFormat data) {
  Value v = Value::object()
                .set("offset", r.offset)
                .set("timestamp", r.timestamp)
                .set("sequence", r.sequence)
                .set("size", r.size_in_bytes)
                .set("key_size", r.key ? static_cast<std::int64_t>(r.key->size()) : -1)
                .set("value_size", r.value ? static_cast<std::int64_t>(r.value->size()) : -1)
                .set("headers", static_cast<std::int64_t>(r.headers.size()));
  if (data != DataFormat::none)
    v.set("key", data_value(r.key, data)).set("value", data_value(r.value, data));
  return v;
}

}  // namespace

Value segment_fields(const std::string& file, std::optional<std::int64_t> base_offset) {
  return Value::object()
      .set("file", file)
      .set("kind", "log")
      .set("base_offset", base_offset ? Value(*base_offset) : Value());
}

Value batch_value(const DumpedBatch& b, bool with_records, DataFormat data) {
  const BatchHeader& h = b.header;
  Value v = Value::object()
                .set("position", h.position)
                .set("size", h.size_in_bytes())
                .set("base_offset", h.base_offset)
                .set("last_offset", h.last_offset())
                .set("count", h.is_v2() ? h.records_count : 1)
                .set("partition_leader_epoch", h.partition_leader_epoch)
                .set("magic", h.magic)
                .set("crc", h.crc)
                .set("crc_valid", b.crc_valid ? Value(*b.crc_valid) : Value())
                .set("compression", codec_name(h.codec()))
                .set("timestamp_type", h.log_append_time() ? "log-append-time" : "create-time")
                .set("is_control", h.is_control())
                .set("is_transactional", h.is_transactional())
                .set("producer_id", h.producer_id)
                .set("producer_epoch", h.producer_epoch)
                .set("base_sequence", h.base_sequence)
                .set("base_timestamp", h.base_timestamp)
                .set("max_timestamp", h.max_timestamp);
  if (with_records) {
    Value records = Value::array();
    for (const auto& r : b.records)
      records.push(record_value(r, data));
    v.set("records", std::move(records));
    if (b.records_error) v.set("records_error", *b.records_error);
  }
  return v;
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
  return {"position",
          "base_offset",
          "last_offset",
          "count",
          "partition_leader_epoch",
          "compression",
          "size",
          "crc_valid",
          "is_transactional",
          "is_control",
          "producer_id",
          "max_timestamp"};
}

}  // namespace kepoch::report
