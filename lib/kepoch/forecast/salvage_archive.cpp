#include "kepoch/forecast/salvage_archive.hpp"

#include <algorithm>
#include <charconv>
#include <istream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kepoch/base/base64.hpp"
#include "kepoch/base/error.hpp"

namespace kepoch::forecast {
namespace {

// A JSON string (escaped by nlohmann: paths and topic names come from the file system).
std::string json_string(std::string_view text) {
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// json_string's text appended to `out`: a plain ASCII text (topic names, most paths) is
// quoted as it is, which is what nlohmann writes for it (it escapes only '"', '\\' and the
// bytes below 0x20); anything else through json_string.
void append_json_string(std::string& out, std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
  });
  if (!plain) {
    out += json_string(text);
    return;
  }
  out += '"';
  out += text;
  out += '"';
}

// Bytes as a JSON string of their base64, or null.
void append_bytes_or_null(std::string& out,
                          const std::optional<std::span<const std::uint8_t>>& bytes) {
  if (!bytes) {
    out += "null";
    return;
  }
  out += '"';
  base64_append(out, *bytes);
  out += '"';
}

std::string_view optional_bool(const std::optional<bool>& b) {
  return !b ? "null" : *b ? "true" : "false";
}

// An integer as fmt's "{}" writes it (decimal, '-' for a negative one).
template <typename T>
void append_integer(std::string& out, T value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

// A name (from a fixed set of plain ASCII words) quoted, or null.
void append_quoted_or_null(std::string& out, const std::optional<std::string_view>& name) {
  if (!name) {
    out += "null";
    return;
  }
  out += '"';
  out += *name;
  out += '"';
}

[[noreturn]] void bad(const std::string& path, int line, const std::string& what) {
  throw InputError(path, what, line);
}

const nlohmann::json& member(const nlohmann::json& j, const char* name, const std::string& path,
                             int line) {
  const auto it = j.find(name);
  if (it == j.end()) bad(path, line, fmt::format("no \"{}\" member", name));
  return *it;
}

template <typename T>
T integer(const nlohmann::json& j, const char* name, const std::string& path, int line) {
  const auto& v = member(j, name, path, line);
  if (!v.is_number_integer()) bad(path, line, fmt::format("\"{}\" is not an integer", name));
  const auto n = v.get<std::int64_t>();
  if (n < std::numeric_limits<T>::min() || n > std::numeric_limits<T>::max())
    bad(path, line, fmt::format("\"{}\" is out of range: {}", name, n));
  return static_cast<T>(n);
}

std::optional<std::vector<std::uint8_t>> bytes(const nlohmann::json& v, const char* name,
                                               const std::string& path, int line) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_string()) bad(path, line, fmt::format("\"{}\" is neither base64 nor null", name));
  auto decoded = base64_decode(v.get<std::string>());
  if (!decoded) bad(path, line, fmt::format("\"{}\" is not base64", name));
  return decoded;
}

std::optional<bool> optional_bool_of(const nlohmann::json& v, const char* name,
                                     const std::string& path, int line) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_boolean()) bad(path, line, fmt::format("\"{}\" is neither true, false nor null", name));
  return v.get<bool>();
}

SalvageClass class_of(const std::string& name, const std::string& path, int line) {
  for (auto c : {SalvageClass::data, SalvageClass::committed_transaction, SalvageClass::aborted,
                 SalvageClass::open, SalvageClass::control})
    if (salvage_class_name(c) == name) return c;
  bad(path, line, fmt::format("unknown class \"{}\"", name));
}

}  // namespace

void write_archive_header(std::ostream& out, std::string_view written_by) {
  out << fmt::format("{{\"format\":\"{}\",\"version\":{},\"written_by\":{}}}\n", kSalvageFormat,
                     kSalvageVersion, json_string(written_by));
}

void append_archive_record(std::string& out, const SalvagedRecord& r) {
  // Written piece by piece into `out` (no string per field, no format string parsed per
  // record): the line is salvage's output per record, and every key, value and header goes
  // through base64 into it. The text is what fmt's "{}" writes for each field.
  out += "{\"topic\":";
  append_json_string(out, r.topic);
  out += ",\"partition\":";
  append_integer(out, r.partition);
  out += ",\"offset\":";
  append_integer(out, r.offset);
  out += ",\"leader_epoch\":";
  append_integer(out, r.leader_epoch);
  out += ",\"timestamp\":";
  append_integer(out, r.timestamp);
  out += r.log_append_time ? ",\"timestamp_type\":\"log_append_time\",\"key\":"
                           : ",\"timestamp_type\":\"create_time\",\"key\":";
  append_bytes_or_null(out, r.record->key);
  out += ",\"value\":";
  append_bytes_or_null(out, r.record->value);
  out += ",\"headers\":[";
  for (std::size_t i = 0; i < r.record->headers.size(); ++i) {
    const auto& h = r.record->headers[i];
    if (i) out += ',';
    out += "{\"key\":\"";
    base64_append(out, {reinterpret_cast<const std::uint8_t*>(h.key.data()), h.key.size()});
    out += "\",\"value\":";
    append_bytes_or_null(out, h.value);
    out += '}';
  }
  out += "],\"producer_id\":";
  append_integer(out, r.producer_id);
  out += ",\"producer_epoch\":";
  append_integer(out, r.producer_epoch);
  out += ",\"sequence\":";
  append_integer(out, r.sequence);
  out += r.transactional ? ",\"transactional\":true,\"class\":\""
                         : ",\"transactional\":false,\"class\":\"";
  out += salvage_class_name(r.kind);
  out += "\",\"control_type\":";
  append_quoted_or_null(out, r.control
                                 ? std::optional<std::string_view>(control_type_name(*r.control))
                                 : std::nullopt);
  out += ",\"committed\":";
  out += optional_bool(r.committed);
  out += ",\"on_new_leader\":{\"present\":";
  out += optional_bool(r.presence.present);
  out += ",\"by\":";
  append_quoted_or_null(out,
                        r.presence.by == PresenceBy::none
                            ? std::nullopt
                            : std::optional<std::string_view>(presence_by_name(r.presence.by)));
  out += ",\"certainty\":\"";
  out += certainty_name(r.presence.certainty);
  out += "\"},\"replica\":";
  append_json_string(out, r.replica->dir.native());
  out += "}\n";
}

void write_archive_record(std::ostream& out, const SalvagedRecord& r) {
  std::string line;
  append_archive_record(line, r);
  out << line;
}

void write_archive_end(std::ostream& out, std::uint64_t records) {
  out << fmt::format("{{\"end\":{{\"records\":{}}}}}\n", records);
}

ArchiveReader::ArchiveReader(std::istream& in, std::string path) : in_(in), path_(std::move(path)) {
  std::string text;
  line_ = 1;
  if (!std::getline(in_, text)) bad(path_, 1, "empty: not a salvage archive");
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("format") || !j["format"].is_string() ||
      j["format"].get<std::string>() != kSalvageFormat)
    bad(path_, 1,
        fmt::format("not a salvage archive: line 1 is not {{\"format\":\"{}\",...}}",
                    kSalvageFormat));
  version_ = integer<std::int64_t>(j, "version", path_, 1);
  if (version_ < 1 || version_ > kSalvageVersion)
    bad(path_, 1,
        fmt::format("archive version {}: this kepoch reads versions 1 to {}", version_,
                    kSalvageVersion));
}

std::optional<ArchivedRecord> ArchiveReader::next() {
  if (ended_) return std::nullopt;
  std::string text;
  if (!std::getline(in_, text))
    bad(path_, line_ + 1,
        fmt::format("the archive ends after {} records without its end line: a copy cut short",
                    records_));
  ++line_;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) bad(path_, line_, "not a JSON object");
  if (j.contains("end")) {
    const auto& end = j["end"];
    if (!end.is_object()) bad(path_, line_, "\"end\" is not an object");
    const auto n = integer<std::int64_t>(end, "records", path_, line_);
    if (n < 0 || static_cast<std::uint64_t>(n) != records_)
      bad(path_, line_,
          fmt::format("the end line counts {} records, the archive holds {}", n, records_));
    if (std::string rest; std::getline(in_, rest) && !rest.empty())
      bad(path_, line_ + 1, "a line after the end line");
    ended_ = true;
    return std::nullopt;
  }
  ArchivedRecord r;
  const auto& topic = member(j, "topic", path_, line_);
  if (!topic.is_string() || topic.get<std::string>().empty())
    bad(path_, line_, "\"topic\" is not a topic name");
  r.topic = topic.get<std::string>();
  r.partition = integer<std::int32_t>(j, "partition", path_, line_);
  r.offset = integer<std::int64_t>(j, "offset", path_, line_);
  r.leader_epoch = integer<std::int32_t>(j, "leader_epoch", path_, line_);
  r.timestamp = integer<std::int64_t>(j, "timestamp", path_, line_);
  const auto& type = member(j, "timestamp_type", path_, line_);
  if (type != "create_time" && type != "log_append_time")
    bad(path_, line_, "\"timestamp_type\" is neither create_time nor log_append_time");
  r.log_append_time = type == "log_append_time";
  r.key = bytes(member(j, "key", path_, line_), "key", path_, line_);
  r.value = bytes(member(j, "value", path_, line_), "value", path_, line_);
  const auto& headers = member(j, "headers", path_, line_);
  if (!headers.is_array()) bad(path_, line_, "\"headers\" is not an array");
  for (const auto& h : headers) {
    if (!h.is_object()) bad(path_, line_, "a header is not an object");
    auto key = bytes(member(h, "key", path_, line_), "headers[].key", path_, line_);
    if (!key) bad(path_, line_, "a header key is null");
    r.headers.push_back({std::move(*key),
                         bytes(member(h, "value", path_, line_), "headers[].value", path_, line_)});
  }
  r.producer_id = integer<std::int64_t>(j, "producer_id", path_, line_);
  r.producer_epoch = integer<std::int16_t>(j, "producer_epoch", path_, line_);
  r.sequence = integer<std::int32_t>(j, "sequence", path_, line_);
  const auto& transactional = member(j, "transactional", path_, line_);
  if (!transactional.is_boolean()) bad(path_, line_, "\"transactional\" is not true or false");
  r.transactional = transactional.get<bool>();
  const auto& cls = member(j, "class", path_, line_);
  if (!cls.is_string()) bad(path_, line_, "\"class\" is not a string");
  r.kind = class_of(cls.get<std::string>(), path_, line_);
  r.committed = optional_bool_of(member(j, "committed", path_, line_), "committed", path_, line_);
  const auto& on = member(j, "on_new_leader", path_, line_);
  if (!on.is_object()) bad(path_, line_, "\"on_new_leader\" is not an object");
  r.present =
      optional_bool_of(member(on, "present", path_, line_), "on_new_leader.present", path_, line_);
  const auto& replica = member(j, "replica", path_, line_);
  if (replica.is_string()) r.replica = replica.get<std::string>();
  ++records_;
  return r;
}

}  // namespace kepoch::forecast
