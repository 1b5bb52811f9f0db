#pragma once
// YAML text written directly, byte for byte what yaml-cpp 0.7's YAML::Emitter writes for the
// same events with kepoch's settings (block style, 2-space indent, "~" for null, true/false,
// doubles at max_digits10), so `-o yaml` keeps its output while costing what `-o json`
// costs: yaml-cpp decides plain or quoted with a regex per character and writes through an
// ostream, which made YAML 8-49x slower than JSON. yaml-cpp stays for reading YAML.
//
// Ported from yaml-cpp 0.7.0 (src/emitter.cpp, emitterstate.cpp, emitterutils.cpp, exp.h):
// only what kepoch uses: block maps and sequences, empty ones in flow style ("[]", "{}"),
// scalars (no anchors, tags, comments, literal or single-quoted strings). Its quirks are
// kept, each on purpose, because they are today's output:
//   - a map key longer than 1024 bytes is written as a long key ("? key" then ": value");
//   - a sequence inside a sequence starts on the line after its "-";
//   - a string is plain unless yaml-cpp's IsValidPlainScalar refuses it, else double-quoted
//     with yaml-cpp's escapes ("\x01", "\ufeff").
// Where yaml-cpp writes what no YAML reader takes, kepoch does not: a string holding
// ill-formed UTF-8, DEL, a lone CR, NEL, U+2028, U+2029, U+FFFE or U+FFFF is double-quoted
// (yaml-cpp leaves it plain), each ill-formed sequence's maximal subpart written as one
// U+FFFD as `-o json` writes it (nlohmann's replace), DEL, U+2028, U+2029, U+FFFE and U+FFFF
// escaped (yaml-cpp writes them as they are); noncharacters such as U+FDD0 stay as they are
// (yaml-cpp writes U+FFFD), as in JSON.
// tests/unit/report/test_yaml_emitter.cpp holds it to yaml-cpp on random documents.
// Not part of the library's interface.

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/short_copy.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {
struct Scalar;  // object_writer.hpp
}  // namespace kepoch::report

namespace kepoch::report::detail {

class MemberLine;

// The emitter's text on its way to the caller's string, appended at memory speed: the member
// paths store through a pointer into room reserved once (std::string checks its capacity
// and moves its terminator on every append, and cannot be written past its size).
class YamlText {
 public:
  YamlText() { grow(256); }
  const char* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  void clear() { size_ = 0; }
  void resize(std::size_t n) { size_ = n; }  // n <= size()
  // At least n writable bytes at the end; advance(k) makes k of them part of the text.
  char* room(std::size_t n) {
    if (capacity_ - size_ < n) grow(n);
    return data_.get() + size_;
  }
  void advance(std::size_t k) { size_ += k; }
  YamlText& operator+=(std::string_view s) {
    std::memcpy(room(s.size()), s.data(), s.size());
    size_ += s.size();
    return *this;
  }
  YamlText& operator+=(char c) {
    *room(1) = c;
    ++size_;
    return *this;
  }
  void append(std::size_t n, char c) {
    std::memset(room(n), c, n);
    size_ += n;
  }

 private:
  void grow(std::size_t n);
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

// v's decimal text at p (kDecimalRoom bytes there); returns its end. Most integers of a dump
// have at most four digits (sizes, counts, partitions, -1): written from a table of digit
// pairs without a loop or a call; the rest by std::to_chars, in 32-bit arithmetic while they
// fit.
inline constexpr std::size_t kDecimalRoom = 20;  // an int64's sign and digits
[[gnu::always_inline]] inline char* write_decimal(char* p, std::int64_t v) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  auto u = static_cast<std::uint64_t>(v);
  if (v < 0) {
    *p++ = '-';
    u = 0 - u;
  }
  if (u < 10) {
    *p = static_cast<char>('0' + u);
    return p + 1;
  }
  if (u < 100) {
    std::memcpy(p, kPairs + 2 * u, 2);
    return p + 2;
  }
  if (u < 10000) {
    const auto n = static_cast<std::uint32_t>(u);
    const std::uint32_t high = n / 100;
    const std::uint32_t low = n % 100;
    if (high < 10) {
      *p = static_cast<char>('0' + high);
      std::memcpy(p + 1, kPairs + 2 * low, 2);
      return p + 3;
    }
    std::memcpy(p, kPairs + 2 * high, 2);
    std::memcpy(p + 2, kPairs + 2 * low, 2);
    return p + 4;
  }
  if (u <= 0xFFFFFFFFu)
    return std::to_chars(p, p + kDecimalRoom, static_cast<std::uint32_t>(u)).ptr;
  return std::to_chars(p, p + kDecimalRoom, u).ptr;
}

class YamlEmitter {
 public:
  // An open map or sequence (yaml-cpp's EmitterState::Group, what kepoch uses of it).
  struct Group {
    bool map = false;
    bool flow = false;
    std::size_t child_count = 0;
    bool long_key = false;
  };

  // Appends to `out`, at each flush() (emit_yaml and YamlObjectWriter::end flush). Every line
  // after the first starts with `base_indent` more spaces: the text goes straight into place
  // inside a bigger document (a list's element), not indented into place by a second copy.
  explicit YamlEmitter(std::string& out, std::size_t base_indent = 0)
      : sink_(out), base_indent_(base_indent) {}
  // Forgets the document written so far (even one cut short by an exception, its text not
  // flushed): the next node starts a new one at column 0.
  void reset();
  // Hands the text written since the last flush to `out`: one copy of many members.
  void flush() {
    sink_.append(out_.data(), out_.size());
    out_.clear();
  }

  // `flow`: yaml-cpp's YAML::Flow before the group (kepoch uses it for empty groups only).
  void begin_map(bool flow = false) { begin_group(true, flow); }
  void end_map() { end_group(true); }
  void begin_seq(bool flow = false) { begin_group(false, flow); }
  void end_seq() { end_group(false); }

  // `double_quoted`: YAML::DoubleQuoted before the string; otherwise yaml-cpp's Auto.
  void string(std::string_view s, bool double_quoted = false);
  void integer(std::int64_t v);
  void boolean(bool v);
  void real(double v);
  void null();

  // Member lines (MemberLine, below) let a writer that renders them once per key and column
  // write members without the per-node decisions of string() and the rest.
  //
  // Whether the next node is a key of a block map that has members already, and a plain
  // simple key would be written as a member line.
  bool at_next_simple_key() const {
    if (groups_.empty() || long_key_next_) return false;
    const Group& g = groups_.back();
    return g.map && !g.flow && !g.long_key && g.child_count > 0 && g.child_count % 2 == 0;
  }
  // The column of the current map's keys in the text, base indent included.
  std::size_t key_column() const { return base_indent_ + cur_indent_; }
  // A member of the current map (at_next_simple_key()): its member line, then a scalar's final
  // text (an integer, a string written as it is, "~", true, false).
  void scalar_member(const MemberLine& line, std::string_view text);
  // Members of the current map (at_next_simple_key()): lines[i], then values[i].
  void integer_members(std::span<const MemberLine> lines, std::span<const std::int64_t> values);
  // Members of the current map (at_next_simple_key()): lines[i], then values[i] as
  // scalar_member writes it, while values[i] is an integer, a null ("~") or a string or time
  // text written as it is (yaml_as_is); returns how many were written (the next one, a
  // string to be double-quoted, is the caller's).
  std::size_t scalar_members(std::span<const MemberLine> lines, std::span<const Scalar> values);
  // A key of the current map (at_next_simple_key()) whose value follows by the calls that
  // write a map's value (block_begin, begin_map, string, ...): its member line without the
  // ": " (the value's own call writes the ':'), as string(key) writes it.
  void key_member(const MemberLine& line);

  // Where begin_map() here, then a plain simple key, would put the key: somewhere member
  // lines do not know (none), at an empty document's column 0, or after the "- " of a block
  // sequence's first item (at a line's start) or next item (after a line break).
  enum class MapStart { none, document, first_item, next_item };
  MapStart map_start() const;
  // The key column of a map begun here, base indent included.
  std::size_t new_map_key_column() const {
    return base_indent_ + (groups_.empty() ? 0 : cur_indent_ + kIndent);
  }
  // What begin_map() and a member line at new_map_key_column() write at `start` (not none).
  std::string first_line(std::string_view member_line, MapStart start) const;
  // begin_map() and its first members (map_start() is not none): lines[0] from first_line(),
  // the rest member lines at new_map_key_column().
  void begin_map_members(std::span<const MemberLine> lines, std::span<const std::int64_t> values);

  // The calls above made inline for a group's insides: a coordinator record's sink makes a
  // few dozen per record, and the general calls' per-byte writes and per-call decisions were
  // most of its cost. The same text and the same state as string(), begin_map() and the rest,
  // for what they cover: a key is simple (at most 1024 bytes) and comes as its final text
  // (plain, or double-quoted by the caller), a scalar likewise; a group is begun as a value or
  // an item, never as a key. They never flush, so what they wrote can be taken back.
  //
  // Whether the next node may be written by them: inside a group, no long key under way.
  bool block_ready() const {
    return !groups_.empty() && !long_key_next_ && !groups_.back().long_key;
  }
  void block_key(std::string_view text);  // a key of the current map
  // block_key of the n bytes at `text`, which has N readable (a padded name, a literal):
  // copied as N, a fixed-size copy (no call).
  template <std::size_t N>
  [[gnu::always_inline]] void block_key_copy(const char* text, std::size_t n) {
    Group& g = groups_.back();
    char* const start = out_.room(kLineRoom + 1 + base_indent_ + cur_indent_ + N);
    char* p = g.child_count > 0 ? line_to(start, cur_indent_) : pad_to(start, cur_indent_);
    std::memcpy(p, text, N);
    col_ += n;
    out_.advance(static_cast<std::size_t>(p - start) + n);
    ++g.child_count;
    long_key_next_ = false;
  }
  void block_scalar(std::string_view text);  // a value of the current map, or an item
  void block_begin(bool map, bool flow);
  // block_scalar of a map's value (a key before it).
  [[gnu::always_inline]] void block_value(std::string_view text) {
    Group& g = groups_.back();
    char* const start = out_.room(2 + 32 + text.size());
    std::memcpy(start, ": ", 2);
    col_ += 2;
    // No spaces to the value's indent: the key (at least one byte) and ": " are past it.
    char* p = put_text(start + 2, text);
    col_ += text.size();
    out_.advance(static_cast<std::size_t>(p - start));
    ++g.child_count;  // now even; long_key is false (block_ready, simple keys)
    long_key_next_ = false;
  }
  [[gnu::always_inline]] void block_end(bool map) {
    // The group's fields read one by one, as they were stored: a copy of the whole Group
    // (one 16-byte load of what byte and word stores just wrote) waits for those stores.
    const Group& g = groups_.back();
    const std::size_t children = g.child_count;
    const bool flow = g.flow;
    groups_.pop_back();
    long_key_next_ = false;
    if (children > 0 && !flow) {
      cur_indent_ -= kIndent;
      return;
    }
    // end_group of an empty group, written in flow style (a flow one here is empty).
    char* const start = out_.room(cur_indent_ + 2);
    char* p = start;
    if (col_ < cur_indent_) {
      std::memset(p, ' ', cur_indent_ - col_);
      p += cur_indent_ - col_;
      col_ = cur_indent_;
    }
    if (children == 0) {
      *p++ = map ? '{' : '[';
      ++col_;
    }
    *p++ = map ? '}' : ']';
    ++col_;
    out_.advance(static_cast<std::size_t>(p - start));
    cur_indent_ -= kIndent;
  }
  // The emitter's state and text at a point inside a group (block_ready), to go back to
  // (take_back) when what was written since is discarded: nothing may have been flushed since
  // (the block calls never flush).
  // Of the current group only what the calls inside it change is kept (its kind stays), read
  // field by field (block_end).
  struct Mark {
    std::size_t size = 0;
    std::size_t col = 0;
    std::size_t cur_indent = 0;
    std::size_t groups = 0;
    std::size_t child_count = 0;
    bool long_key = false;
  };
  Mark mark() const {
    const Group& g = groups_.back();
    return {out_.size(), col_, cur_indent_, groups_.size(), g.child_count, g.long_key};
  }
  void take_back(const Mark& m) {
    out_.resize(m.size);
    col_ = m.col;
    cur_indent_ = m.cur_indent;
    groups_.resize(m.groups);
    groups_.back().child_count = m.child_count;
    groups_.back().long_key = m.long_key;
    long_key_next_ = false;
  }

  // A block map as the value of the current map's key, its text made by the caller (a
  // coordinator record's lines rendered once per record type): what block_begin(true, false),
  // the map's members and, for value_map_written, block_end write, the same text and state.
  // Only at_map_value(): block_ready, a key of a block map just written (its value next).
  bool at_map_value() const {
    const Group& g = groups_.back();
    return g.map && !g.flow && g.child_count % 2 == 1;
  }
  // The column of the map's keys in the text, base indent included: its member lines are
  // "\n" and that many spaces (block_begin writes ':' before the first).
  std::size_t value_map_column() const { return base_indent_ + cur_indent_ + kIndent; }
  // At least n writable bytes where the value's text goes (its ':' first).
  char* value_room(std::size_t n) { return out_.room(n); }
  // The map written whole, from value_room() to `end`; `line` is where its last line begins
  // (after its "\n"). The parent map's member is complete.
  void value_map_written(const char* end, const char* line) {
    col_ = static_cast<std::size_t>(end - line) - base_indent_;
    out_.advance(static_cast<std::size_t>(end - (out_.data() + out_.size())));
    ++groups_.back().child_count;  // now even: long_key false
    groups_.back().long_key = false;
    long_key_next_ = false;
  }
  // The map begun and its first members written, from value_room() to `end`: `children`
  // keys and values (a key last: its value next, written by the block calls), `line` where
  // its last line begins; the map stays open (block_end closes it).
  void value_map_begun(const char* end, const char* line, std::size_t children) {
    col_ = static_cast<std::size_t>(end - line) - base_indent_;
    out_.advance(static_cast<std::size_t>(end - (out_.data() + out_.size())));
    ++groups_.back().child_count;
    groups_.back().long_key = false;
    long_key_next_ = false;
    cur_indent_ += kIndent;
    groups_.push_back(Group{true, false, children, false});
  }

 private:
  enum class Node { scalar, flow, block_seq, block_map };
  static constexpr std::size_t kIndent = 2;
  static constexpr std::size_t kFlushAt = std::size_t{64} << 10;

  void begin_group(bool map, bool flow);
  void end_group(bool map);
  void prepare(Node child);
  void started_node();
  void write(std::string_view s);
  void write_inline(std::string_view s);  // text without a line break
  void indent_to(std::size_t n);
  void space_or_indent_to(bool require_space, std::size_t n);
  // Lines and values into the current map (integer_members, begin_map_members).
  void write_members(std::span<const MemberLine> lines, std::span<const std::int64_t> values);
  // "\n", the base indent and spaces to column n, at p (room for kLineRoom there); the end.
  static constexpr std::size_t kLineRoom = 64;
  [[gnu::always_inline]] char* line_to(char* p, std::size_t n) {
    static constexpr char kLine[kLineRoom + 1] =
        "\n                                                               ";
    if (base_indent_ + n < kLineRoom) {
      std::memcpy(p, kLine, kLineRoom);  // a fixed-size copy: no call
    } else {
      *p = '\n';
      std::memset(p + 1, ' ', base_indent_ + n);
    }
    col_ = n;
    return p + 1 + base_indent_ + n;
  }
  // Spaces at p to column n from col_.
  // Room for max(32, n - col_) there: up to 32 spaces are one fixed-size store (no call).
  [[gnu::always_inline]] char* pad_to(char* p, std::size_t n) {
    if (col_ >= n) return p;
    if (n - col_ <= 32)
      std::memset(p, ' ', 32);
    else
      std::memset(p, ' ', n - col_);
    p += n - col_;
    col_ = n;
    return p;
  }
  // The n bytes of s at p, n <= 32 in fixed-size copies (room for 32 there), and the end.
  [[gnu::always_inline]] static char* put_text(char* p, std::string_view s) {
    return put_short(p, s);
  }

  std::string& sink_;
  YamlText out_;        // not yet flushed to sink_
  std::string quoted_;  // a double-quoted string's text, on its way to out_
  std::size_t base_indent_ = 0;
  std::size_t col_ = 0;  // in the document, base indent not counted
  std::vector<Group> groups_;
  std::size_t cur_indent_ = 0;
  std::size_t doc_count_ = 0;
  bool long_key_next_ = false;  // yaml-cpp's local MapKeyFormat(LongKey), set by a long string
};

// Emitter::PrepareNode for a group (a value or an item: block calls), StartedNode and
// begin_group's state.
inline void YamlEmitter::block_begin(bool map, bool flow) {
  Group& g = groups_.back();
  const std::size_t cur = cur_indent_;
  char* const start = out_.room(2 * (kLineRoom + 1 + base_indent_ + cur) + 4);
  char* p = start;
  if (g.map) {  // BlockMapPrepareSimpleKeyValue
    *p++ = ':';
    ++col_;
    if (flow) {
      *p++ = ' ';
      ++col_;
      p = pad_to(p, cur + kIndent);
    } else {
      p = line_to(p, 0);
    }
  } else {  // BlockSeqPrepareNode
    p = g.child_count > 0 ? line_to(p, cur) : pad_to(p, cur);
    *p++ = '-';
    ++col_;
    if (flow)
      p = pad_to(p, cur + kIndent);
    else if (!map)
      p = line_to(p, 0);
  }
  out_.advance(static_cast<std::size_t>(p - start));
  ++g.child_count;
  if (g.child_count % 2 == 0) g.long_key = false;
  long_key_next_ = false;
  cur_indent_ += kIndent;
  groups_.push_back(Group{map, flow, 0, false});
}

// BlockMapPrepareSimpleKey, the key, StartedNode.
inline void YamlEmitter::block_key(std::string_view text) {
  Group& g = groups_.back();
  char* const start = out_.room(kLineRoom + 1 + base_indent_ + cur_indent_ + 32 + text.size());
  char* p = g.child_count > 0 ? line_to(start, cur_indent_) : pad_to(start, cur_indent_);
  p = put_text(p, text);
  col_ += text.size();
  out_.advance(static_cast<std::size_t>(p - start));
  ++g.child_count;  // now odd: long_key unchanged
  long_key_next_ = false;
}

// BlockMapPrepareSimpleKeyValue or BlockSeqPrepareNode, the scalar, StartedNode.
inline void YamlEmitter::block_scalar(std::string_view text) {
  Group& g = groups_.back();
  const std::size_t cur = cur_indent_;
  char* const start = out_.room(kLineRoom + 1 + base_indent_ + cur + 4 + 32 + text.size());
  char* p = start;
  if (g.map) {
    std::memcpy(p, ": ", 2);
    p += 2;
    col_ += 2;
  } else {
    p = g.child_count > 0 ? line_to(p, cur) : pad_to(p, cur);
    *p++ = '-';
    ++col_;
  }
  p = pad_to(p, cur + kIndent);
  p = put_text(p, text);
  col_ += text.size();
  out_.advance(static_cast<std::size_t>(p - start));
  ++g.child_count;
  if (g.child_count % 2 == 0) g.long_key = false;
  long_key_next_ = false;
}

// A member line: "\n", a map's key column in spaces (YamlEmitter::key_column(), base indent
// included), a plain simple key (at most 1024 bytes), ": "; or a map's first line
// (YamlEmitter::first_line). Held zero-padded in a fixed-size array, so that writing it is
// one copy of a known size, inline (what follows it overwrites the padding); a line longer
// than that is not made one (its member goes through the general path).
class MemberLine {
 public:
  static constexpr std::size_t kCopy = 48;  // the bytes copy_to writes
  // The line `text` whose key is `key_size` bytes; nullopt when it does not fit.
  static std::optional<MemberLine> make(std::string_view text, std::size_t key_size);
  std::string_view text() const { return {bytes_.data(), size_}; }
  std::size_t key_size() const { return key_size_; }
  // Writes the line at p (kCopy bytes there); returns its end.
  char* copy_to(char* p) const {
    std::memcpy(p, bytes_.data(), kCopy);
    return p + size_;
  }

 private:
  MemberLine() = default;
  std::array<char, kCopy> bytes_{};
  std::uint8_t size_ = 0;
  std::uint8_t key_size_ = 0;
};

inline void YamlEmitter::key_member(const MemberLine& line) {
  Group& g = groups_.back();
  line.copy_to(out_.room(MemberLine::kCopy));
  out_.advance(line.text().size());
  ++g.child_count;  // now odd: long_key unchanged (false: a simple key)
  col_ = cur_indent_ + line.key_size();
  long_key_next_ = false;
}

// yaml-cpp's IsValidPlainScalar for a block context: whether `s` may be written unquoted.
bool yaml_plain_ok(std::string_view s);
// yaml_plain_ok of a name of [a-z0-9_] only (a schema's field name): true but for "" and
// "null" (a null's text), as no such name is an indicator or ends in ':'.
inline bool yaml_plain_name(std::string_view name) {
  return !name.empty() && name != "null";
}
// Whether emit_yaml writes the string `s` as it is: !needs_quotes(s) && yaml_plain_ok(s).
bool yaml_as_is(std::string_view s);
// Appends `s` as yaml-cpp's WriteDoubleQuotedString writes it.
void append_yaml_double_quoted(std::string& out, std::string_view s);

// A Value as kepoch has always emitted it (render.cpp): strings a reader would take for
// something else (true, 12, " x") double-quoted, empty arrays and objects in flow style.
// Flushes the emitter.
void emit_yaml(YamlEmitter& e, const Value& v);
// Whether a string value is double-quoted on purpose (see emit_yaml).
bool needs_quotes(std::string_view s);

}  // namespace kepoch::report::detail
