#include "kepoch/forecast/salvage_archive.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <istream>
#include <iterator>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kepoch/base/base64.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/text.hpp"

namespace kepoch::forecast {
namespace {

// A JSON string (escaped by nlohmann: paths and topic names come from the file system).
std::string json_string(std::string_view text) {
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Whether nlohmann writes `text` as it is between quotes: plain ASCII (topic names, most
// paths; it escapes only '"', '\\' and the bytes below 0x20, and replaces invalid UTF-8).
bool plain_text(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
  });
}

// The most bytes json_string writes for `text`: an escape (\u00XX) or a replacement
// character per byte at most, and the quotes.
std::size_t json_string_max(std::string_view text) {
  return 6 * text.size() + 2;
}

char* put(char* o, std::string_view text) {
  std::memcpy(o, text.data(), text.size());
  return o + text.size();
}

// json_string's text: plain text quoted as it is, anything else through json_string.
char* put_json_string(char* o, std::string_view text) {
  if (!plain_text(text)) return put(o, json_string(text));
  *o++ = '"';
  o = put(o, text);
  *o++ = '"';
  return o;
}

// Bytes as a JSON string of their base64, or null.
char* put_bytes_or_null(char* o, const std::optional<std::span<const std::uint8_t>>& bytes) {
  if (!bytes) return put(o, "null");
  *o++ = '"';
  o = base64_write(o, *bytes);
  *o++ = '"';
  return o;
}

std::size_t bytes_or_null_max(const std::optional<std::span<const std::uint8_t>>& bytes) {
  return bytes ? base64_size(bytes->size()) + 2 : 4;
}

std::string_view optional_bool(const std::optional<bool>& b) {
  return !b ? "null" : *b ? "true" : "false";
}

// An integer as fmt's "{}" writes it (decimal, '-' for a negative one): at most 20 bytes.
template <typename T>
char* put_integer(char* o, T value) {
  return std::to_chars(o, o + 20, value).ptr;
}

// A name (from a fixed set of plain ASCII words) quoted, or null.
char* put_quoted_or_null(char* o, const std::optional<std::string_view>& name) {
  if (!name) return put(o, "null");
  *o++ = '"';
  o = put(o, *name);
  *o++ = '"';
  return o;
}

[[noreturn]] void bad(const std::string& path, int line, const std::string& what) {
  throw InputError(path, what, line);
}

// A bad line or value as an error shows it.
std::string shown(std::string_view text) {
  if (text.empty()) return "an empty line";
  return quoted_excerpt(text, 60);
}

// A JSON value as an error shows it: its type, and a short excerpt of a scalar's text (a
// value inside a 64 MiB line is never dumped whole, nor walked: nlohmann's dump recurses).
std::string found(const nlohmann::json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return fmt::format("the string {}", shown(v.get_ref<const std::string&>()));
  return excerpt(v.dump(), 60);
}

const nlohmann::json& member(const nlohmann::json& j, const char* name, const std::string& path,
                             int line) {
  const auto it = j.find(name);
  if (it == j.end()) bad(path, line, fmt::format("expected a \"{}\" member, found none", name));
  return *it;
}

template <typename T>
T integer(const nlohmann::json& j, const char* name, const std::string& path, int line) {
  const auto& v = member(j, name, path, line);
  constexpr auto lo = std::numeric_limits<T>::min();
  constexpr auto hi = std::numeric_limits<T>::max();
  // An unsigned number (above int64's range too: nlohmann keeps it as a uint64) is compared
  // as one, never cast to a negative.
  bool fits = false;
  if (v.is_number_unsigned())
    fits = std::cmp_less_equal(v.get<std::uint64_t>(), hi);
  else if (v.is_number_integer())
    fits = std::cmp_greater_equal(v.get<std::int64_t>(), lo) &&
           std::cmp_less_equal(v.get<std::int64_t>(), hi);
  if (!fits)
    bad(path, line,
        fmt::format("\"{}\": expected an integer in [{}, {}], found {}", name, lo, hi, found(v)));
  return v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>())
                                : static_cast<T>(v.get<std::int64_t>());
}

std::optional<std::vector<std::uint8_t>> bytes(const nlohmann::json& v, const char* name,
                                               const std::string& path, int line) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_string())
    bad(path, line, fmt::format("\"{}\": expected base64 or null, found {}", name, found(v)));
  auto decoded = base64_decode(v.get_ref<const std::string&>());
  if (!decoded)
    bad(path, line,
        fmt::format("\"{}\": expected standard base64 (RFC 4648, padded), found {}", name,
                    found(v)));
  return decoded;
}

std::optional<bool> optional_bool_of(const nlohmann::json& v, const char* name,
                                     const std::string& path, int line) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_boolean())
    bad(path, line, fmt::format("\"{}\": expected true, false or null, found {}", name, found(v)));
  return v.get<bool>();
}

// One header of a record's "headers", read from its object.
ArchivedRecord::Header header_of(const nlohmann::json& h, const std::string& path, int line) {
  if (!h.is_object())
    bad(path, line,
        fmt::format("\"headers\": expected {{\"key\":...,\"value\":...}} objects, found {}",
                    found(h)));
  auto key = bytes(member(h, "key", path, line), "headers[].key", path, line);
  if (!key) bad(path, line, "\"headers[].key\": expected base64, found null");
  return {std::move(*key), bytes(member(h, "value", path, line), "headers[].value", path, line)};
}

// An archive line parsed into what a reader reads, and nothing else: nlohmann holds a value
// in tens of bytes (an empty object in ~80), so a 64 MiB line of `{},{},...` under a member
// no reader knows held ~1.7 GiB, and nlohmann's destructor, which allocates, then ended the
// run in std::terminate (not "out of memory reading", exit 3). So: a member the reader does
// not read is skipped as it is parsed, never built; a container where the archive has a
// scalar is kept empty (its type is what an error says); and "headers", the one list a line
// has, is decoded object by object into `headers` as it is parsed (InputError for a bad
// one), never held as JSON.
nlohmann::json parse_line(std::string_view text, std::vector<ArchivedRecord::Header>& headers,
                          const std::string& path, int line) {
  using Event = nlohmann::json::parse_event_t;
  headers.clear();
  std::string_view top;        // the member of the line's object being parsed
  bool object_line = false;    // the line is an object (not an array)
  bool headers_array = false;  // `top` is "headers" and its value an array
  const auto callback = [&](int depth, Event event, nlohmann::json& parsed) -> bool {
    if (depth == 0) {
      if (event == Event::object_start) object_line = true;
      return true;
    }
    if (!object_line) return false;  // an array line: "expected a JSON object"
    if (event == Event::key) {
      const auto& name = parsed.get_ref<const std::string&>();
      static constexpr std::string_view kTop[] = {
          "format",        "version",      "end",         "topic",          "partition",
          "offset",        "leader_epoch", "timestamp",   "timestamp_type", "key",
          "value",         "headers",      "producer_id", "producer_epoch", "sequence",
          "transactional", "class",        "committed",   "on_new_leader",  "replica"};
      if (depth == 1) {
        const auto* it = std::find(std::begin(kTop), std::end(kTop), name);
        // An unknown member's value is parsed, never built (its events still come here).
        top = it == std::end(kTop) ? std::string_view() : *it;
        headers_array = false;
        if (top == "headers") headers.clear();  // a repeated member: the last one counts
        return !top.empty();
      }
      if (depth == 2)
        return (top == "on_new_leader" && name == "present") || (top == "end" && name == "records");
      return depth == 3 && headers_array && (name == "key" || name == "value");
    }
    if (depth == 1) {
      if (event == Event::array_start && top == "headers") headers_array = true;
      return true;
    }
    if (depth == 2) {
      if (headers_array) {
        if (event == Event::object_start) return true;
        if (event == Event::object_end) {
          headers.push_back(header_of(parsed, path, line));
          return false;  // decoded: not kept as JSON
        }
        if (event == Event::array_start)
          bad(path, line,
              "\"headers\": expected {\"key\":...,\"value\":...} objects, found an array");
        if (event == Event::value) (void)header_of(parsed, path, line);  // throws: a scalar
        return true;
      }
      return top == "on_new_leader" || top == "end";
    }
    return depth == 3 && headers_array;  // a header's key or value (a container: kept empty)
  };
  return nlohmann::json::parse(text, callback, false);
}

SalvageClass class_of(const std::string& name, const std::string& path, int line) {
  for (auto c : {SalvageClass::data, SalvageClass::committed_transaction, SalvageClass::aborted,
                 SalvageClass::open, SalvageClass::control})
    if (salvage_class_name(c) == name) return c;
  bad(path, line,
      fmt::format("\"class\": expected data, committed_transaction, aborted, open or control, "
                  "found {}",
                  shown(name)));
}

}  // namespace

std::string archive_header_line(std::string_view written_by) {
  return fmt::format("{{\"format\":\"{}\",\"version\":{},\"written_by\":{}}}\n", kSalvageFormat,
                     kSalvageVersion, json_string(written_by));
}

void write_archive_header(std::ostream& out, std::string_view written_by) {
  out << archive_header_line(written_by);
}

std::size_t archive_record_max_size(const SalvagedRecord& r) {
  // The member names, fixed words and punctuation (under 400 bytes), eight integers of at
  // most 20 bytes, then the strings and byte strings at their largest.
  std::size_t n = 512 + 8 * 20 + json_string_max(r.topic) +
                  json_string_max(r.replica->dir.native()) + bytes_or_null_max(r.record->key) +
                  bytes_or_null_max(r.record->value);
  for (const auto& h : r.record->headers)
    n += 32 + base64_size(h.key.size()) + bytes_or_null_max(h.value);
  return n;
}

namespace {

char* write_line(char* o, const SalvagedRecord& r) {
  // Written piece by piece (no string per field, no format string parsed per record): the
  // line is salvage's output per record, and every key, value and header goes through
  // base64 into it. The text is what fmt's "{}" writes for each field.
  o = put(o, "{\"topic\":");
  o = put_json_string(o, r.topic);
  o = put(o, ",\"partition\":");
  o = put_integer(o, r.partition);
  o = put(o, ",\"offset\":");
  o = put_integer(o, r.offset);
  o = put(o, ",\"leader_epoch\":");
  o = put_integer(o, r.leader_epoch);
  o = put(o, ",\"timestamp\":");
  o = put_integer(o, r.timestamp);
  o = put(o, r.log_append_time ? ",\"timestamp_type\":\"log_append_time\",\"key\":"
                               : ",\"timestamp_type\":\"create_time\",\"key\":");
  o = put_bytes_or_null(o, r.record->key);
  o = put(o, ",\"value\":");
  o = put_bytes_or_null(o, r.record->value);
  o = put(o, ",\"headers\":[");
  for (std::size_t i = 0; i < r.record->headers.size(); ++i) {
    const auto& h = r.record->headers[i];
    if (i) *o++ = ',';
    o = put(o, "{\"key\":\"");
    o = base64_write(o, {reinterpret_cast<const std::uint8_t*>(h.key.data()), h.key.size()});
    o = put(o, "\",\"value\":");
    o = put_bytes_or_null(o, h.value);
    *o++ = '}';
  }
  o = put(o, "],\"producer_id\":");
  o = put_integer(o, r.producer_id);
  o = put(o, ",\"producer_epoch\":");
  o = put_integer(o, r.producer_epoch);
  o = put(o, ",\"sequence\":");
  o = put_integer(o, r.sequence);
  o = put(o, r.transactional ? ",\"transactional\":true,\"class\":\""
                             : ",\"transactional\":false,\"class\":\"");
  o = put(o, salvage_class_name(r.kind));
  o = put(o, "\",\"control_type\":");
  o = put_quoted_or_null(
      o, r.control ? std::optional<std::string_view>(control_type_name(*r.control)) : std::nullopt);
  o = put(o, ",\"committed\":");
  o = put(o, optional_bool(r.committed));
  o = put(o, ",\"on_new_leader\":{\"present\":");
  o = put(o, optional_bool(r.presence.present));
  o = put(o, ",\"by\":");
  o = put_quoted_or_null(o, r.presence.by == PresenceBy::none
                                ? std::nullopt
                                : std::optional<std::string_view>(presence_by_name(r.presence.by)));
  o = put(o, ",\"certainty\":\"");
  o = put(o, certainty_name(r.presence.certainty));
  o = put(o, "\"},\"replica\":");
  o = put_json_string(o, r.replica->dir.native());
  return put(o, "}\n");
}

}  // namespace

char* write_archive_line(char* out, const SalvagedRecord& r) {
  char* const end = write_line(out, r);
  // A line replay would refuse makes the whole archive unreadable to it: refused here, before
  // the restart, while the record is still in the replica's segments.
  const std::size_t line = static_cast<std::size_t>(end - out) - 1;
  if (line > kMaxArchiveLineBytes)
    throw InputError(
        r.replica->dir.native(),
        fmt::format("{}-{} offset {}: the record's archive line would be {} bytes, over the {} "
                    "an archive line holds (a record of up to ~48 MiB of key, value and "
                    "headers): it cannot be salvaged; copy the partition's segment files "
                    "before the restart",
                    r.topic, r.partition, r.offset, line, kMaxArchiveLineBytes));
  return end;
}

void append_archive_record(std::string& out, const SalvagedRecord& r) {
  const std::size_t at = out.size();
  out.resize(at + archive_record_max_size(r));
  char* const end = write_archive_line(out.data() + at, r);
  out.resize(static_cast<std::size_t>(end - out.data()));
}

void write_archive_record(std::ostream& out, const SalvagedRecord& r) {
  std::string line;
  append_archive_record(line, r);
  out << line;
}

std::string archive_end_line(std::uint64_t records) {
  return fmt::format("{{\"end\":{{\"records\":{}}}}}\n", records);
}

void write_archive_end(std::ostream& out, std::uint64_t records) {
  out << archive_end_line(records);
}

ArchiveReader::ArchiveReader(std::istream& in, std::string path) : in_(in), path_(std::move(path)) {
  line_ = 1;
  if (!read_line(1))
    bad(path_, 1, "expected the header line, found an empty file: not a salvage archive");
  std::vector<ArchivedRecord::Header> headers;
  nlohmann::json j = parse_line(text_, headers, path_, 1);
  if (j.is_discarded() || !j.is_object() || !j.contains("format") || !j["format"].is_string() ||
      j["format"].get<std::string>() != kSalvageFormat)
    bad(path_, 1,
        fmt::format("not a salvage archive: expected line 1 to be {{\"format\":\"{}\",...}}, "
                    "found {}",
                    kSalvageFormat, shown(text_)));
  version_ = integer<std::int64_t>(j, "version", path_, 1);
  if (version_ < 1 || version_ > kSalvageVersion)
    bad(path_, 1,
        fmt::format("archive version {}: this kepoch reads versions 1 to {}", version_,
                    kSalvageVersion));
}

bool ArchiveReader::read_line(int number) {
  constexpr std::size_t kRead = 64u << 10;
  for (;;) {
    const std::size_t end = buffer_.size();
    // Nothing unscanned: an empty buffer's data() may be null, which memchr must not get.
    const void* nl =
        end > scanned_ ? std::memchr(buffer_.data() + scanned_, '\n', end - scanned_) : nullptr;
    if (nl) {
      const std::size_t at =
          static_cast<std::size_t>(static_cast<const char*>(nl) - buffer_.data());
      if (at - pos_ > kMaxArchiveLineBytes) break;
      text_ = std::string_view(buffer_.data() + pos_, at - pos_);
      pos_ = scanned_ = at + 1;
      return true;
    }
    scanned_ = end;
    if (end - pos_ > kMaxArchiveLineBytes) break;
    if (input_ended_) {
      if (pos_ == end) return false;
      text_ = std::string_view(buffer_.data() + pos_, end - pos_);  // the last, without '\n'
      pos_ = scanned_ = end;
      return true;
    }
    // Room for another read: the unread bytes moved to the front, the buffer grown by an
    // exact reserve (a vector's own growth would double it) up to what the line's bound needs.
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(pos_));
    scanned_ -= pos_;
    pos_ = 0;
    const std::size_t have = buffer_.size();
    const std::size_t want =
        std::min(have + std::max(kRead, have), kMaxArchiveLineBytes + 1 + kRead);
    if (buffer_.capacity() < want) buffer_.reserve(want);
    buffer_.resize(buffer_.capacity());
    in_.read(buffer_.data() + have, static_cast<std::streamsize>(buffer_.size() - have));
    const auto got = static_cast<std::size_t>(in_.gcount());
    buffer_.resize(have + got);
    if (got == 0 || !in_) {
      if (in_.bad()) bad(path_, number, "cannot be read (an I/O error)");
      if (got == 0) input_ended_ = true;
      in_.clear(in_.rdstate() & std::ios::badbit);
    }
  }
  bad(path_, number,
      fmt::format("expected a line of at most {} bytes (a salvage archive's record), found {} "
                  "bytes without a newline{}",
                  kMaxArchiveLineBytes, buffer_.size() - pos_,
                  input_ended_ ? "" : " and more after them"));
}

void ArchiveReader::check_order(const ArchivedRecord& r) {
  if (!partition_ || partition_->first != r.topic || partition_->second != r.partition) {
    if (partition_) finished_.insert(*partition_);
    if (finished_.contains({r.topic, r.partition}))
      bad(path_, line_,
          fmt::format("a record of {}-{} after other partitions' records: salvage writes a "
                      "partition's records together (a moved or duplicated line?)",
                      r.topic, r.partition));
    partition_.emplace(r.topic, r.partition);
    replica_ = r.replica;
    keys_ = ArchivedRecords();
  } else if (r.replica != replica_) {
    replica_ = r.replica;
    keys_.next_follower();
  }
  if (!keys_.insert(r.leader_epoch, r.offset))
    bad(path_, line_,
        fmt::format("{}-{} offset {} of leader epoch {} is archived already (salvage archives a "
                    "record once): a duplicated line, which replay would produce twice",
                    r.topic, r.partition, r.offset, r.leader_epoch));
}

std::optional<ArchivedRecord> ArchiveReader::next() {
  if (ended_) return std::nullopt;
  if (!read_line(line_ + 1))
    bad(path_, line_ + 1,
        fmt::format("expected a record or the end line, found the end of the file after {} "
                    "records: a copy cut short (the archive ends without its end line)",
                    records_));
  ++line_;
  std::vector<ArchivedRecord::Header> headers;
  nlohmann::json j = parse_line(text_, headers, path_, line_);
  if (j.is_discarded() || !j.is_object())
    bad(path_, line_, fmt::format("expected a JSON object, found {}", shown(text_)));
  if (j.contains("end")) {
    const auto& end = j["end"];
    if (!end.is_object())
      bad(path_, line_, fmt::format("\"end\": expected an object, found {}", found(end)));
    const auto n = integer<std::int64_t>(end, "records", path_, line_);
    if (n < 0 || static_cast<std::uint64_t>(n) != records_)
      bad(path_, line_,
          fmt::format("the end line counts {} records, the archive holds {}", n, records_));
    if (read_line(line_ + 1))
      bad(path_, line_ + 1,
          fmt::format("expected the end of the file after the end line, found {}", shown(text_)));
    ended_ = true;
    return std::nullopt;
  }
  ArchivedRecord r;
  const auto& topic = member(j, "topic", path_, line_);
  if (!topic.is_string() || topic.get_ref<const std::string&>().empty())
    bad(path_, line_,
        fmt::format("\"topic\": expected a topic name, found {}",
                    topic.is_string() ? "an empty string" : found(topic)));
  r.topic = topic.get<std::string>();
  r.partition = integer<std::int32_t>(j, "partition", path_, line_);
  r.offset = integer<std::int64_t>(j, "offset", path_, line_);
  r.leader_epoch = integer<std::int32_t>(j, "leader_epoch", path_, line_);
  r.timestamp = integer<std::int64_t>(j, "timestamp", path_, line_);
  const auto& type = member(j, "timestamp_type", path_, line_);
  if (type != "create_time" && type != "log_append_time")
    bad(path_, line_,
        fmt::format("\"timestamp_type\": expected \"create_time\" or \"log_append_time\", "
                    "found {}",
                    found(type)));
  r.log_append_time = type == "log_append_time";
  r.key = bytes(member(j, "key", path_, line_), "key", path_, line_);
  r.value = bytes(member(j, "value", path_, line_), "value", path_, line_);
  const auto& headers_member = member(j, "headers", path_, line_);
  if (!headers_member.is_array())
    bad(path_, line_,
        fmt::format("\"headers\": expected an array, found {}", found(headers_member)));
  r.headers = std::move(headers);  // decoded as the line was parsed (parse_line)
  r.producer_id = integer<std::int64_t>(j, "producer_id", path_, line_);
  r.producer_epoch = integer<std::int16_t>(j, "producer_epoch", path_, line_);
  r.sequence = integer<std::int32_t>(j, "sequence", path_, line_);
  const auto& transactional = member(j, "transactional", path_, line_);
  if (!transactional.is_boolean())
    bad(path_, line_,
        fmt::format("\"transactional\": expected true or false, found {}", found(transactional)));
  r.transactional = transactional.get<bool>();
  const auto& cls = member(j, "class", path_, line_);
  if (!cls.is_string())
    bad(path_, line_, fmt::format("\"class\": expected a string, found {}", found(cls)));
  r.kind = class_of(cls.get<std::string>(), path_, line_);
  r.committed = optional_bool_of(member(j, "committed", path_, line_), "committed", path_, line_);
  const auto& on = member(j, "on_new_leader", path_, line_);
  if (!on.is_object())
    bad(path_, line_, fmt::format("\"on_new_leader\": expected an object, found {}", found(on)));
  r.present =
      optional_bool_of(member(on, "present", path_, line_), "on_new_leader.present", path_, line_);
  const auto& replica = member(j, "replica", path_, line_);
  if (replica.is_string()) r.replica = replica.get<std::string>();
  check_order(r);
  ++records_;
  return r;
}

}  // namespace kepoch::forecast
