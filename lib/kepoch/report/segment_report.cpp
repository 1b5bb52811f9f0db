#include "kepoch/report/segment_report.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/short_copy.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/base/time_text.hpp"
#include "kepoch/format/compression.hpp"
#include "kepoch/format/coordinator_plain.hpp"
#include "kepoch/format/coordinator_write.hpp"
#include "kepoch/format/offset_commit_fast.hpp"
#include "kepoch/report/common_values.hpp"
#include "kepoch/report/json_object_writer.hpp"
#include "kepoch/report/metadata_report.hpp"
#include "kepoch/report/remote_log_metadata_report.hpp"
#include "kepoch/report/render_detail.hpp"
#include "kepoch/report/stream.hpp"
#include "kepoch/report/time_fields.hpp"
#include "kepoch/report/yaml_coordinator.hpp"
#include "kepoch/report/yaml_emitter.hpp"

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
  if (d.deferred) {
    DumpedBatch scratch;  // the error is counted by whoever asks for it
    return coordinator_value(check_deferred_coordinator(scratch, d));
  }
  Value v = Value::object();
  std::optional<CoordinatorRecord> decoded;
  if (d.checked) decoded = decode_coordinator_record(*d.checked);
  if (const auto* record = d.record ? &*d.record : decoded ? &*decoded : nullptr) {
    const CoordinatorRecord& r = *record;
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

// The sinks a coordinator record is written to as it is read (SchemaSink), one per format:
// each makes exactly the text its writer makes of coordinator_value(d) with its times shown
// (time_fields.hpp), without the Value. They know where they are (in an object, the member's
// key; in an array) to separate members and to find the time fields: an integer member named
// "timestamp" or "*_timestamp".
class SinkBase : public SchemaSink {
 public:
  explicit SinkBase(LazyTimes times) : times_(times) {}

 protected:
  // A member's value or an array's element is next: separate it; returns whether it is a
  // member's, and of a time field's when `time`.
  bool next_value() {
    const bool member = member_;
    member_ = false;
    return member;
  }
  bool time_member(bool member) const { return member && times_.shown && time_key_; }
  // A member's key: its name, and whether it names a time field.
  void set_key(std::string_view name) {
    key_ = name;
    time_key_ = is_time_field(name);
  }
  void set_key(const schema_walk::CompiledField& cf) {
    key_ = cf.field->name;
    time_key_ = cf.time_named;
  }
  // A literal key of write_unchecked_coordinator's ("type", "key", "value", ...): none is a
  // time field's name.
  template <std::size_t N>
  void set_literal_key(const char (&k)[N]) {
    key_ = std::string_view(k, N - 1);
    time_key_ = false;
  }
  // The ISO text of ms, empty for NO_TIMESTAMP.
  std::string_view iso(std::int64_t ms) {
    const std::size_t n = write_iso_time(ms, times_.local, iso_);
    return {iso_, n};
  }
  LazyTimes times_;
  std::string_view key_;
  bool time_key_ = false;  // key_ names a time field (is_time_field)
  bool member_ = false;    // key() was the last call
  char iso_[kIsoTimeMax];
};

// `text` in quotes, as it is: a text that needs no JSON escaping (a schema's snake_case name,
// a time's ISO text).
void append_quoted(detail::TextBuffer& out, std::string_view text) {
  char* p = out.room(text.size() + 2);
  *p = '"';
  copy_short(p + 1, text.data(), text.size());
  p[text.size() + 1] = '"';
  out.advance(text.size() + 2);
}

// Compact JSON: json_object_writer's text of the Value (append_json), a time field followed
// by "<name>_iso". Its calls are made directly by the schema walk (a final class) and are
// small: forced inline there, a few dozen per record.
#define KEPOCH_SINK_INLINE [[gnu::always_inline]] inline
class JsonSink final : public SinkBase {
 public:
  JsonSink(detail::TextBuffer& out, LazyTimes times) : SinkBase(times), out_(out) {}
  KEPOCH_SINK_INLINE void begin_object(bool) override {
    separate();
    put('{');
    comma_ = false;
  }
  KEPOCH_SINK_INLINE void end_object() override {
    put('}');
    comma_ = true;
  }
  void key(std::string_view name) override {
    // A schema's field name or one of write_coordinator's: snake_case ASCII (SchemaSink::key),
    // JSON as it is, copied without looking for bytes to escape.
    char* p = out_.room(name.size() + 4);
    *p = ',';
    p += comma_;
    *p = '"';
    copy_short(p + 1, name.data(), name.size());
    p[name.size() + 1] = '"';
    p[name.size() + 2] = ':';
    out_.advance(name.size() + 3 + comma_);
    set_key(name);
    member_ = true;
    comma_ = false;
  }
  // key(k) of a literal: its size known, copied inline.
  template <std::size_t N>
  KEPOCH_SINK_INLINE void literal_key(const char (&k)[N]) {
    char* p = out_.room(N + 3);
    *p = ',';
    p += comma_;
    *p = '"';
    std::memcpy(p + 1, k, N - 1);
    std::memcpy(p + N, "\":", 2);
    out_.advance(N + 2 + comma_);
    set_literal_key(k);
    member_ = true;
    comma_ = false;
  }
  // Text the caller made (JSON as it is) that ends in a member's key, not a time field's:
  // as if it had been written call by call (write_unchecked_coordinator_json's parts).
  // `Room` bytes are copied from `padded` (a fixed size: no call), `size` of them kept.
  template <std::size_t Room>
  KEPOCH_SINK_INLINE void raw_key(const char (&padded)[Room], std::size_t size) {
    std::memcpy(out_.room(Room), padded, Room);
    out_.advance(size);
    set_literal_key("");
    member_ = true;
    comma_ = false;
  }
  // key(cf.field->name), the name copied whole from its padded copy.
  KEPOCH_SINK_INLINE void member_key(const schema_walk::CompiledField& cf) {
    const std::size_t n = cf.name_size;
    if (n == 0) return key(cf.field->name);
    char* p = out_.room(schema_walk::kPaddedNameSize + 4);
    *p = ',';
    p += comma_;
    *p = '"';
    std::memcpy(p + 1, cf.padded_name.data(), schema_walk::kPaddedNameSize);
    std::memcpy(p + 1 + n, "\":", 2);
    out_.advance(n + 3 + comma_);
    set_key(cf);
    member_ = true;
    comma_ = false;
  }
  KEPOCH_SINK_INLINE void begin_array(std::size_t) override {
    separate();
    put('[');
    comma_ = false;
  }
  KEPOCH_SINK_INLINE void end_array() override {
    put(']');
    comma_ = true;
  }
  KEPOCH_SINK_INLINE void null() override {
    separate();
    std::memcpy(out_.room(4), "null", 4);
    out_.advance(4);
  }
  KEPOCH_SINK_INLINE void boolean(bool v) override {
    separate();
    std::memcpy(out_.room(5), v ? "true" : "false", 5);
    out_.advance(v ? 4 : 5);
  }
  KEPOCH_SINK_INLINE void integer(std::int64_t v) override {
    const bool time = time_member(separate());
    detail::append_json_integer(out_, v);
    if (time) iso_member(v);
  }
  // After a time field's milliseconds: ,"<name>_iso": then the time's text or null; a
  // schema's name and an ISO time need no escaping (snake_case, digits and -:.TZ+).
  void iso_member(std::int64_t v) {
    char* p = out_.room(key_.size() + 8);
    *p = ',';
    *++p = '"';
    copy_short(p + 1, key_.data(), key_.size());
    std::memcpy(p + 1 + key_.size(), "_iso\":", 6);
    out_.advance(key_.size() + 8);
    const std::string_view text = iso(v);
    if (text.empty())
      out_ += "null";
    else
      append_quoted(out_, text);
  }
  void name(std::string_view v) override {
    separate();
    append_quoted(out_, v);
  }
  void floating(double v) override {
    separate();
    detail::append_json(out_, Value(v));
  }
  KEPOCH_SINK_INLINE void text(std::string_view v) override {
    separate();
    detail::append_json_string(out_, v);
  }
  void bytes(std::span<const std::uint8_t> v) override {
    separate();  // base64 needs no escaping
    const std::size_t n = base64_size(v.size());
    char* p = out_.room(n + 2);
    *p = '"';
    write_base64(v, p + 1);
    p[n + 1] = '"';
    out_.advance(n + 2);
  }

 private:
  // Before a value: a comma after an earlier element or member of the same array or object
  // (never right after a key: key() clears comma_); returns whether it is a member's.
  KEPOCH_SINK_INLINE bool separate() {
    const bool member = next_value();
    *out_.room(1) = ',';
    out_.advance(comma_);
    comma_ = true;
    return member;
  }
  KEPOCH_SINK_INLINE void put(char c) {
    *out_.room(1) = c;
    out_.advance(1);
  }
  detail::TextBuffer& out_;
  // A value was written in the array or object open now: the next one, or the next key,
  // is preceded by a comma. No depth to keep: opening a group clears it, closing one sets it.
  bool comma_ = false;
};

// JsonSink's text of an OffsetCommit record read plainly (read_plain_offset_commit): the
// same bytes write_unchecked_coordinator writes through JsonSink, by straight-line code (no
// schema walk, no sink state): the usual record of a __consumer_offsets log.
template <std::size_t N>
[[gnu::always_inline]] inline void put_literal(detail::TextBuffer& out, const char (&text)[N]) {
  std::memcpy(out.room(N - 1), text, N - 1);
  out.advance(N - 1);
}
// A time field's milliseconds, then, when times are shown, ,"<name>_iso": and its text or
// null (JsonSink::integer and iso_member of a time-named member). The text of the last one
// is kept (`last`) and copied when the next is the same: the records of one commit share its
// time, and its digits and ISO text were a third of such a record's own cost.
struct TimeMemberText {
  static constexpr std::size_t kRoom = 96;
  std::int64_t ms = 0;
  LazyTimes times;
  std::size_t size = 0;  // 0: nothing kept
  std::array<char, kRoom> text{};
};
template <std::size_t N>
void put_time_member(detail::TextBuffer& out, const char (&iso_key)[N], std::int64_t ms,
                     LazyTimes times, TimeMemberText& last) {
  if (last.size != 0 && last.ms == ms && last.times.shown == times.shown &&
      last.times.local == times.local) {
    std::memcpy(out.room(TimeMemberText::kRoom), last.text.data(), TimeMemberText::kRoom);
    return out.advance(last.size);
  }
  const std::size_t start = out.size();
  detail::append_json_integer(out, ms);
  if (times.shown) {
    put_literal(out, iso_key);
    char iso[kIsoTimeMax];
    const std::size_t n = write_iso_time(ms, times.local, iso);
    if (n == 0)
      put_literal(out, "null");
    else
      append_quoted(out, std::string_view(iso, n));
  }
  const std::size_t size = out.size() - start;
  last.size = size <= TimeMemberText::kRoom ? size : 0;
  if (last.size == 0) return;
  last.ms = ms;
  last.times = times;
  std::memcpy(last.text.data(), out.data() + start, size);
}
// A topic id's text (Uuid.toString, 22 characters), the last one's kept: a commit's records
// are mostly of one topic.
struct TopicIdText {
  bool kept = false;
  std::array<std::uint8_t, 16> id{};
  char text[schema_walk::kUuidTextSize];
};
void append_offset_commit_json(detail::TextBuffer& out, const PlainOffsetCommit& c,
                               LazyTimes times) {
  thread_local TimeMemberText last_commit, last_expire;
  thread_local TopicIdText last_topic_id;
  put_literal(out, R"({"type":"offset_commit","type_id":1,"key":{"group":)");
  detail::append_json_string(out, c.group);
  put_literal(out, R"(,"topic":)");
  detail::append_json_string(out, c.topic);
  put_literal(out, R"(,"partition":)");
  detail::append_json_integer(out, c.partition);
  if (c.tombstone) return put_literal(out, R"(},"value_version":null,"value":null})");
  put_literal(out, R"(},"value_version":)");
  detail::append_json_integer(out, c.value_version);
  put_literal(out, R"(,"value":{"offset":)");
  detail::append_json_integer(out, c.offset);
  if (c.has_leader_epoch) {
    put_literal(out, R"(,"leader_epoch":)");
    detail::append_json_integer(out, c.leader_epoch);
  }
  put_literal(out, R"(,"metadata":)");
  detail::append_json_string(out, c.metadata);
  put_literal(out, R"(,"commit_timestamp":)");
  put_time_member(out, R"(,"commit_timestamp_iso":)", c.commit_timestamp, times, last_commit);
  if (c.has_expire_timestamp) {
    put_literal(out, R"(,"expire_timestamp":)");
    put_time_member(out, R"(,"expire_timestamp_iso":)", c.expire_timestamp, times, last_expire);
  }
  if (c.topic_id) {
    if (!last_topic_id.kept || std::memcmp(last_topic_id.id.data(), c.topic_id, 16) != 0) {
      std::memcpy(last_topic_id.id.data(), c.topic_id, 16);
      schema_walk::write_uuid_text(std::span<const std::uint8_t>(c.topic_id, 16),
                                   last_topic_id.text);
      last_topic_id.kept = true;
    }
    constexpr std::size_t n = schema_walk::kUuidTextSize;
    char* p = out.room(n + 14);
    std::memcpy(p, R"(,"topic_id":")", 13);
    std::memcpy(p + 13, last_topic_id.text, n);
    p[13 + n] = '"';
    out.advance(n + 14);
  }
  put_literal(out, "}}");
}

// JsonSink's text of a coordinator record read plainly (coordinator_plain.hpp): its key (any
// record type whose key fields are classic strings and int32s), then a tombstone's null value
// or the value of the commonest KIP-848 records, by straight-line code; false (and nothing
// written) for any other record, which the walk writes. The record's head and its key's
// member names are made once per record type.
struct PlainKeyText {
  const CoordinatorRecordType* type = nullptr;
  bool plain = false;  // plain_key_schema, and no key field is a time field's
  std::string head;    // {"type":"<snake_name>","type_id":<type>,"key":{"<first>":
  std::array<std::string, kMaxPlainKeyFields> names;  // ,"<name>": of the fields after it
};
const PlainKeyText& plain_key_text(const CoordinatorRecordType& type) {
  thread_local std::array<PlainKeyText, 64> texts;
  PlainKeyText& t = texts[static_cast<std::size_t>(type.type) & 63];
  if (t.type == &type) return t;
  t.type = &type;
  t.plain = plain_key_schema(type);
  for (const SchemaField& f : type.key.fields)
    if (is_time_field(f.name)) t.plain = false;
  if (!t.plain) return t;
  t.head = fmt::format(R"({{"type":"{}","type_id":{},"key":{{"{}":)", type.snake_name, type.type,
                       type.key.fields[0].name);
  for (std::size_t i = 1; i < type.key.fields.size(); ++i)
    t.names[i] = fmt::format(R"(,"{}":)", type.key.fields[i].name);
  return t;
}
void append_plain_key_field(detail::TextBuffer& out, const PlainKeyField& f) {
  if (f.is_int) return detail::append_json_integer(out, f.value);
  detail::append_json_string(out, f.text);
}
void append_topic_id(detail::TextBuffer& out, const std::uint8_t* id, TopicIdText& last) {
  if (!last.kept || std::memcmp(last.id.data(), id, 16) != 0) {
    std::memcpy(last.id.data(), id, 16);
    schema_walk::write_uuid_text(std::span<const std::uint8_t>(id, 16), last.text);
    last.kept = true;
  }
  constexpr std::size_t n = schema_walk::kUuidTextSize;
  char* p = out.room(n + 2);
  *p = '"';
  std::memcpy(p + 1, last.text, n);
  p[n + 1] = '"';
  out.advance(n + 2);
}
// [a,b,...] of n big-endian int32s in place.
void append_int32_array(detail::TextBuffer& out, const std::uint8_t* p, std::size_t n) {
  put_literal(out, "[");
  for (std::size_t i = 0; i < n; ++i) {
    if (i) put_literal(out, ",");
    detail::append_json_integer(out, static_cast<std::int32_t>(load_be32(p + 4 * i)));
  }
  put_literal(out, "]");
}
void append_topic_list(detail::TextBuffer& out, const PlainTopicList& list) {
  thread_local TopicIdText last_topic_id;
  put_literal(out, "[");
  for (std::size_t i = 0; i < list.size; ++i) {
    const PlainTopicPartitions& t = list.topics[i];
    if (i) put_literal(out, ",");
    put_literal(out, R"({"topic_id":)");
    append_topic_id(out, t.topic_id, last_topic_id);
    put_literal(out, R"(,"partitions":)");
    append_int32_array(out, t.partitions, t.partition_count);
    if (t.has_epochs) {
      put_literal(out, R"(,"assignment_epochs":)");
      append_int32_array(out, t.epochs, t.epoch_count);
    }
    put_literal(out, "}");
  }
  put_literal(out, "]");
}
void append_text_list(detail::TextBuffer& out, const PlainTextList& list) {
  put_literal(out, "[");
  for (std::size_t i = 0; i < list.size; ++i) {
    if (i) put_literal(out, ",");
    detail::append_json_string(out, list.text(i));
  }
  put_literal(out, "]");
}
void append_nullable_text(detail::TextBuffer& out, std::string_view text, bool null) {
  if (null) return put_literal(out, "null");
  detail::append_json_string(out, text);
}
// JsonSink's bytes: base64 in quotes.
void append_base64(detail::TextBuffer& out, std::span<const std::uint8_t> b) {
  const std::size_t n = base64_size(b.size());
  char* p = out.room(n + 2);
  *p = '"';
  write_base64(b, p + 1);
  p[n + 1] = '"';
  out.advance(n + 2);
}
void append_nullable_bytes(detail::TextBuffer& out, offset_commit_detail::Cursor& in) {
  bool null = false;
  const auto b = coordinator_plain_detail::bytes32(in, null);
  if (null) return put_literal(out, "null");
  append_base64(out, b);
}
// A compact JSON array of a classic array of strings (not null), or of int32s.
void append_strings16(detail::TextBuffer& out, offset_commit_detail::Cursor& in) {
  const std::size_t n = coordinator_plain_detail::count32(in);
  put_literal(out, "[");
  for (std::size_t i = 0; i < n && in.ok; ++i) {
    if (i) put_literal(out, ",");
    detail::append_json_string(out, in.string16());
  }
  put_literal(out, "]");
}
void append_int32s(detail::TextBuffer& out, offset_commit_detail::Cursor& in) {
  const std::size_t n = coordinator_plain_detail::count32(in);
  const std::uint8_t* p = coordinator_plain_detail::int32s(in, n);
  if (in.ok) append_int32_array(out, p, n);
}
// [{"topic":...,"partitions":[...]},...]: a Subscription's owned_partitions, an Assignment's
// assigned_partitions.
void append_topic_partitions16(detail::TextBuffer& out, offset_commit_detail::Cursor& in) {
  const std::size_t n = coordinator_plain_detail::count32(in);
  put_literal(out, "[");
  for (std::size_t i = 0; i < n && in.ok; ++i) {
    if (i) put_literal(out, ",");
    put_literal(out, R"({"topic":)");
    detail::append_json_string(out, in.string16());
    put_literal(out, R"(,"partitions":)");
    append_int32s(out, in);
    put_literal(out, "}");
  }
  put_literal(out, "]");
}
// write_embedded's text of a classic group member's Subscription (false) or Assignment
// (true), written as it is read: taken only for a version 0-3 message (the schemas') whose
// fields read to its last byte; false for any other (the walk decides: its base64, or a
// message read with bytes left over), the text then the caller's to take back.
bool append_plain_consumer_protocol(detail::TextBuffer& out, std::span<const std::uint8_t> bytes,
                                    bool assignment) {
  offset_commit_detail::Cursor in{bytes.data(), bytes.size()};
  const std::int16_t v = in.i16();
  if (!in.ok || v < 0 || v > 3) return false;
  if (assignment) {
    put_literal(out, R"({"assigned_partitions":)");
    append_topic_partitions16(out, in);
    put_literal(out, R"(,"user_data":)");
    append_nullable_bytes(out, in);
  } else {
    put_literal(out, R"({"topics":)");
    append_strings16(out, in);
    put_literal(out, R"(,"user_data":)");
    append_nullable_bytes(out, in);
    if (v >= 1) {
      put_literal(out, R"(,"owned_partitions":)");
      append_topic_partitions16(out, in);
    }
    if (v >= 2) {
      put_literal(out, R"(,"generation_id":)");
      detail::append_json_integer(out, in.i32());
    }
    if (v >= 3) {
      put_literal(out, R"(,"rack_id":)");
      bool null = false;
      const std::string_view rack = coordinator_plain_detail::nullable_string16(in, null);
      append_nullable_text(out, rack, null);
    }
  }
  put_literal(out, "}");
  return in.ok && in.left == 0;
}
// A GroupMetadataValue of version 3 (Kafka's write, 2.3 and later; classic, not flexible),
// written as it is read, after the record's key: its members' protocol bytes decoded when the
// protocol type is "consumer" (EditedValueSink's edit), base64 otherwise. False for anything
// the walk would note, fail or decode otherwise; the text then the caller's to take back.
bool append_plain_group_metadata(detail::TextBuffer& out, const CheckedCoordinatorRecord& r,
                                 LazyTimes times) {
  thread_local TimeMemberText last_state;
  using coordinator_plain_detail::nullable_string16;
  if (!r.value || !r.value_version || *r.value_version != 3) return false;
  offset_commit_detail::Cursor in{r.value->data(), r.value->size()};
  if (in.i16() != 3) return false;
  put_literal(out, R"(},"value_version":3,"value":{"protocol_type":)");
  const std::string_view protocol_type = in.string16();
  const bool consumer = protocol_type == "consumer";
  detail::append_json_string(out, protocol_type);
  put_literal(out, R"(,"generation":)");
  detail::append_json_integer(out, in.i32());
  bool null = false;
  put_literal(out, R"(,"protocol":)");
  std::string_view text = nullable_string16(in, null);
  append_nullable_text(out, text, null);
  put_literal(out, R"(,"leader":)");
  text = nullable_string16(in, null);
  append_nullable_text(out, text, null);
  put_literal(out, R"(,"current_state_timestamp":)");
  const std::int64_t state_time = in.i64();
  if (!in.ok) return false;
  put_time_member(out, R"(,"current_state_timestamp_iso":)", state_time, times, last_state);
  put_literal(out, R"(,"members":[)");
  const std::size_t n = coordinator_plain_detail::count32(in);
  for (std::size_t i = 0; i < n && in.ok; ++i) {
    if (i) put_literal(out, ",");
    put_literal(out, R"({"member_id":)");
    detail::append_json_string(out, in.string16());
    put_literal(out, R"(,"group_instance_id":)");
    text = nullable_string16(in, null);
    append_nullable_text(out, text, null);
    put_literal(out, R"(,"client_id":)");
    detail::append_json_string(out, in.string16());
    put_literal(out, R"(,"client_host":)");
    detail::append_json_string(out, in.string16());
    put_literal(out, R"(,"rebalance_timeout":)");
    detail::append_json_integer(out, in.i32());
    put_literal(out, R"(,"session_timeout":)");
    detail::append_json_integer(out, in.i32());
    for (const bool assignment : {false, true}) {
      if (assignment)
        put_literal(out, R"(,"assignment":)");
      else
        put_literal(out, R"(,"subscription":)");
      const auto b = coordinator_plain_detail::bytes32(in, null);
      if (!in.ok || null) return false;  // not nullable: the walk's error
      if (!consumer)
        append_base64(out, b);
      else if (!append_plain_consumer_protocol(out, b, assignment))
        return false;
    }
    put_literal(out, "}");
  }
  put_literal(out, "]}}");
  return in.ok && in.left == 0;
}
bool append_plain_coordinator_json(detail::TextBuffer& out, const CheckedCoordinatorRecord& r,
                                   LazyTimes times) {
  const PlainKeyText& text = plain_key_text(*r.type);
  if (!text.plain) return false;
  PlainCoordinatorKey key;
  if (!read_plain_key(r, key)) return false;
  const bool tombstone = plain_tombstone(r);
  const std::int16_t type = r.type->type;
  if (!tombstone && (r.log != CoordinatorLog::offsets || type < 2 || type > 16)) return false;
  const std::size_t start = out.size();
  out += text.head;
  append_plain_key_field(out, key.fields[0]);
  for (std::size_t i = 1; i < key.size; ++i) {
    out += text.names[i];
    append_plain_key_field(out, key.fields[i]);
  }
  if (tombstone) {
    put_literal(out, R"(},"value_version":null,"value":null})");
    return true;
  }
  // The value: read whole, then written; a value that does not read plainly takes back the
  // key written (the walk writes the record).
  switch (type) {
    case 2:
      if (append_plain_group_metadata(out, r, times)) return true;
      break;
    case 3: {
      PlainEpochValue v;
      if (!read_plain_epoch_value(r, v)) break;
      put_literal(out, R"(},"value_version":0,"value":{"epoch":)");
      detail::append_json_integer(out, v.epoch);
      if (v.has_tagged) {
        put_literal(out, R"(,"metadata_hash":)");
        detail::append_json_integer(out, v.tagged);
      }
      put_literal(out, "}}");
      return true;
    }
    case 6: {
      thread_local TimeMemberText last_assignment;
      PlainEpochValue v;
      if (!read_plain_epoch_value(r, v)) break;
      put_literal(out, R"(},"value_version":0,"value":{"assignment_epoch":)");
      detail::append_json_integer(out, v.epoch);
      if (v.has_tagged) {
        put_literal(out, R"(,"assignment_timestamp":)");
        put_time_member(out, R"(,"assignment_timestamp_iso":)", v.tagged, times, last_assignment);
      }
      put_literal(out, "}}");
      return true;
    }
    case 7: {
      PlainTopicList v;
      if (!read_plain_target_member(r, v)) break;
      put_literal(out, R"(},"value_version":0,"value":{"topic_partitions":)");
      append_topic_list(out, v);
      put_literal(out, "}}");
      return true;
    }
    case 8: {
      PlainCurrentAssignment v;
      if (!read_plain_current_assignment(r, v)) break;
      put_literal(out, R"(},"value_version":0,"value":{"member_epoch":)");
      detail::append_json_integer(out, v.member_epoch);
      put_literal(out, R"(,"previous_member_epoch":)");
      detail::append_json_integer(out, v.previous_member_epoch);
      put_literal(out, R"(,"state":)");
      detail::append_json_integer(out, v.state);
      put_literal(out, R"(,"assigned_partitions":)");
      append_topic_list(out, v.assigned);
      put_literal(out, R"(,"partitions_pending_revocation":)");
      append_topic_list(out, v.pending_revocation);
      put_literal(out, "}}");
      return true;
    }
    case 5: {
      PlainMemberMetadata v;
      if (!read_plain_member_metadata(r, v)) break;
      put_literal(out, R"(},"value_version":0,"value":{"instance_id":)");
      append_nullable_text(out, v.instance_id, v.instance_id_null);
      put_literal(out, R"(,"rack_id":)");
      append_nullable_text(out, v.rack_id, v.rack_id_null);
      put_literal(out, R"(,"client_id":)");
      detail::append_json_string(out, v.client_id);
      put_literal(out, R"(,"client_host":)");
      detail::append_json_string(out, v.client_host);
      put_literal(out, R"(,"subscribed_topic_names":)");
      append_text_list(out, v.subscribed_topic_names);
      put_literal(out, R"(,"subscribed_topic_regex":)");
      append_nullable_text(out, v.subscribed_topic_regex, v.regex_null);
      put_literal(out, R"(,"rebalance_timeout_ms":)");
      detail::append_json_integer(out, v.rebalance_timeout_ms);
      put_literal(out, R"(,"server_assignor":)");
      append_nullable_text(out, v.server_assignor, v.server_assignor_null);
      if (v.classic_null) put_literal(out, R"(,"classic_member_metadata":null)");
      put_literal(out, "}}");
      return true;
    }
    case 16: {
      thread_local TimeMemberText last_regex;
      PlainRegularExpression v;
      if (!read_plain_regular_expression(r, v)) break;
      put_literal(out, R"(},"value_version":0,"value":{"topics":)");
      append_text_list(out, v.topics);
      put_literal(out, R"(,"version":)");
      detail::append_json_integer(out, v.version);
      put_literal(out, R"(,"timestamp":)");
      put_time_member(out, R"(,"timestamp_iso":)", v.timestamp, times, last_regex);
      put_literal(out, "}}");
      return true;
    }
    default:
      break;
  }
  out.resize(start);
  return false;
}

// A table's nested member: inline_text of the Value ("{key: value, ...}", "[a, b]", scalars
// as cell_text), a time field's milliseconds shown as its ISO text ("none" for NO_TIMESTAMP).
class InlineSink final : public SinkBase {
 public:
  // The text is made in a buffer of the thread's, kept from record to record (TextBuffer:
  // room and advance inline, where each std::string append was a call), and appended to
  // `out` whole by finish().
  InlineSink(std::string& out, LazyTimes times) : SinkBase(times), out_(out), text_(scratch()) {
    text_.clear();
  }
  void finish() { out_.append(text_.data(), text_.size()); }
  void begin_object(bool) override { open('{'); }
  void end_object() override { close('}'); }
  void key(std::string_view name) override {
    // ", " when separate() would write it, the name (snake_case ASCII, SchemaSink::key:
    // nothing to escape) and ": ".
    const bool comma = depth_ > 0 && text_.size() > starts_[depth_ - 1];
    char* p = text_.room(name.size() + 4);
    std::memcpy(p, ", ", 2);
    p += comma ? 2 : 0;
    copy_short(p, name.data(), name.size());
    std::memcpy(p + name.size(), ": ", 2);
    text_.advance(name.size() + (comma ? 4 : 2));
    set_key(name);
    member_ = true;
  }
  // key(k) of a literal: its size known, copied inline.
  template <std::size_t N>
  KEPOCH_SINK_INLINE void literal_key(const char (&k)[N]) {
    const bool comma = depth_ > 0 && text_.size() > starts_[depth_ - 1];
    char* p = text_.room(N + 3);
    std::memcpy(p, ", ", 2);
    p += comma ? 2 : 0;
    std::memcpy(p, k, N - 1);
    std::memcpy(p + N - 1, ": ", 2);
    text_.advance(N - 1 + (comma ? 4 : 2));
    set_literal_key(k);
    member_ = true;
  }
  // key(cf.field->name), the name copied whole from its padded copy.
  KEPOCH_SINK_INLINE void member_key(const schema_walk::CompiledField& cf) {
    const std::size_t n = cf.name_size;
    if (n == 0) return key(cf.field->name);
    const bool comma = depth_ > 0 && text_.size() > starts_[depth_ - 1];
    char* p = text_.room(schema_walk::kPaddedNameSize + 4);
    std::memcpy(p, ", ", 2);
    p += comma ? 2 : 0;
    std::memcpy(p, cf.padded_name.data(), schema_walk::kPaddedNameSize);
    std::memcpy(p + n, ": ", 2);
    text_.advance(n + (comma ? 4 : 2));
    set_key(cf);
    member_ = true;
  }
  void begin_array(std::size_t) override { open('['); }
  void end_array() override { close(']'); }
  void null() override { literal("-"); }
  void boolean(bool v) override { v ? literal("true") : literal("false"); }
  void integer(std::int64_t v) override {
    if (time_member(member_)) {
      const std::string_view text = iso(v);
      return text.empty() ? literal("none") : scalar(text);
    }
    if (!next_value()) separate();
    char* p = text_.room(24);
    text_.advance(static_cast<std::size_t>(std::to_chars(p, p + 24, v).ptr - p));
  }
  void floating(double v) override {
    const std::string text = detail::cell_text(Value(v));
    scalar(text);
  }
  void text(std::string_view v) override {
    if (needs_escape(v))
      scalar(escape_control(v));
    else
      scalar(v);
  }
  void name(std::string_view v) override { scalar(v); }  // snake_case ASCII: no escape
  void bytes(std::span<const std::uint8_t> v) override {
    if (!next_value()) separate();  // scalar() of base64, which never needs escaping
    const std::size_t n = base64_size(v.size());
    write_base64(v, text_.room(n));
    text_.advance(n);
  }

 private:
  static detail::TextBuffer& scratch() {
    thread_local detail::TextBuffer buffer;
    return buffer;
  }
  // inline_text joins an array's texts with ", " after a text that is not empty (an empty
  // first string is followed by none), an object's members likewise (never empty).
  void separate() {
    if (!member_ && depth_ > 0 && text_.size() > starts_[depth_ - 1]) text_ += ", ";
  }
  void scalar(std::string_view text) {
    if (!next_value()) separate();
    char* p = text_.room(text.size());
    copy_short(p, text.data(), text.size());
    text_.advance(text.size());
  }
  template <std::size_t N>
  void literal(const char (&text)[N]) {  // a literal's own size: copied inline
    if (!next_value()) separate();
    std::memcpy(text_.room(N - 1), text, N - 1);
    text_.advance(N - 1);
  }
  void open(char c) {
    if (!next_value()) separate();
    text_ += c;
    if (depth_ == starts_.size()) throw std::logic_error("coordinator record nested too deep");
    starts_[depth_++] = text_.size();
  }
  void close(char c) {
    text_ += c;
    --depth_;
  }
  std::string& out_;
  detail::TextBuffer& text_;
  std::array<std::size_t, 64> starts_{};  // per open group: where its text begins (JsonSink)
  std::size_t depth_ = 0;
};

// YAML: emit_yaml's events for the Value, a time field's milliseconds shown as its ISO text
// (null for NO_TIMESTAMP).
class YamlSink final : public SinkBase {
 public:
  YamlSink(detail::YamlEmitter& e, LazyTimes times) : SinkBase(times), e_(e) {}
  void begin_object(bool empty) override {
    next_value();
    e_.begin_map(empty);
  }
  void end_object() override { e_.end_map(); }
  void key(std::string_view name) override {
    e_.string(name);
    set_key(name);
    member_ = true;
  }
  void begin_array(std::size_t size) override {
    next_value();
    e_.begin_seq(size == 0);
  }
  void end_array() override { e_.end_seq(); }
  void null() override {
    next_value();
    e_.null();
  }
  void boolean(bool v) override {
    next_value();
    e_.boolean(v);
  }
  void integer(std::int64_t v) override {
    if (!time_member(next_value())) return e_.integer(v);
    const std::string_view text = iso(v);
    if (text.empty()) return e_.null();
    e_.string(text, detail::needs_quotes(text));
  }
  void floating(double v) override {
    next_value();
    e_.real(v);
  }
  void text(std::string_view v) override {
    next_value();
    e_.string(v, detail::needs_quotes(v));
  }

 private:
  detail::YamlEmitter& e_;
};

// YamlSink's text through the emitter's block calls (inline, into its text), so that the
// schema walk's calls are made directly (a final class) and a deferred record is written as
// its fields are read, once: what a record that does not write so wrote is taken back
// (YamlEmitter::take_back), as JSON's is. Only where the emitter is block_ready().
class YamlBlockSink final : public SinkBase {
 public:
  YamlBlockSink(detail::YamlEmitter& e, LazyTimes times) : SinkBase(times), e_(e) {}
  KEPOCH_SINK_INLINE void begin_object(bool empty) override {
    next_value();
    e_.block_begin(true, empty);
  }
  KEPOCH_SINK_INLINE void end_object() override { e_.block_end(true); }
  void key(std::string_view name) override {
    write_key(name);
    set_key(name);
    member_ = true;
  }
  template <std::size_t N>
  KEPOCH_SINK_INLINE void literal_key(const char (&k)[N]) {
    e_.block_key_copy<N>(k, N - 1);  // write_unchecked_coordinator's: plain
    set_literal_key(k);
    member_ = true;
  }
  // The record's first members written by begin_coordinator_yaml, up to the literal key
  // `k` ("key" or "value"): as after literal_key(k).
  template <std::size_t N>
  void head_written(const char (&k)[N]) {
    set_literal_key(k);
    member_ = true;
  }
  KEPOCH_SINK_INLINE void member_key(const schema_walk::CompiledField& cf) {
    if (cf.name_size > 0 && detail::yaml_plain_name(cf.field->name))
      e_.block_key_copy<schema_walk::kPaddedNameSize>(cf.padded_name.data(), cf.name_size);
    else
      write_key(cf.field->name);
    set_key(cf);
    member_ = true;
  }
  KEPOCH_SINK_INLINE void begin_array(std::size_t size) override {
    next_value();
    e_.block_begin(false, size == 0);
  }
  KEPOCH_SINK_INLINE void end_array() override { e_.block_end(false); }
  KEPOCH_SINK_INLINE void null() override { put(next_value(), "~"); }
  KEPOCH_SINK_INLINE void boolean(bool v) override {
    put(next_value(), v ? std::string_view("true") : std::string_view("false"));
  }
  KEPOCH_SINK_INLINE void integer(std::int64_t v) override {
    const bool member = next_value();
    if (time_member(member)) return time(v);
    char digits[detail::kDecimalRoom];
    const char* end = detail::write_decimal(digits, v);
    put(member, std::string_view(digits, static_cast<std::size_t>(end - digits)));
  }
  void floating(double v) override {
    next_value();
    e_.real(v);
  }
  KEPOCH_SINK_INLINE void text(std::string_view v) override { scalar(next_value(), v); }
  // A name of kepoch's tables (SchemaSink::name: a record type's, static text): whether it is
  // written as it is decided once per name, by its address (a dump's records have a few types).
  KEPOCH_SINK_INLINE void name(std::string_view v) override {
    thread_local std::string_view last;
    thread_local bool last_as_is = false;
    if (v.data() != last.data() || v.size() != last.size()) {
      last = v;
      last_as_is = detail::yaml_as_is(v);
    }
    if (last_as_is) return put(next_value(), v);
    scalar(next_value(), v);
  }

 private:
  // A key's text: a schema's name ([a-z0-9_], SchemaSink::key) is plain but "" and "null"
  // (detail::yaml_plain_name); longer than a simple key's 1024 bytes it is not one, which
  // the block calls do not write: thrown, the record is written the general way.
  KEPOCH_SINK_INLINE void write_key(std::string_view name) {
    if (detail::yaml_plain_name(name)) return e_.block_key(name);
    if (name.size() > 1024) throw FormatError(0, "a key too long for the block calls");
    quoted_.clear();
    detail::append_yaml_double_quoted(quoted_, name);
    e_.block_key(quoted_);
  }
  // A scalar's final text, a member's value (`member`) or an item.
  KEPOCH_SINK_INLINE void put(bool member, std::string_view text) {
    member ? e_.block_value(text) : e_.block_scalar(text);
  }
  // emit_yaml's string: as it is, or double-quoted (needs_quotes or not plain).
  KEPOCH_SINK_INLINE void scalar(bool member, std::string_view v) {
    if (detail::yaml_as_is(v)) return put(member, v);
    quoted_.clear();
    detail::append_yaml_double_quoted(quoted_, v);
    put(member, quoted_);
  }
  void time(std::int64_t v) {  // a member's
    const std::string_view text = iso(v);
    if (text.empty()) return e_.block_value("~");
    scalar(true, text);
  }
  detail::YamlEmitter& e_;
  std::string quoted_;
};

// coordinator_value(d) of a deferred record whose fields check as they are written (with no
// note: there is no "notes" member), as events; throws FormatError, having written part of
// it, for any other. `Sink`: a final class, whose calls the schema walk makes directly.
template <class Sink, std::size_t N>
[[gnu::always_inline]] inline void literal_key(Sink& sink, const char (&k)[N]) {
  if constexpr (requires { sink.literal_key(k); })
    sink.literal_key(k);
  else
    sink.key(k);
}
template <class Sink>
void write_unchecked_coordinator(const DumpedCoordinator& d, Sink& sink) {
  const CheckedCoordinatorRecord& r = *d.checked;
  sink.begin_object(false);
  literal_key(sink, "type");
  sink.name(r.type->snake_name);
  literal_key(sink, "type_id");
  sink.integer(r.type->type);
  literal_key(sink, "key");
  write_unchecked_coordinator_key_with(r, sink);
  literal_key(sink, "value_version");
  r.value_version ? sink.integer(*r.value_version) : sink.null();
  literal_key(sink, "value");
  write_unchecked_coordinator_value_with(r, sink);
  sink.end_object();
}

// write_unchecked_coordinator(d, sink) of YamlBlockSink, the record's head (its type and the
// key "key") as lines made once per record type and column, and the usual key (strings and
// int32s) read and written there too, a tombstone whole (begin_coordinator_yaml).
void write_unchecked_coordinator_yaml(const DumpedCoordinator& d, YamlBlockSink& sink,
                                      detail::YamlEmitter& e, LazyTimes times) {
  const CheckedCoordinatorRecord& r = *d.checked;
  switch (e.at_map_value() ? detail::begin_coordinator_yaml(e, r, times) : detail::YamlHead::none) {
    case detail::YamlHead::none:
      return write_unchecked_coordinator(d, sink);
    case detail::YamlHead::whole:
      return;
    case detail::YamlHead::value_next:
      sink.head_written("value");
      break;
    case detail::YamlHead::key_next:
      sink.head_written("key");
      write_unchecked_coordinator_key_with(r, sink);
      literal_key(sink, "value_version");
      r.value_version ? sink.integer(*r.value_version) : sink.null();
      literal_key(sink, "value");
      break;
  }
  write_unchecked_coordinator_value_with(r, sink);
  sink.end_object();
}

// write_unchecked_coordinator(d, sink) of JsonSink, the record's own members (its type, the
// keys "key", "value_version" and "value") written as text made once per record type, where
// they were a dozen sink calls per record.
void write_unchecked_coordinator_json(const DumpedCoordinator& d, JsonSink& sink) {
  const CheckedCoordinatorRecord& r = *d.checked;
  struct Head {
    const CoordinatorRecordType* type = nullptr;
    std::size_t size = 0;
    char text[96] = {};  // {"type":"<snake_name>","type_id":<type>,"key":
  };
  thread_local std::array<Head, 64> heads;
  Head& head = heads[static_cast<std::size_t>(r.type->type) & 63];
  if (head.type != r.type) {
    const std::string text =
        fmt::format(R"({{"type":"{}","type_id":{},"key":)", r.type->snake_name, r.type->type);
    if (text.size() > sizeof head.text) return write_unchecked_coordinator(d, sink);
    std::memcpy(head.text, text.data(), text.size());
    head.size = text.size();
    head.type = r.type;
  }
  sink.raw_key(head.text, head.size);
  write_unchecked_coordinator_key_with(r, sink);
  char text[32] = R"(,"value_version":null,"value":)";
  std::size_t n = 30;
  if (r.value_version) {
    char* const digits = std::to_chars(text + 17, text + 24, *r.value_version).ptr;
    std::memcpy(digits, R"(,"value":)", 9);
    n = static_cast<std::size_t>(digits + 9 - text);
  }
  sink.raw_key(text, n);
  write_unchecked_coordinator_value_with(r, sink);
  sink.end_object();
}

// coordinator_value(d) as events: the record read from its bytes when it was only checked.
void write_coordinator(const DumpedCoordinator& d, SchemaSink& sink) {
  const CheckedCoordinatorRecord* checked = d.checked ? &*d.checked : nullptr;
  const CoordinatorRecord* record = d.record ? &*d.record : nullptr;
  const CoordinatorRecordType* type = checked ? checked->type : record ? record->type : nullptr;
  sink.begin_object(!type && !d.error);
  if (type) {
    sink.key("type");
    sink.name(type->snake_name);
    sink.key("type_id");
    sink.integer(type->type);
    sink.key("key");
    checked ? write_coordinator_key(*checked, sink) : write_schema_value(record->key, sink);
    const auto version = checked ? checked->value_version : record->value_version;
    sink.key("value_version");
    version ? sink.integer(*version) : sink.null();
    sink.key("value");
    checked ? write_coordinator_value(*checked, sink) : write_schema_value(record->value, sink);
    const std::vector<std::string>& notes = checked ? checked->notes : record->notes;
    if (!notes.empty()) {
      sink.key("notes");
      sink.begin_array(notes.size());
      for (const auto& n : notes)
        sink.text(n);
      sink.end_array();
    }
  }
  if (d.error) {
    sink.key("error");
    sink.text(*d.error);
  }
  sink.end_object();
}

// coordinator_value(d), written without building it (one per record of a __consumer_offsets
// dump). A deferred record (DumpedCoordinator::deferred) is written as its fields are
// checked where the text can be taken back (JSON, a table's line), once: when they check
// without a note, that is the record's text; when not, the text is taken back and the
// record checked (check_deferred_coordinator, its error counted in the batch) and written
// as a checked one. YAML likewise, through the emitter's block calls (take_back).
class CoordinatorMember final : public LazyMember {
 public:
  CoordinatorMember(const DumpedCoordinator& d, DumpedBatch* batch) : d_(d), batch_(batch) {}
  Value value() const override { return coordinator_value(settled()); }
  void append_json(detail::TextBuffer& out, LazyTimes times) const override {
    if (pending()) {
      // The usual record (an OffsetCommit that reads plainly): its text by straight-line
      // code, no sink, nothing to take back (anything else reads through the walk below).
      PlainOffsetCommit commit;
      if (d_.checked->type->type == 1 && read_plain_offset_commit(*d_.checked, commit)) {
        append_offset_commit_json(out, commit, times);
        good_ = true;
        return;
      }
      if (append_plain_coordinator_json(out, *d_.checked, times)) {
        good_ = true;
        return;
      }
      const std::size_t start = out.size();
      try {
        JsonSink sink(out, times);
        write_unchecked_coordinator_json(d_, sink);
        good_ = true;
        return;
      } catch (const FormatError&) {
        out.resize(start);
      }
    }
    JsonSink sink(out, times);
    write_coordinator(settled(), sink);
  }
  void append_inline(std::string& out, LazyTimes times) const override {
    if (pending()) {
      try {
        InlineSink sink(out, times);  // its text is its own until finish()
        write_unchecked_coordinator(d_, sink);
        good_ = true;
        return sink.finish();
      } catch (const FormatError&) {
      }
    }
    InlineSink sink(out, times);
    write_coordinator(settled(), sink);
    sink.finish();
  }
  void emit_yaml(detail::YamlEmitter& e, LazyTimes times) const override {
    if (pending() && e.block_ready()) {
      // The usual record (an OffsetCommit that reads plainly) by straight-line code, as
      // append_json's; anything else through the walk below.
      PlainOffsetCommit commit;
      if (d_.checked->type->type == 1 && e.at_map_value() &&
          read_plain_offset_commit(*d_.checked, commit) &&
          detail::emit_offset_commit_yaml(e, commit, times)) {
        good_ = true;
        return;
      }
      const detail::YamlEmitter::Mark mark = e.mark();
      try {
        YamlBlockSink sink(e, times);
        write_unchecked_coordinator_yaml(d_, sink, e, times);
        good_ = true;
        return;
      } catch (const FormatError&) {
        e.take_back(mark);
      }
    }
    YamlSink sink(e, times);
    write_coordinator(settled(), sink);
  }
  // The check of a deferred record that no rendering made (a writer that took none).
  void settle() const {
    if (pending()) settled();
  }

 private:
  bool pending() const { return d_.deferred && !good_ && !checked_; }
  // The record as coordinator_checked has it: checked, with its notes, or its error.
  const DumpedCoordinator& settled() const {
    if (!d_.deferred || good_) return good_ ? checked_view() : d_;
    if (!checked_) {
      DumpedBatch scratch;
      checked_ = check_deferred_coordinator(batch_ ? *batch_ : scratch, d_);
    }
    return *checked_;
  }
  // A deferred record that wrote without a note: the checked record it is (no notes).
  const DumpedCoordinator& checked_view() const {
    if (!checked_) {
      checked_.emplace();
      checked_->checked = d_.checked;
    }
    return *checked_;
  }
  const DumpedCoordinator& d_;
  DumpedBatch* batch_;
  mutable bool good_ = false;  // deferred, and its fields wrote without a note
  mutable std::optional<DumpedCoordinator> checked_;
};

}  // namespace

void write_coordinator_member(ObjectWriter& w, std::string_view key,
                              const DumpedCoordinator& coordinator, DumpedBatch* batch) {
  const CoordinatorMember member(coordinator, batch);
  w.lazy(key, member);
  member.settle();
}

namespace {

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
void write_record(ObjectWriter& w, DumpedBatch& b, std::span<const std::uint8_t> entry,
                  const Record& r, const DumpedControl* control,
                  const DumpedCoordinator* coordinator, DataFormat data, RecordDecoding* decoding) {
  const bool decode = decoding && decoding->remote_log_metadata && !control &&
                      !b.header.is_control() && r.magic >= 2;
  const MemberNames names(kRecordNames);
  const RecordIntegers integers(r);
  const std::span<const std::int64_t> values(integers.values);
  const bool integers_only = r.magic >= 2 && !control && data == DataFormat::none && !decode;
  if (integers_only && !coordinator) return w.integers_object(names, values);
  if (integers_only) {  // a decoded record of __consumer_offsets: the usual one, in one call
    const CoordinatorMember member(*coordinator, &b);
    w.integers_object_with(names, values, 1, "coordinator", member);
    return member.settle();
  }
  w.begin_object();
  if (coordinator) {
    // The decode right after the offset: what a table's record line shows first.
    w.integer(kRecordNames[0], values[0]);
    write_coordinator_member(w, "coordinator", *coordinator, &b);
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

void stream_batch(ReportStream& stream, DumpedBatch& b, bool with_records, DataFormat data,
                  RecordDecoding* decoding) {
  if (!with_records) {
    // write_batch's members in its order, as one run.
    const BatchHeader& h = b.header;
    static constexpr std::string_view kBatch[] = {"position",
                                                  "size",
                                                  "base_offset",
                                                  "last_offset",
                                                  "count",
                                                  "partition_leader_epoch",
                                                  "magic",
                                                  "crc",
                                                  "crc_valid",
                                                  "compression",
                                                  "timestamp_type",
                                                  "is_control",
                                                  "is_transactional",
                                                  "producer_id",
                                                  "producer_epoch",
                                                  "base_sequence",
                                                  "base_timestamp",
                                                  "max_timestamp"};
    const auto text = [](std::string_view t) { return Scalar{Scalar::Kind::string, 0, t}; };
    const auto boolean = [&text](bool v) { return text(v ? "true" : "false"); };
    const Scalar values[] = {Scalar::of(static_cast<std::int64_t>(h.position)),
                             Scalar::of(static_cast<std::int64_t>(h.size_in_bytes())),
                             Scalar::of(h.base_offset),
                             Scalar::of(h.last_offset()),
                             Scalar::of(h.is_v2() ? h.records_count : 1),
                             Scalar::of(h.partition_leader_epoch),
                             Scalar::of(h.magic),
                             Scalar::of(h.crc),
                             b.crc_valid ? boolean(*b.crc_valid) : Scalar{},
                             text(codec_name(h.codec())),
                             text(h.log_append_time() ? "log-append-time" : "create-time"),
                             boolean(h.is_control()),
                             boolean(h.is_transactional()),
                             Scalar::of(h.producer_id),
                             Scalar::of(h.producer_epoch),
                             Scalar::of(h.base_sequence),
                             Scalar::of(h.base_timestamp),
                             Scalar::of(h.max_timestamp)};
    static_assert(std::size(kBatch) == std::size(values));
    if (stream.table_row(kBatch, values)) return;
  }
  stream.write_element([&](ObjectWriter& w) { write_batch(w, b, with_records, data, decoding); });
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
