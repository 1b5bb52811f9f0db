// Text shown to a person: bounded excerpts and control characters escaped.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/text.hpp"

using kepoch::escape_control;
using kepoch::excerpt;
using kepoch::needs_escape;
using kepoch::utf8_prefix;

TEST_CASE("excerpt keeps short text and cuts long text with its length", "[base][text]") {
  CHECK(excerpt("abc", 3) == "abc");
  CHECK(excerpt("abcdef", 3) == "abc... (6 bytes)");
  CHECK(excerpt(std::string(70'000'000, 'x')).size() < 160);
}

TEST_CASE("utf8_prefix never cuts a character in two", "[base][text]") {
  const std::string s = "a\xc3\xa9z";  // a, e-acute (2 bytes), z
  CHECK(utf8_prefix(s, 2) == "a");
  CHECK(utf8_prefix(s, 3) == "a\xc3\xa9");
  CHECK(utf8_prefix(s, 10) == s);
}

TEST_CASE("escape_control leaves plain text alone, backslashes included", "[base][text]") {
  CHECK_FALSE(needs_escape("orders-0"));
  CHECK(escape_control("orders-0") == "orders-0");
  CHECK(escape_control("C:\\kafka") == "C:\\kafka");
  CHECK(escape_control("caf\xc3\xa9-0") == "caf\xc3\xa9-0");  // valid UTF-8 is not a control
}

TEST_CASE("escape_control shows C0, DEL, C1 controls and stray bytes as escapes", "[base][text]") {
  CHECK(escape_control("a\nb") == "a\\nb");
  CHECK(escape_control("\x1b[2J\r\t") == "\\e[2J\\r\\t");
  CHECK(escape_control("\x1b]0;title\x07") == "\\e]0;title\\x07");
  CHECK(escape_control(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(escape_control("\x7f") == "\\x7f");
  CHECK(escape_control("\xc2\x9b"
                       "2J") == "\\xc2\\x9b2J");   // CSI as U+009B
  CHECK(escape_control("t\xff-0") == "t\\xff-0");  // not UTF-8
  // Once a name is escaped, its backslashes are too, so "\n" typed literally stays distinct.
  CHECK(escape_control("a\\n\n") == "a\\\\n\\n");
}

namespace {
// needs_escape's rule decoded from the first byte, without its printable-ASCII shortcut: a
// control (C0, DEL, C1) or a byte that starts no valid UTF-8 sequence (overlong, surrogate,
// past U+10FFFF, truncated).
bool needs_escape_by_rule(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    unsigned cp = 0, min = 0;
    if (b < 0x80) {
      if (b < 0x20 || b == 0x7F) return true;
      ++i;
      continue;
    }
    if (b >= 0xC2 && b <= 0xDF)
      n = 2, min = 0x80, cp = b & 0x1F;
    else if (b >= 0xE0 && b <= 0xEF)
      n = 3, min = 0x800, cp = b & 0x0F;
    else if (b >= 0xF0 && b <= 0xF4)
      n = 4, min = 0x10000, cp = b & 0x07;
    else
      return true;
    if (i + n > s.size()) return true;
    for (std::size_t k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return true;
      cp = (cp << 6) | (c & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return true;
    if (cp >= 0x80 && cp <= 0x9F) return true;  // C1
    i += n;
  }
  return false;
}
}  // namespace

TEST_CASE("needs_escape: the printable-ASCII shortcut answers as the rule does", "[base][text]") {
  CHECK_FALSE(needs_escape(""));
  CHECK_FALSE(needs_escape("create-time"));
  CHECK_FALSE(needs_escape(" ~"));                  // the edges of printable ASCII
  CHECK(needs_escape("plain then \x1f"));           // a control after an ASCII run
  CHECK(needs_escape("plain then \x7f"));           // DEL
  CHECK_FALSE(needs_escape("plain \xe6\x97\xa5"));  // then CJK
  CHECK(needs_escape("plain \xc2\x9b"));            // then C1
  CHECK(needs_escape("plain \xe6\x97"));            // then a truncated sequence
  const std::vector<std::string> pieces = {"a",
                                           "name-0",
                                           " ",
                                           "~",
                                           "\\",
                                           "\x1f",
                                           "\n",
                                           "\x7f",
                                           "\xc3\xa9",
                                           "\xc2\x80",
                                           "\xc2\x9f",
                                           "\xc2\xa0",
                                           "\xe6\x97\xa5",
                                           "\xed\xa0\x80",
                                           "\xe0\x9f\xbf",
                                           "\xf0\x9f\x98\x80",
                                           "\xf4\x90\x80\x80",
                                           "\xc0\xaf",
                                           "\x80",
                                           "\xff",
                                           "\xe2\x82"};
  std::mt19937 rng(41);
  for (int n = 0; n < 20000; ++n) {
    std::string s;
    const int parts = static_cast<int>(rng() % 8);
    for (int i = 0; i < parts; ++i)
      s += rng() % 2 ? pieces[rng() % 4] : pieces[rng() % pieces.size()];
    INFO("case " << n);
    REQUIRE(needs_escape(s) == needs_escape_by_rule(s));
  }
}
