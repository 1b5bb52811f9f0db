// Text shown to a person: bounded excerpts and control characters escaped.
#include <catch2/catch.hpp>

#include <string>

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
