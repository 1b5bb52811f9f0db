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
//     with yaml-cpp's escapes ("\x01", "\ufeff", invalid UTF-8 as U+FFFD); a lone CR or DEL
//     or invalid UTF-8 stays plain, as in yaml-cpp.
// tests/unit/report/test_yaml_emitter.cpp holds it to yaml-cpp on random documents.
// Not part of the library's interface.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/report/value.hpp"

namespace kepoch::report::detail {

class YamlEmitter {
 public:
  // Appends to `out`. Every line after the first starts with `base_indent` more spaces: the
  // text goes straight into place inside a bigger document (a list's element), not indented
  // into place by a second copy.
  explicit YamlEmitter(std::string& out, std::size_t base_indent = 0)
      : out_(out), base_indent_(base_indent) {}
  // Forgets the document written so far (even one cut short by an exception): the next node
  // starts a new one at column 0.
  void reset();

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

  // Member lines: "\n", a map's key column in spaces (key_column(), base indent included), a
  // plain simple key (at most 1024 bytes), ": ". A writer renders them once per key and column
  // and writes members through them, without the per-node decisions of string() and the rest.
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
  void scalar_member(std::string_view line, std::string_view text);
  // Members of the current map (at_next_simple_key()): lines[i], then values[i].
  void integer_members(std::span<const std::string> lines, std::span<const std::int64_t> values);

  // Whether begin_map() here, then a plain simple key, would put the key where the first of
  // member lines rendered at new_map_key_column() puts it: the map as the next item of a
  // block sequence ("- key: "), or as an empty document's node (column 0).
  bool can_begin_map_members() const;
  // The key column of a map begun here, base indent included.
  std::size_t new_map_key_column() const {
    return base_indent_ + (groups_.empty() ? 0 : cur_indent_ + kIndent);
  }
  // begin_map() and its first members (can_begin_map_members()); lines rendered at
  // new_map_key_column().
  void begin_map_members(std::span<const std::string> lines, std::span<const std::int64_t> values);

 private:
  enum class Node { scalar, flow, block_seq, block_map };
  struct Group {
    bool map = false;
    bool flow = false;
    std::size_t child_count = 0;
    bool long_key = false;
  };
  static constexpr std::size_t kIndent = 2;

  void begin_group(bool map, bool flow);
  void end_group(bool map);
  void prepare(Node child);
  void started_node();
  void write(std::string_view s);
  void write_inline(std::string_view s);  // text without a line break
  void indent_to(std::size_t n);
  void space_or_indent_to(bool require_space, std::size_t n);
  // Member lines and values into the current map (see integer_members); the first line from
  // its byte `skip` on, with "- " at its byte `dash_at` (after the skip) unless npos.
  void write_members(std::span<const std::string> lines, std::span<const std::int64_t> values,
                     std::size_t skip, std::size_t dash_at);

  std::string& out_;
  std::size_t base_indent_ = 0;
  std::size_t col_ = 0;  // in the document, base indent not counted
  std::vector<Group> groups_;
  std::size_t cur_indent_ = 0;
  std::size_t doc_count_ = 0;
  bool long_key_next_ = false;  // yaml-cpp's local MapKeyFormat(LongKey), set by a long string
};

// yaml-cpp's IsValidPlainScalar for a block context: whether `s` may be written unquoted.
bool yaml_plain_ok(std::string_view s);
// Whether emit_yaml writes the string `s` as it is: !needs_quotes(s) && yaml_plain_ok(s).
bool yaml_as_is(std::string_view s);
// Appends `s` as yaml-cpp's WriteDoubleQuotedString writes it.
void append_yaml_double_quoted(std::string& out, std::string_view s);

// A Value as kepoch has always emitted it (render.cpp): strings a reader would take for
// something else (true, 12, " x") double-quoted, empty arrays and objects in flow style.
void emit_yaml(YamlEmitter& e, const Value& v);
// Whether a string value is double-quoted on purpose (see emit_yaml).
bool needs_quotes(std::string_view s);

}  // namespace kepoch::report::detail
