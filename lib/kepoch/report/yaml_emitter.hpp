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
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/report/value.hpp"

namespace kepoch::report::detail {

class YamlEmitter {
 public:
  // Appends to `out`.
  explicit YamlEmitter(std::string& out) : out_(out) {}

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

  std::string& out_;
  std::size_t col_ = 0;
  std::vector<Group> groups_;
  std::size_t cur_indent_ = 0;
  std::size_t doc_count_ = 0;
  bool long_key_next_ = false;  // yaml-cpp's local MapKeyFormat(LongKey), set by a long string
};

// yaml-cpp's IsValidPlainScalar for a block context: whether `s` may be written unquoted.
bool yaml_plain_ok(std::string_view s);
// Appends `s` as yaml-cpp's WriteDoubleQuotedString writes it.
void append_yaml_double_quoted(std::string& out, std::string_view s);

// A Value as kepoch has always emitted it (render.cpp): strings a reader would take for
// something else (true, 12, " x") double-quoted, empty arrays and objects in flow style.
void emit_yaml(YamlEmitter& e, const Value& v);
// Whether a string value is double-quoted on purpose (see emit_yaml).
bool needs_quotes(std::string_view s);

}  // namespace kepoch::report::detail
