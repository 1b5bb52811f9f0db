#include "kepoch/report/yaml_coordinator.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

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

// The n bytes of s at p (room for max(n, 32) there), short ones in fixed-size copies.
[[gnu::always_inline]] inline char* put(char* p, std::string_view s) {
  const std::size_t n = s.size();
  if (n >= 16 && n <= 32) {
    std::memcpy(p, s.data(), 16);
    std::memcpy(p + n - 16, s.data() + n - 16, 16);
  } else if (n >= 8 && n < 16) {
    std::memcpy(p, s.data(), 8);
    std::memcpy(p + n - 8, s.data() + n - 8, 8);
  } else if (n >= 4 && n < 8) {
    std::memcpy(p, s.data(), 4);
    std::memcpy(p + n - 4, s.data() + n - 4, 4);
  } else {
    std::memcpy(p, s.data(), n);
  }
  return p + n;
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

bool begin_coordinator_yaml(YamlEmitter& e, const CoordinatorRecordType& type) {
  // ":" L "type: <snake_name>" L "type_id: <type>" L "key", per type and column.
  struct Head {
    const CoordinatorRecordType* type = nullptr;
    std::size_t column = 0;
    bool fits = false;
    Piece<kHead> text;
  };
  thread_local std::array<Head, 64> heads;
  Head& head = heads[static_cast<std::size_t>(type.type) & 63];
  const std::size_t column = e.value_map_column();
  if (head.type != &type || head.column != column) {
    head.type = &type;
    head.column = column;
    const std::string l = line(column);
    head.fits = yaml_as_is(type.snake_name) &&
                head.text.set(":" + l + "type: " + std::string(type.snake_name) + l +
                              "type_id: " + std::to_string(type.type) + l + "key");
  }
  if (!head.fits) return false;
  char* line_start = nullptr;
  char* const end = head.text.put(e.value_room(kHead), line_start);
  e.value_map_begun(end, line_start, 5);
  return true;
}

}  // namespace kepoch::report::detail
