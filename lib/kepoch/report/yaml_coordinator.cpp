#include "kepoch/report/yaml_coordinator.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "kepoch/base/short_copy.hpp"
#include "kepoch/base/time_text.hpp"
#include "kepoch/format/schema_walk.hpp"

namespace kepoch::report::detail {
namespace {

// A piece of rendered text held zero-padded in a fixed-size array: written as one copy of a
// known size, inline (what follows overwrites the padding).
template <std::size_t N>
struct Piece {
  std::array<char, N> bytes{};
  std::size_t size = 0;
  std::size_t tail = 0;  // the bytes after its last "\n"
  bool set(std::string_view text) {
    if (text.size() > N) return false;
    std::memcpy(bytes.data(), text.data(), text.size());
    size = text.size();
    tail = size - 1 - text.rfind('\n');
    return true;
  }
  // Writes the piece at p (N bytes there); returns its end, its last line's start at `line`.
  char* put(char* p, char*& line) const {
    std::memcpy(p, bytes.data(), N);
    line = p + size - tail;
    return p + size;
  }
};
constexpr std::size_t kPiece = 64;
constexpr std::size_t kHead = 128;

// "\n" and `column` spaces: a member line's start.
std::string line(std::size_t column) {
  std::string text(1, '\n');
  text.append(column, ' ');
  return text;
}

// A text of the record (a name, a group, a topic id): as it is or double-quoted, as
// YamlBlockSink::scalar writes it; the last one's text is kept (a batch's records mostly
// share their group and topic).
class TextCache {
 public:
  std::string_view get(std::string_view s) {
    if (kept_ && s.size() == raw_.size() && std::memcmp(s.data(), raw_.data(), s.size()) == 0)
      return text_;
    raw_.assign(s);
    text_.clear();
    if (yaml_as_is(s))
      text_.assign(s);
    else
      append_yaml_double_quoted(text_, s);
    kept_ = true;
    return text_;
  }

 private:
  bool kept_ = false;
  std::string raw_;
  std::string text_;
};

// A time field's value as YamlBlockSink writes it: its ISO text (as it is or quoted), "~"
// for NO_TIMESTAMP, or its milliseconds when times are not shown; the last one's kept.
class TimeCache {
 public:
  std::string_view get(std::int64_t ms, LazyTimes times) {
    if (kept_ && ms == ms_ && times.shown == times_.shown && times.local == times_.local)
      return text_;
    text_.clear();
    if (!times.shown) {
      char digits[kDecimalRoom];
      text_.assign(digits, write_decimal(digits, ms));
    } else {
      char iso[kIsoTimeMax];
      const std::string_view t(iso, write_iso_time(ms, times.local, iso));
      if (t.empty())
        text_ = "~";
      else if (yaml_as_is(t))
        text_.assign(t);
      else
        append_yaml_double_quoted(text_, t);
    }
    kept_ = true;
    ms_ = ms;
    times_ = times;
    return text_;
  }

 private:
  bool kept_ = false;
  std::int64_t ms_ = 0;
  LazyTimes times_;
  std::string text_;
};

// s at p (room for max(n, 32) there), short ones in fixed-size copies.
[[gnu::always_inline]] inline char* put(char* p, std::string_view s) {
  return put_short(p, s);
}
[[gnu::always_inline]] inline char* put_integer(char* p, std::int64_t v) {
  return write_decimal(p, v);
}

// An OffsetCommit's text between its values, at one column (the record map's keys'):
//   head           ":" L "type: offset_commit" L "type_id: 1" L "key:" L2 "group: "
//   topic ...      L2 "topic: ", L2 "partition: "
//   tombstone      L "value_version: ~" L "value: ~"
//   value_version  L "value_version: "
//   offset         L "value:" L2 "offset: "
//   the rest       L2 "<name>: "
// (L: "\n" and the column's spaces; L2: two more.)
struct OffsetCommitLines {
  std::size_t column = 0;
  bool made = false;
  bool fits = false;
  Piece<kHead> head;
  Piece<kPiece> topic, partition, tombstone, value_version, offset, leader_epoch, metadata,
      commit_timestamp, expire_timestamp, topic_id;
  void make(std::size_t at) {
    column = at;
    made = true;
    const std::string l = line(at);
    const std::string l2 = line(at + 2);
    fits = head.set(":" + l + "type: offset_commit" + l + "type_id: 1" + l + "key:" + l2 +
                    "group: ") &&
           topic.set(l2 + "topic: ") && partition.set(l2 + "partition: ") &&
           tombstone.set(l + "value_version: ~" + l + "value: ~") &&
           value_version.set(l + "value_version: ") && offset.set(l + "value:" + l2 + "offset: ") &&
           leader_epoch.set(l2 + "leader_epoch: ") && metadata.set(l2 + "metadata: ") &&
           commit_timestamp.set(l2 + "commit_timestamp: ") &&
           expire_timestamp.set(l2 + "expire_timestamp: ") && topic_id.set(l2 + "topic_id: ");
  }
};

}  // namespace

bool emit_offset_commit_yaml(YamlEmitter& e, const PlainOffsetCommit& c, LazyTimes times) {
  thread_local OffsetCommitLines lines;
  thread_local TextCache group, topic, metadata;
  thread_local TimeCache commit, expire;
  thread_local std::array<std::uint8_t, 16> last_id{};
  thread_local std::string id_text;
  const std::size_t column = e.value_map_column();
  if (!lines.made || lines.column != column) lines.make(column);
  if (!lines.fits) return false;
  const std::string_view group_text = group.get(c.group);
  const std::string_view topic_text = topic.get(c.topic);
  std::string_view metadata_text, commit_text, expire_text, id;
  // Room for every piece (its fixed size), text (its size and 32) and integer.
  std::size_t n =
      kHead + 3 * kPiece + 2 * 32 + group_text.size() + topic_text.size() + kDecimalRoom;
  if (!c.tombstone) {
    metadata_text = metadata.get(c.metadata);
    commit_text = commit.get(c.commit_timestamp, times);
    if (c.has_expire_timestamp) expire_text = expire.get(c.expire_timestamp, times);
    if (c.topic_id) {
      if (id_text.empty() || std::memcmp(last_id.data(), c.topic_id, 16) != 0) {
        std::memcpy(last_id.data(), c.topic_id, 16);
        char text[schema_walk::kUuidTextSize];
        schema_walk::write_uuid_text(std::span<const std::uint8_t>(c.topic_id, 16), text);
        const std::string_view t(text, sizeof text);
        id_text.clear();
        if (yaml_as_is(t))
          id_text.assign(t);
        else
          append_yaml_double_quoted(id_text, t);
      }
      id = id_text;
    }
    n += 7 * kPiece + 3 * kDecimalRoom + 4 * 32 + metadata_text.size() + commit_text.size() +
         expire_text.size() + id.size();
  }
  char* line = nullptr;
  char* p = e.value_room(n);
  p = lines.head.put(p, line);
  p = put(p, group_text);
  p = lines.topic.put(p, line);
  p = put(p, topic_text);
  p = lines.partition.put(p, line);
  p = put_integer(p, c.partition);
  if (c.tombstone) {
    p = lines.tombstone.put(p, line);
    e.value_map_written(p, line);
    return true;
  }
  p = lines.value_version.put(p, line);
  p = put_integer(p, c.value_version);
  p = lines.offset.put(p, line);
  p = put_integer(p, c.offset);
  if (c.has_leader_epoch) {
    p = lines.leader_epoch.put(p, line);
    p = put_integer(p, c.leader_epoch);
  }
  p = lines.metadata.put(p, line);
  p = put(p, metadata_text);
  p = lines.commit_timestamp.put(p, line);
  p = put(p, commit_text);
  if (c.has_expire_timestamp) {
    p = lines.expire_timestamp.put(p, line);
    p = put(p, expire_text);
  }
  if (c.topic_id) {
    p = lines.topic_id.put(p, line);
    p = put(p, id);
  }
  e.value_map_written(p, line);
  return true;
}

namespace {

// A record type's lines at one column (the record map's keys'):
//   head           ":" L "type: <snake_name>" L "type_id: <type>" L "key"
//   fields[i]      (":" before the first) L2 "<name>: ", the key's members
//   tombstone      L "value_version: ~" L "value: ~"
//   value_version  L "value_version: "
//   null_value     L "value: ~"
//   value          L "value"
// The key is read here when its fields, at the type's key version (not flexible), are
// strings (not null) and int32s that are no time fields, named as they are written plain:
// the reads and the text of the walk (write_unchecked_coordinator_key_with through
// YamlBlockSink), any other key or bytes making the walk take it.
struct TypeLines {
  static constexpr std::size_t kMaxFields = 4;
  const CoordinatorRecordType* type = nullptr;
  std::size_t column = 0;
  bool head_fits = false;
  bool key_read = false;  // the key's fields are read here
  std::size_t field_count = 0;
  std::array<bool, kMaxFields> is_string{};
  Piece<kHead> head;
  std::array<Piece<kPiece>, kMaxFields> fields;
  Piece<kPiece> tombstone, value_version, null_value, value;
  // The value's lines at one version (value_for; -1: none made), where its fields are
  // scalars that stream_member reads (CompiledField::Kind), untagged but for a tagged
  // section after them (read here when empty), named as they are written plain.
  static constexpr std::size_t kMaxValueFields = 8;
  std::int32_t value_for = -1;
  bool value_read = false;
  bool value_flexible = false;
  std::size_t value_count = 0;
  std::array<schema_walk::CompiledField::Kind, kMaxValueFields> value_kinds{};
  std::array<bool, kMaxValueFields> value_nullable{};
  std::array<bool, kMaxValueFields> value_time{};
  std::array<Piece<kPiece>, kMaxValueFields> value_fields;
  // Its tagged fields (after the untagged): integers and booleans, found by tag.
  static constexpr std::size_t kMaxTagged = 4;
  std::size_t tagged_count = 0;
  std::array<schema_walk::CompiledField::Kind, kMaxTagged> tagged_kinds{};
  std::array<std::uint32_t, kMaxTagged> tagged_tags{};
  std::array<std::size_t, kMaxTagged> tagged_widths{};
  std::array<bool, kMaxTagged> tagged_time{};
  std::array<Piece<kPiece>, kMaxTagged> tagged_fields;

  void make_value(std::int16_t version) {
    value_for = version;
    value_read = false;
    if (!key_read || version < 0 || type->value.fields.empty()) return;
    const auto v = static_cast<std::uint32_t>(version);
    const schema_walk::SchemaFront& front = schema_walk::schema_front(type->value, v);
    const schema_walk::CompiledFields& compiled = *front.compiled;
    if (compiled.untagged == 0 || compiled.untagged > kMaxValueFields || !compiled.tagged_last)
      return;
    value_flexible = front.flexible;
    value_count = compiled.untagged;
    const std::string l2 = line(column + 2);
    for (std::size_t k = 0; k < value_count; ++k) {
      const schema_walk::CompiledField& cf = compiled.fields[k];
      if (cf.tagged || cf.kind == schema_walk::CompiledField::Kind::other ||
          !yaml_plain_name(cf.field->name) || cf.field->name.size() > 1024)
        return;
      value_kinds[k] = cf.kind;
      value_nullable[k] = cf.nullable;
      value_time[k] = cf.time_named;
      if (!value_fields[k].set((k == 0 ? ":" : "") + l2 + std::string(cf.field->name) + ": "))
        return;
    }
    tagged_count = compiled.fields.size() - value_count;
    if (tagged_count > kMaxTagged || (tagged_count > 0 && !value_flexible)) return;
    for (std::size_t j = 0; j < tagged_count; ++j) {
      const schema_walk::CompiledField& cf = compiled.fields[value_count + j];
      using Kind = schema_walk::CompiledField::Kind;
      const SchemaField& f = *cf.field;
      if (!cf.tagged || f.array || f.tag < 0 || f.tag >= 0x80 || !yaml_plain_name(f.name) ||
          f.name.size() > 1024)
        return;
      switch (f.type) {
        case SchemaType::int8:
          tagged_kinds[j] = Kind::int8, tagged_widths[j] = 1;
          break;
        case SchemaType::int16:
          tagged_kinds[j] = Kind::int16, tagged_widths[j] = 2;
          break;
        case SchemaType::int32:
          tagged_kinds[j] = Kind::int32, tagged_widths[j] = 4;
          break;
        case SchemaType::int64:
          tagged_kinds[j] = Kind::int64, tagged_widths[j] = 8;
          break;
        case SchemaType::boolean:
          tagged_kinds[j] = Kind::boolean, tagged_widths[j] = 1;
          break;
        default:
          return;
      }
      tagged_tags[j] = static_cast<std::uint32_t>(f.tag);
      tagged_time[j] = cf.time_named;
      if (!tagged_fields[j].set(l2 + std::string(f.name) + ": ")) return;
    }
    value_read = true;
  }

  void make(const CoordinatorRecordType& t, std::size_t at) {
    type = &t;
    column = at;
    key_read = false;
    value_for = -1;
    value_read = false;
    tagged_count = 0;
    const std::string l = line(at);
    const std::string l2 = line(at + 2);
    head_fits =
        yaml_as_is(t.snake_name) && head.set(":" + l + "type: " + std::string(t.snake_name) + l +
                                             "type_id: " + std::to_string(t.type) + l + "key");
    if (!head_fits || t.key_version < 0) return;
    const auto version = static_cast<std::uint32_t>(t.key_version);
    const schema_walk::SchemaFront& front = schema_walk::schema_front(t.key, version);
    const schema_walk::CompiledFields& compiled = *front.compiled;
    if (front.flexible || compiled.fields.empty() || compiled.fields.size() > kMaxFields) return;
    field_count = compiled.fields.size();
    for (std::size_t k = 0; k < field_count; ++k) {
      const schema_walk::CompiledField& cf = compiled.fields[k];
      using Kind = schema_walk::CompiledField::Kind;
      if (cf.tagged || cf.time_named || !yaml_plain_name(cf.field->name) ||
          cf.field->name.size() > 1024 || (cf.kind != Kind::string && cf.kind != Kind::int32))
        return;
      is_string[k] = cf.kind == Kind::string;
      if (!fields[k].set((k == 0 ? ":" : "") + l2 + std::string(cf.field->name) + ": ")) return;
    }
    key_read = tombstone.set(l + "value_version: ~" + l + "value: ~") &&
               value_version.set(l + "value_version: ") && null_value.set(l + "value: ~") &&
               value.set(l + "value");
  }
};

// The value's members' texts (TypeLines::value_read), read as stream_member reads them
// (after the value's version); false where they are not all read so (a null string the
// schema refuses, a varint longer than a byte, a tagged section not empty, bytes left).
// The texts of the tagged fields found follow the untagged ones' (texts[value_count + i],
// of tagged field tagged[i], i < tagged_found).
using ValueTexts = std::array<std::string_view, TypeLines::kMaxValueFields + TypeLines::kMaxTagged>;
bool read_value(const TypeLines& t, std::span<const std::uint8_t> bytes, LazyTimes times,
                ValueTexts& texts, std::array<std::size_t, TypeLines::kMaxTagged>& tagged,
                std::size_t& tagged_found) {
  using Kind = schema_walk::CompiledField::Kind;
  thread_local std::array<TextCache, TypeLines::kMaxValueFields> strings;
  thread_local std::array<TimeCache, TypeLines::kMaxValueFields> time_texts;
  thread_local std::array<std::array<char, kDecimalRoom>, TypeLines::kMaxValueFields> digits;
  tagged_found = 0;
  offset_commit_detail::Cursor in{bytes.data(), bytes.size()};
  in.i16();  // the version
  for (std::size_t k = 0; k < t.value_count && in.ok; ++k) {
    std::int64_t v = 0;
    switch (t.value_kinds[k]) {
      case Kind::int8:
        v = static_cast<std::int8_t>(in.u8());
        break;
      case Kind::int16:
        v = in.i16();
        break;
      case Kind::uint16:
        v = static_cast<std::uint16_t>(in.i16());
        break;
      case Kind::int32:
        v = in.i32();
        break;
      case Kind::int64:
        v = in.i64();
        break;
      case Kind::boolean:
        texts[k] = in.u8() != 0 ? "true" : "false";
        continue;
      case Kind::string: {
        std::int64_t n = 0;
        if (t.value_flexible) {
          const std::uint8_t b = in.u8();
          if (b >= 0x80) return false;
          n = static_cast<std::int64_t>(b) - 1;
        } else {
          n = in.i16();
        }
        if (!in.ok) return false;
        if (n < 0) {
          if (!t.value_nullable[k]) return false;
          texts[k] = "~";
          continue;
        }
        const std::string_view s = in.text(static_cast<std::size_t>(n));
        if (!in.ok) return false;
        texts[k] = strings[k].get(s);
        continue;
      }
      case Kind::other:
        return false;
    }
    if (t.value_time[k]) {
      texts[k] = time_texts[k].get(v, times);
    } else {
      char* const start = digits[k].data();
      texts[k] = std::string_view(start, static_cast<std::size_t>(write_decimal(start, v) - start));
    }
  }
  if (!t.value_flexible) return in.ok && in.left == 0;
  // The tagged section: fields of the value's own tags, each once, of its type's size (what
  // the strict walk writes without throwing), written in schema order after the untagged.
  const std::uint8_t count = in.u8();
  if (!in.ok || count > t.tagged_count) return false;
  std::array<const std::uint8_t*, TypeLines::kMaxTagged> found{};
  for (std::uint8_t i = 0; i < count; ++i) {
    const std::uint8_t tag = in.u8();
    const std::uint8_t size = in.u8();
    if (!in.ok || !in.take(size)) return false;
    std::size_t j = 0;
    while (j < t.tagged_count && t.tagged_tags[j] != tag)
      ++j;
    if (j == t.tagged_count || found[j] || size != t.tagged_widths[j]) return false;
    found[j] = in.p;
    in.advance(size);
  }
  if (in.left != 0) return false;
  thread_local std::array<TimeCache, TypeLines::kMaxTagged> tagged_times;
  thread_local std::array<std::array<char, kDecimalRoom>, TypeLines::kMaxTagged> tagged_digits;
  std::size_t at = t.value_count;
  for (std::size_t j = 0; j < t.tagged_count; ++j) {
    if (!found[j]) continue;
    const std::uint8_t* b = found[j];
    std::int64_t v = 0;
    switch (t.tagged_kinds[j]) {
      case Kind::int8:
        v = static_cast<std::int8_t>(b[0]);
        break;
      case Kind::int16:
        v = static_cast<std::int16_t>((b[0] << 8) | b[1]);
        break;
      case Kind::int32:
        v = static_cast<std::int32_t>(load_be32(b));
        break;
      case Kind::int64:
        v = static_cast<std::int64_t>(load_be64(b));
        break;
      default:  // boolean
        texts[at] = b[0] != 0 ? "true" : "false";
        tagged[at - t.value_count] = j;
        ++at;
        continue;
    }
    if (t.tagged_time[j]) {
      texts[at] = tagged_times[j].get(v, times);
    } else {
      char* const start = tagged_digits[j].data();
      texts[at] =
          std::string_view(start, static_cast<std::size_t>(write_decimal(start, v) - start));
    }
    tagged[at - t.value_count] = j;
    ++at;
  }
  tagged_found = at - t.value_count;
  return true;
}

}  // namespace

YamlHead begin_coordinator_yaml(YamlEmitter& e, const CheckedCoordinatorRecord& r,
                                LazyTimes times) {
  thread_local std::array<TypeLines, 64> types;
  thread_local std::array<TextCache, TypeLines::kMaxFields> texts;
  const CoordinatorRecordType& type = *r.type;
  TypeLines& t = types[static_cast<std::size_t>(type.type) & 63];
  const std::size_t column = e.value_map_column();
  if (t.type != &type || t.column != column) t.make(type, column);
  if (!t.head_fits) return YamlHead::none;
  if (t.key_read) {
    // The key's fields: int16 length and bytes, or int32 (after the key's type).
    thread_local std::array<std::string_view, TypeLines::kMaxFields> values;
    std::array<std::int32_t, TypeLines::kMaxFields> integers{};
    const std::uint8_t* p = r.key.data();
    std::size_t left = r.key.size();
    bool ok = left >= 2;
    if (ok) p += 2, left -= 2;
    for (std::size_t k = 0; ok && k < t.field_count; ++k) {
      if (t.is_string[k]) {
        if (left < 2) {
          ok = false;
          break;
        }
        const auto n = static_cast<std::int16_t>((p[0] << 8) | p[1]);
        if (n < 0 || static_cast<std::size_t>(n) > left - 2) {
          ok = false;
          break;
        }
        values[k] =
            std::string_view(reinterpret_cast<const char*>(p + 2), static_cast<std::size_t>(n));
        p += 2 + n;
        left -= 2 + static_cast<std::size_t>(n);
      } else {
        if (left < 4) {
          ok = false;
          break;
        }
        integers[k] = static_cast<std::int32_t>(load_be32(p));
        p += 4;
        left -= 4;
      }
    }
    if (ok && left == 0) {
      std::size_t n = kHead + (TypeLines::kMaxFields + 3) * kPiece + 2 * kDecimalRoom;
      for (std::size_t k = 0; k < t.field_count; ++k) {
        if (t.is_string[k]) values[k] = texts[k].get(values[k]);
        n += values[k].size() + 32;
      }
      // The value read here too (its texts first: the room is known before writing).
      const bool has_value = r.value && r.value_version;
      bool value_read = false;
      // The thread's (no per-record zeroing of the views): each is set before it is read.
      thread_local ValueTexts value_texts;
      std::array<std::size_t, TypeLines::kMaxTagged> tagged;
      std::size_t tagged_found = 0;
      if (has_value && !coordinator_value_edited(r)) {
        if (t.value_for != *r.value_version) t.make_value(*r.value_version);
        value_read =
            t.value_read && read_value(t, *r.value, times, value_texts, tagged, tagged_found);
        if (value_read)
          for (std::size_t k = 0; k < t.value_count + tagged_found; ++k)
            n += kPiece + 32 + value_texts[k].size();
      }
      char* line = nullptr;
      char* q = t.head.put(e.value_room(n), line);
      for (std::size_t k = 0; k < t.field_count; ++k) {
        q = t.fields[k].put(q, line);
        q = t.is_string[k] ? put(q, values[k]) : put_integer(q, integers[k]);
      }
      if (!r.value_version && !r.value) {
        q = t.tombstone.put(q, line);
        e.value_map_written(q, line);
        return YamlHead::whole;
      }
      q = t.value_version.put(q, line);
      if (r.value_version) {
        q = put_integer(q, *r.value_version);
      } else {
        *q++ = '~';
      }
      if (!has_value) {
        q = t.null_value.put(q, line);
        e.value_map_written(q, line);
        return YamlHead::whole;
      }
      q = t.value.put(q, line);
      if (!value_read) {
        e.value_map_begun(q, line, 9);
        return YamlHead::value_next;
      }
      for (std::size_t k = 0; k < t.value_count; ++k) {
        q = t.value_fields[k].put(q, line);
        q = put(q, value_texts[k]);
      }
      for (std::size_t i = 0; i < tagged_found; ++i) {
        q = t.tagged_fields[tagged[i]].put(q, line);
        q = put(q, value_texts[t.value_count + i]);
      }
      e.value_map_written(q, line);
      return YamlHead::whole;
    }
  }
  char* line = nullptr;
  char* const end = t.head.put(e.value_room(kHead), line);
  e.value_map_begun(end, line, 5);
  return YamlHead::key_next;
}

}  // namespace kepoch::report::detail
