// yaml-cpp 0.7's emitter, ported for kepoch's reports; see yaml_emitter.hpp.
#include "kepoch/report/yaml_emitter.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>

#include "kepoch/report/object_writer.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kepoch::report::detail {
namespace {

// ---- which strings yaml-cpp writes plain (emitterutils.cpp IsValidPlainScalar, exp.h) ----
//
// yaml-cpp matches its regexes over a StringCharSource of the string's c_str(): at the end
// of the string a regex that checks validity fails, one that does not (inside an OR or a NOT)
// sees the terminating '\0'; the empty regex matches only at the end.

struct Source {
  std::string_view s;
  std::size_t i;
  bool valid(std::size_t k = 0) const { return i + k < s.size(); }
  // What an unchecked match sees (c_str()'s terminator at the end).
  char at(std::size_t k) const { return i + k < s.size() ? s[i + k] : '\0'; }
};

bool blank(char c) {
  return c == ' ' || c == '\t';
}

// Exp::Break(): '\n' | "\r\n"; the length matched, or -1. Unchecked inside an OR: '\n' is
// compared with what is there, "\r\n" (a sequence) checks each character's validity.
int break_at(const Source& x, std::size_t k) {
  if (x.at(k) == '\n') return 1;
  if (x.valid(k) && x.s[x.i + k] == '\r' && x.valid(k + 1) && x.s[x.i + k + 1] == '\n') return 2;
  return -1;
}

// Exp::BlankOrBreak().
int blank_or_break_at(const Source& x, std::size_t k) {
  if (blank(x.at(k))) return 1;
  return break_at(x, k);
}

// (BlankOrBreak() | RegEx()) at k: a blank, a break or the end.
bool blank_break_or_end(const Source& x, std::size_t k) {
  return blank_or_break_at(x, k) >= 0 || !x.valid(k);
}

bool in(char c, std::string_view set) {
  return set.find(c) != std::string_view::npos;
}

// Exp::PlainScalar() at the start of the string.
bool plain_start(std::string_view s) {
  const Source x{s, 0};
  if (blank_or_break_at(x, 0) >= 0) return false;
  if (in(x.at(0), std::string_view(",[]{}#&*!|>'\"%@`", 17))) return false;
  if (in(x.at(0), "-?:") && blank_break_or_end(x, 1)) return false;
  return true;
}

// Exp::NotPrintable() at x.
bool not_printable(const Source& x) {
  const auto c = static_cast<unsigned char>(x.at(0));
  if (c == 0 || (c >= 0x01 && c <= 0x08) || c == 0x0B || c == 0x0C || c == 0x7F) return true;
  if (c >= 0x0E && c <= 0x1F) return true;
  if (c == 0xC2) {
    const auto d = static_cast<unsigned char>(x.at(1));
    return (d >= 0x80 && d <= 0x84) || (d >= 0x86 && d <= 0x9F);
  }
  return false;
}

// The block context's `disallowed` regex of IsValidPlainScalar at x.
bool disallowed(const Source& x) {
  if (x.at(0) == ':' && blank_break_or_end(x, 1)) return true;  // EndScalar
  if (const int n = blank_or_break_at(x, 0); n >= 0 && x.valid(static_cast<std::size_t>(n)) &&
                                             x.s[x.i + static_cast<std::size_t>(n)] == '#')
    return true;  // BlankOrBreak + Comment
  if (not_printable(x)) return true;
  if (x.valid(2) && x.s.substr(x.i, 3) == "\xEF\xBB\xBF") return true;  // Utf8_ByteOrderMark
  if (break_at(x, 0) >= 0) return true;
  return x.at(0) == '\t';
}

bool is_null_string(std::string_view s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

// ---- double-quoted strings (emitterutils.cpp) ---------------------------------------------

constexpr int kReplacementCharacter = 0xFFFD;

// One character of a string: its code point and bytes. Well-formed UTF-8 is Unicode's table
// 3-7 (no overlong form, no surrogate, nothing past U+10FFFF); an ill-formed sequence's
// maximal subpart (the bytes up to the first that cannot follow, or a lone byte that cannot
// start one) is one U+FFFD: what nlohmann's error_handler_t::replace writes for `-o json`,
// so that both formats hold the same string. (yaml-cpp's GetNextCodePointAndAdvance differs
// on ill-formed input and turns noncharacters into U+FFFD too.)
struct Utf8Char {
  int cp;
  std::size_t size;
  bool ok;
};

Utf8Char next_utf8(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return {b0, 1, true};
  std::size_t need = 0;
  unsigned lo = 0x80, hi = 0xBF;
  int cp = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
    cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;  // overlong below
    if (b0 == 0xED) hi = 0x9F;  // surrogates above
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
    cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;  // overlong below
    if (b0 == 0xF4) hi = 0x8F;  // past U+10FFFF above
  } else {
    return {kReplacementCharacter, 1, false};
  }
  for (std::size_t k = 1; k <= need; ++k) {
    if (i + k >= s.size()) return {kReplacementCharacter, k, false};
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (b < lo || b > hi) return {kReplacementCharacter, k, false};
    lo = 0x80;
    hi = 0xBF;
    cp = (cp << 6) | (b & 0x3F);
  }
  return {cp, need + 1, true};
}

// Characters past ASCII a YAML reader does not take as they are in a plain scalar: YAML 1.2's
// c-printable leaves out the C1 controls (0x80-0x9F but NEL), U+FFFE and U+FFFF; NEL, U+2028
// and U+2029 are line breaks to a YAML 1.1 reader (PyYAML); U+FEFF is a byte order mark.
bool unprintable_above_ascii(int cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0xFEFF || cp == 0x2028 || cp == 0x2029 ||
         cp == 0xFFFE || cp == 0xFFFF;
}

// Those append_yaml_double_quoted escapes: unprintable_above_ascii's, and U+00A0 as yaml-cpp
// does.
bool escaped_above_ascii(int cp) {
  return (cp >= 0x80 && cp <= 0xA0) || unprintable_above_ascii(cp);
}

// Whether every character of s is one a plain scalar may hold as it is: well-formed UTF-8,
// no control character (DEL and a lone CR among them: a CR is a line break to a reader), none
// of unprintable_above_ascii's.
bool printable_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return false;
      ++i;
      continue;
    }
    const Utf8Char u = next_utf8(s, i);
    if (!u.ok || unprintable_above_ascii(u.cp)) return false;
    i += u.size;
  }
  return true;
}

void append_code_point(std::string& out, int cp) {
  if (cp < 0 || cp > 0x10FFFF) cp = kReplacementCharacter;
  if (cp <= 0x7F) {
    out += static_cast<char>(cp);
  } else if (cp <= 0x7FF) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp <= 0xFFFF) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// WriteDoubleQuoteEscapeSequence, StringEscaping::None.
void append_escape(std::string& out, int cp) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '\\';
  int digits = 8;
  if (cp < 0xFF) {
    out += 'x';
    digits = 2;
  } else if (cp < 0xFFFF) {
    out += 'u';
    digits = 4;
  } else {
    out += 'U';
  }
  for (; digits > 0; --digits)
    out += kHex[(cp >> (4 * (digits - 1))) & 0xF];
}

}  // namespace

namespace {

// Letters, digits and "_.-:+/": no blank, break, indicator, comment or unprintable byte. A
// string of these alone passes every test below but three, so it is decided in one pass
// (ISO times, "create-time", every key).
constexpr std::array<bool, 256> kSimpleByte = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[static_cast<std::size_t>(c)] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                     (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ||
                                     c == ':' || c == '+' || c == '/';
  return t;
}();

bool simple(std::string_view s) {
  for (const char c : s)
    if (!kSimpleByte[static_cast<unsigned char>(c)]) return false;
  return true;
}

}  // namespace

bool yaml_plain_ok(std::string_view s) {
  if (is_null_string(s)) return false;
  if (simple(s)) {
    // The three: a lone "-" or ":" (an indicator then the end: plain_start), a ':' at the
    // end (EndScalar: disallowed).
    return !(s.size() == 1 && (s[0] == '-' || s[0] == ':')) && s.back() != ':';
  }
  if (!plain_start(s)) return false;
  if (s.back() == ' ') return false;
  if (!printable_utf8(s)) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (disallowed(Source{s, i})) return false;
  return true;
}

void append_yaml_double_quoted(std::string& out, std::string_view s) {
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    const Utf8Char u = next_utf8(s, i);
    const int cp = u.cp;
    i += u.size;
    switch (cp) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (cp < 0x20 || cp == 0x7F || escaped_above_ascii(cp))
          append_escape(out, cp);
        else
          append_code_point(out, cp);
    }
  }
  out += '"';
}

// ---- the emitter (emitter.cpp, emitterstate.cpp) ------------------------------------------

void YamlText::grow(std::size_t n) {
  const std::size_t want = std::max({capacity_ * 2, size_ + n, std::size_t{256}});
  auto bigger = std::make_unique_for_overwrite<char[]>(want);
  if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_);
  data_ = std::move(bigger);
  capacity_ = want;
}

void YamlEmitter::reset() {
  out_.clear();
  col_ = 0;
  groups_.clear();
  cur_indent_ = 0;
  long_key_next_ = false;
}

// Every write is one byte (":", "-", " ", "~", a bracket, a line break) but scalars'
// (write_inline); a line break is followed by the base indent.
void YamlEmitter::write(std::string_view s) {
  out_ += s[0];
  if (s[0] == '\n') {
    out_.append(base_indent_, ' ');
    col_ = 0;
  } else {
    ++col_;
  }
}

void YamlEmitter::write_inline(std::string_view s) {
  out_ += s;
  col_ += s.size();
}

void YamlEmitter::indent_to(std::size_t n) {
  if (col_ < n) {
    out_.append(n - col_, ' ');
    col_ = n;
  }
}

void YamlEmitter::space_or_indent_to(bool require_space, std::size_t n) {
  if (col_ > 0 && require_space) write(" ");
  indent_to(n);
}

// Emitter::PrepareNode: what goes before a node in its parent (no anchors, tags, aliases or
// comments, so HasBegunNode and HasBegunContent are always false).
void YamlEmitter::prepare(Node child) {
  const bool flowish = child == Node::scalar || child == Node::flow;
  if (groups_.empty()) {  // PrepareTopNode (one document)
    if (flowish) space_or_indent_to(false, 0);
    return;
  }
  Group& g = groups_.back();
  const std::size_t cur = cur_indent_;
  const std::size_t next = cur + kIndent;
  if (!g.map) {  // BlockSeqPrepareNode
    if (g.child_count > 0) write("\n");
    indent_to(cur);
    write("-");
    if (flowish)
      space_or_indent_to(false, next);
    else if (child == Node::block_seq)
      write("\n");
    return;
  }
  if (g.child_count % 2 == 0) {  // a key
    if (long_key_next_ || child == Node::block_seq || child == Node::block_map) g.long_key = true;
    if (g.long_key) {  // BlockMapPrepareLongKey
      if (g.child_count > 0) write("\n");
      indent_to(cur);
      write("?");
      if (flowish) space_or_indent_to(true, cur + 1);
    } else {  // BlockMapPrepareSimpleKey
      if (g.child_count > 0) write("\n");
      if (flowish) space_or_indent_to(false, cur);
    }
  } else if (g.long_key) {  // BlockMapPrepareLongKeyValue
    write("\n");
    indent_to(cur);
    write(":");
    space_or_indent_to(true, cur + 1);
  } else {  // BlockMapPrepareSimpleKeyValue
    write(":");
    if (flowish)
      space_or_indent_to(true, next);
    else
      write("\n");
  }
}

// EmitterState::StartedNode.
void YamlEmitter::started_node() {
  if (groups_.empty()) {
    ++doc_count_;
    return;
  }
  Group& g = groups_.back();
  ++g.child_count;
  if (g.child_count % 2 == 0) g.long_key = false;
}

void YamlEmitter::begin_group(bool map, bool flow) {
  prepare(flow ? Node::flow : map ? Node::block_map : Node::block_seq);
  long_key_next_ = false;  // local settings move into the group
  started_node();
  cur_indent_ += groups_.empty() ? 0 : kIndent;
  groups_.push_back(Group{map, flow, 0, false});
}

// EmitEndSeq / EmitEndMap: an empty group is written in flow style.
void YamlEmitter::end_group(bool map) {
  Group& g = groups_.back();
  const bool was_flow = g.flow;
  if (g.child_count == 0) g.flow = true;
  if (g.flow) {
    indent_to(cur_indent_);
    if (!was_flow || g.child_count == 0) write(map ? "{" : "[");
    write(map ? "}" : "]");
  }
  groups_.pop_back();
  cur_indent_ -= groups_.empty() ? 0 : kIndent;
  long_key_next_ = false;
  // An element of millions of records is not held twice: the text goes on at a map's end
  // once it is this big (any time is right: flushing only moves text on, in order).
  if (out_.size() >= kFlushAt) flush();
}

void YamlEmitter::string(std::string_view s, bool double_quoted) {
  const bool plain = !double_quoted && yaml_plain_ok(s);
  if (s.size() > 1024) long_key_next_ = true;
  prepare(Node::scalar);
  if (plain) {
    write_inline(s);  // a plain scalar holds no line break (yaml_plain_ok)
  } else {
    // A double-quoted string holds no newline: the column moves by its length.
    quoted_.clear();
    append_yaml_double_quoted(quoted_, s);
    out_ += quoted_;
    col_ += quoted_.size();
  }
  started_node();
  long_key_next_ = false;
}

std::optional<MemberLine> MemberLine::make(std::string_view text, std::size_t key_size) {
  if (text.size() > kCopy) return std::nullopt;
  MemberLine line;
  std::memcpy(line.bytes_.data(), text.data(), text.size());
  line.size_ = static_cast<std::uint8_t>(text.size());
  line.key_size_ = static_cast<std::uint8_t>(key_size);  // less than the line's size
  return line;
}

namespace {

// Copies n <= 32 bytes as two fixed-size copies that may overlap (no call).
void copy_short(char* p, const char* s, std::size_t n) {
  if (n >= 16) {
    std::memcpy(p, s, 16);
    std::memcpy(p + n - 16, s + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(p, s, 8);
    std::memcpy(p + n - 8, s + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(p, s, 4);
    std::memcpy(p + n - 4, s + n - 4, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i)
      p[i] = s[i];
  }
}

}  // namespace

// BlockMapPrepareSimpleKey, the plain key, BlockMapPrepareSimpleKeyValue (":", a space, the
// key being at least one byte past the value's indent), the scalar: one append when short.
void YamlEmitter::scalar_member(const MemberLine& line, std::string_view text) {
  char* const start = out_.room(MemberLine::kCopy + text.size());
  char* const p = line.copy_to(start);
  if (text.size() <= 32)
    copy_short(p, text.data(), text.size());
  else
    std::memcpy(p, text.data(), text.size());
  out_.advance(static_cast<std::size_t>(p - start) + text.size());
  groups_.back().child_count += 2;
  col_ = cur_indent_ + line.key_size() + 2 + text.size();
}

// What string(key) and integer(value) write there.
void YamlEmitter::integer_members(std::span<const MemberLine> lines,
                                  std::span<const std::int64_t> values) {
  write_members(lines, values);
}

YamlEmitter::MapStart YamlEmitter::map_start() const {
  if (long_key_next_) return MapStart::none;
  // PrepareTopNode writes nothing before a block map, BlockMapPrepareSimpleKey nothing before
  // the first key at column 0.
  if (groups_.empty()) return col_ == 0 ? MapStart::document : MapStart::none;
  // BlockSeqPrepareNode: a line break after the sequence's last item, the indent, "-"; then
  // BlockMapPrepareSimpleKey indents the key past it by one.
  const Group& g = groups_.back();
  if (g.map || g.flow) return MapStart::none;
  if (g.child_count > 0) return MapStart::next_item;
  return col_ == 0 ? MapStart::first_item : MapStart::none;
}

std::string YamlEmitter::first_line(std::string_view member_line, MapStart start) const {
  std::string line(member_line);
  if (start != MapStart::document) {  // "- " in the last two columns of the key's indent
    line.replace(1 + new_map_key_column() - kIndent, kIndent, "- ");
  }
  // At a line's start: no line break, and the base indent is there already.
  if (start != MapStart::next_item) line.erase(0, 1 + base_indent_);
  return line;
}

void YamlEmitter::begin_map_members(std::span<const MemberLine> lines,
                                    std::span<const std::int64_t> values) {
  // begin_group's state, for a block map.
  const bool item = !groups_.empty();
  started_node();
  if (item) cur_indent_ += kIndent;
  groups_.push_back(Group{true, false, 0, false});
  long_key_next_ = false;
  write_members(lines, values);
}

void YamlEmitter::write_members(std::span<const MemberLine> lines,
                                std::span<const std::int64_t> values) {
  if (values.empty()) return;
  char* const start = out_.room(values.size() * (MemberLine::kCopy + kDecimalRoom));
  char* p = start;
  char* digits = p;
  for (std::size_t i = 0; i < values.size(); ++i) {
    digits = lines[i].copy_to(p);
    p = write_decimal(digits, values[i]);
  }
  out_.advance(static_cast<std::size_t>(p - start));
  groups_.back().child_count += 2 * values.size();
  col_ =
      cur_indent_ + lines[values.size() - 1].key_size() + 2 + static_cast<std::size_t>(p - digits);
}

void YamlEmitter::integer(std::int64_t v) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  prepare(Node::scalar);
  write_inline(std::string_view(digits, static_cast<std::size_t>(end - digits)));
  started_node();
  long_key_next_ = false;
}

void YamlEmitter::boolean(bool v) {
  prepare(Node::scalar);
  write_inline(v ? "true" : "false");
  started_node();
  long_key_next_ = false;
}

void YamlEmitter::real(double v) {
  char text[40];
  std::string_view t;
  if (std::isnan(v)) {
    t = ".nan";
  } else if (std::isinf(v)) {
    t = std::signbit(v) ? "-.inf" : ".inf";
  } else {
    // std::stringstream at precision max_digits10, default float field: printf's %.17g.
    const int n =
        std::snprintf(text, sizeof text, "%.*g", std::numeric_limits<double>::max_digits10, v);
    t = std::string_view(text, static_cast<std::size_t>(n));
  }
  prepare(Node::scalar);
  write_inline(t);
  started_node();
  long_key_next_ = false;
}

void YamlEmitter::null() {
  prepare(Node::scalar);
  write("~");
  started_node();
  long_key_next_ = false;
}

// ---- kepoch's Values ----------------------------------------------------------------------

namespace {

// Bytes of a string a reader could take for a number: 2 for a digit, 1 for the others.
constexpr std::array<std::uint8_t, 256> kNumberByte = [] {
  std::array<std::uint8_t, 256> t{};
  for (const char c : std::string_view("+-.eE_xXoabcdefABCDEF"))
    t[static_cast<unsigned char>(c)] = 1;
  for (char c = '0'; c <= '9'; ++c)
    t[static_cast<unsigned char>(c)] = 2;
  return t;
}();

bool special_word(std::string_view s) {
  // By size: a value is compared with the few words of its size only.
  const auto any = [&](std::initializer_list<std::string_view> words) {
    for (const auto w : words)
      if (s == w) return true;
    return false;
  };
  switch (s.size()) {
    case 1:
      return s[0] == '~' || s[0] == 'y' || s[0] == 'n';
    case 2:
      return any({"no", "on", "No", "NO", "On"});
    case 3:
      return any({"yes", "off", "Yes", "YES", "Off"});
    case 4:
      return any({"true", "null", "True", "Null", "NULL", "TRUE"});
    case 5:
      return any({"false", "False", "FALSE"});
    default:
      return false;
  }
}

}  // namespace

// One pass, a table lookup per byte; most values stop at their first letter past 'f'.
bool needs_quotes(std::string_view s) {
  if (s.empty() || special_word(s) || s.front() == ' ' || s.back() == ' ') return true;
  bool digit = false;
  for (const char c : s) {
    const std::uint8_t kind = kNumberByte[static_cast<unsigned char>(c)];
    if (kind == 0) return false;
    digit = digit || kind == 2;
  }
  return digit;
}

namespace {

// Whether each of the 8 bytes at p is ASCII and between the same bytes of lo and hi (ASCII).
// With a byte's high bit set first, subtracting an ASCII byte cannot borrow from the next:
// the high bit of each difference says whether that byte's subtraction stayed >= 0.
[[gnu::always_inline]] inline bool bytes_between(const char* p, const char (&lo)[9],
                                                 const char (&hi)[9]) {
  constexpr std::uint64_t kHigh = 0x8080808080808080;
  std::uint64_t w, l, h;
  std::memcpy(&w, p, 8);
  std::memcpy(&l, lo, 8);
  std::memcpy(&h, hi, 8);
  return (w & kHigh) == 0 && (((w | kHigh) - l) & kHigh) == kHigh &&
         (((h | kHigh) - w) & kHigh) == kHigh;
}

// The shape of base/time_text's ISO times, "2026-12-02T03:41:13.123Z" or with an offset,
// "...13.123+01:00" (a streamed dump writes one per record): digits and "-T:.Z+" only, a
// 'T' among them, not ending in ':'. Such a string is plain (yaml_plain_ok) and not a
// number or a word (needs_quotes), so its 24 or 29 bytes are tested 8 at a time instead.
[[gnu::always_inline]] inline bool iso_time_shape(std::string_view s) {
  if (s.size() != 24 && s.size() != 29) return false;
  const char* p = s.data();
  if (!bytes_between(p, "0000-00-", "9999-99-") || !bytes_between(p + 8, "00T00:00", "99T99:99"))
    return false;
  if (s.size() == 24) return bytes_between(p + 16, ":00.000Z", ":99.999Z");
  // (A ',' in place of the sign passes too, and is as harmless in a block context.)
  return bytes_between(p + 16, ":00.000+", ":99.999-") &&
         bytes_between(p + 21, "00+00:00", "99-99:99");
}

}  // namespace

namespace {

// Whether every byte of s is a kSimpleByte: 16 at a time with SSE2 from 8 bytes on (the
// last 16 overlapping those before; 8-15 bytes as two overlapping words), else by the table.
bool all_simple(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
#if defined(__SSE2__)
  if (n >= 8) {
    // A letter (its lower case in a-z), "+-./0-9:" but ',' or '_'; a byte >= 0x80 is
    // negative in these signed comparisons: none.
    const auto bad = [](__m128i v) {
      const __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
      const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                           _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1)));
      const __m128i sign_digit =
          _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')),
                           _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('+' - 1)),
                                         _mm_cmplt_epi8(v, _mm_set1_epi8(':' + 1))));
      const __m128i under = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
      return _mm_movemask_epi8(_mm_or_si128(letter, _mm_or_si128(sign_digit, under))) != 0xFFFF;
    };
    const auto load = [](const char* at) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    };
    if (n < 16) {
      std::int64_t a, b;
      std::memcpy(&a, p, 8);
      std::memcpy(&b, p + n - 8, 8);
      return !bad(_mm_set_epi64x(b, a));
    }
    for (std::size_t i = 0; i + 16 < n; i += 16)
      if (bad(load(p + i))) return false;
    return !bad(load(p + n - 16));
  }
#endif
  for (std::size_t i = 0; i < n; ++i)
    if (!kSimpleByte[static_cast<unsigned char>(p[i])]) return false;
  return true;
}

// Whether every byte of s is one a number may hold, and a digit among them (needs_quotes).
bool number_like(std::string_view s) {
  bool digit = false;
  for (const char c : s) {
    const std::uint8_t kind = kNumberByte[static_cast<unsigned char>(c)];
    if (kind == 0) return false;  // most strings: at their first letter past 'f'
    digit = digit || kind == 2;
  }
  return digit;
}

}  // namespace

// A string of kSimpleByte's only (names, ids, hosts, topics: most values) is decided by
// all_simple and the few tests left of needs_quotes and yaml_plain_ok; any other by both.
bool yaml_as_is(std::string_view s) {
  if (iso_time_shape(s)) return true;
  if (s.empty() || !all_simple(s)) return !needs_quotes(s) && yaml_plain_ok(s);
  // needs_quotes of such a string: a number's look, or a special word (the null strings
  // among them); it has no space. yaml_plain_ok: simple()'s three.
  if (number_like(s) || (s.size() <= 5 && special_word(s))) return false;
  return !(s.size() == 1 && (s[0] == '-' || s[0] == ':')) && s.back() != ':';
}

std::size_t YamlEmitter::scalar_members(std::span<const MemberLine> lines,
                                        std::span<const Scalar> values) {
  std::size_t i = 0;
  for (; i < values.size(); ++i) {
    const Scalar& v = values[i];
    const MemberLine& line = lines[i];
    std::size_t size = 0;  // the value's text
    if (v.kind == Scalar::Kind::integer) {
      char* const start = out_.room(MemberLine::kCopy + kDecimalRoom);
      char* const p = line.copy_to(start);
      size = static_cast<std::size_t>(write_decimal(p, v.integer) - p);
      out_.advance(static_cast<std::size_t>(p - start) + size);
    } else {
      const std::string_view text = v.kind == Scalar::Kind::null ? std::string_view("~") : v.text;
      // A time's text (a record's timestamp) is the ISO shape yaml_as_is tests first, inline.
      if (v.kind != Scalar::Kind::null && !iso_time_shape(text) && !yaml_as_is(text)) break;
      size = text.size();
      char* const start = out_.room(MemberLine::kCopy + size);
      char* const p = line.copy_to(start);
      if (size <= 32)
        copy_short(p, text.data(), size);
      else
        std::memcpy(p, text.data(), size);
      out_.advance(static_cast<std::size_t>(p - start) + size);
    }
    col_ = cur_indent_ + line.key_size() + 2 + size;
  }
  groups_.back().child_count += 2 * i;
  return i;
}

namespace {

void emit_value(YamlEmitter& e, const Value& v) {
  struct Visitor {
    YamlEmitter& e;
    void operator()(std::monostate) const { e.null(); }
    void operator()(bool b) const { e.boolean(b); }
    void operator()(std::int64_t i) const { e.integer(i); }
    void operator()(double d) const { e.real(d); }
    void operator()(const std::string& s) const { e.string(s, needs_quotes(s)); }
    void operator()(const Value::Array& a) const {
      e.begin_seq(/*flow=*/a.empty());
      for (const auto& x : a)
        emit_value(e, x);
      e.end_seq();
    }
    void operator()(const Value::Object& o) const {
      e.begin_map(/*flow=*/o.empty());
      for (const auto& [k, x] : o) {
        e.string(k);
        emit_value(e, x);
      }
      e.end_map();
    }
  };
  std::visit(Visitor{e}, v.data());
}

}  // namespace

void emit_yaml(YamlEmitter& e, const Value& v) {
  emit_value(e, v);
  e.flush();
}

}  // namespace kepoch::report::detail
