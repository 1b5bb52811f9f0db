// Pins the JDK behaviours Kafka's checkpoint readers inherit: BufferedReader.readLine,
// Pattern.split("\\s+"), Integer.parseInt and Long.parseLong.
#include <catch2/catch.hpp>

#include "kepoch/base/java_text.hpp"

using namespace kepoch::java;
using kepoch::java::Fields;

TEST_CASE("readLine ends lines at LF, CR and CR LF", "[base][java]") {
  const auto lines = read_lines("a\nb\r\nc\rd");
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].text == "a");
  CHECK(lines[1].text == "b");
  CHECK(lines[1].terminator == "\r\n");
  CHECK(lines[2].text == "c");
  CHECK(lines[2].terminator == "\r");
  CHECK(lines[3].text == "d");
  CHECK(lines[3].terminator.empty());
  CHECK(lines[3].byte_offset == 7);
}

TEST_CASE("readLine: empty input has no line, a trailing newline adds none", "[base][java]") {
  CHECK(read_lines("").empty());
  CHECK(read_lines("0\n").size() == 1);
  const auto lines = read_lines("0\n\n");
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].text.empty());
}

TEST_CASE("Pattern.split on white space runs keeps a leading empty field and drops trailing ones",
          "[base][java]") {
  CHECK(split_whitespace("3 100") == Fields{"3", "100"});
  CHECK(split_whitespace("3\t100") == Fields{"3", "100"});
  CHECK(split_whitespace("3   100  ") == Fields{"3", "100"});
  CHECK(split_whitespace(" 3 100") == Fields{"", "3", "100"});
  CHECK(split_whitespace("") == Fields{""});
  CHECK(split_whitespace("   ").empty());
  CHECK(split_whitespace("3\x0B"
                         "100\f") == Fields{"3", "100"});
}

TEST_CASE("Pattern.split on a colon and white space needs white space after the colon",
          "[base][java]") {
  CHECK(split_colon_whitespace("version: 0") == Fields{"version", "0"});
  CHECK(split_colon_whitespace("version:0") == Fields{"version:0"});
  CHECK(split_colon_whitespace("version: ") == Fields{"version"});
  CHECK(split_colon_whitespace("a: b: c") == Fields{"a", "b", "c"});
}

TEST_CASE("Integer.parseInt accepts sign and leading zeros, rejects the rest", "[base][java]") {
  CHECK(parse_int("0") == 0);
  CHECK(parse_int("+5") == 5);
  CHECK(parse_int("-0") == 0);
  CHECK(parse_int("007") == 7);
  CHECK(parse_int("2147483647") == 2147483647);
  CHECK(parse_int("-2147483648") == INT32_MIN);
  CHECK_FALSE(parse_int("2147483648"));
  CHECK_FALSE(parse_int("-2147483649"));
  CHECK_FALSE(parse_int(""));
  CHECK_FALSE(parse_int("+"));
  CHECK_FALSE(parse_int("-"));
  CHECK_FALSE(parse_int(" 1"));
  CHECK_FALSE(parse_int("1 "));
  CHECK_FALSE(parse_int("1e3"));
  CHECK_FALSE(parse_int("0x10"));
}

TEST_CASE("Long.parseLong covers the whole signed 64-bit range", "[base][java]") {
  CHECK(parse_long("9223372036854775807") == INT64_MAX);
  CHECK(parse_long("-9223372036854775808") == INT64_MIN);
  CHECK_FALSE(parse_long("9223372036854775808"));
  CHECK_FALSE(parse_long("99999999999999999999"));
}

TEST_CASE("Boolean.parseBoolean: \"true\" in any case, anything else false", "[base][java]") {
  CHECK(parse_boolean("true"));
  CHECK(parse_boolean("TRUE"));
  CHECK(parse_boolean("tRuE"));
  CHECK_FALSE(parse_boolean(" true"));  // not trimmed, as ConfigDef would
  CHECK_FALSE(parse_boolean("true "));
  CHECK_FALSE(parse_boolean("false"));
  CHECK_FALSE(parse_boolean("yes"));
  CHECK_FALSE(parse_boolean(""));
  CHECK_FALSE(parse_boolean("truee"));
}

TEST_CASE("strict UTF-8 as Java's decoder reports it", "[base][java]") {
  CHECK_FALSE(first_invalid_utf8("plain ascii"));
  CHECK_FALSE(first_invalid_utf8("caf\xC3\xA9"));
  CHECK(first_invalid_utf8("ab\xFF") == 2u);
  CHECK(first_invalid_utf8("\xC0\x80") == 0u);          // overlong NUL
  CHECK(first_invalid_utf8("x\xED\xA0\x80") == 1u);     // UTF-16 surrogate
  CHECK(first_invalid_utf8("\xF4\x90\x80\x80") == 0u);  // above U+10FFFF
  CHECK(first_invalid_utf8("ok\xE2\x82") == 2u);        // truncated sequence
}
