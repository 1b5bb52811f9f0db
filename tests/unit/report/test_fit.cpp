// Text fitted to the table width: ellipses, wrapping, columns that share the width.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kepoch/report/fit.hpp"
#include "kepoch/report/render.hpp"

using namespace kepoch::report;
using namespace kepoch::report::detail;

TEST_CASE("shorten: a path keeps its end, prose its start, in display columns", "[report][fit]") {
  CHECK(shorten("short", 10) == "short");
  CHECK(shorten("/var/lib/kafka/broker-1/d-0", 14) == "\xe2\x80\xa6/broker-1/d-0");
  CHECK(display_width(shorten("/var/lib/kafka/broker-1/d-0", 13)) == 13);
  CHECK(shorten("the index was not trimmed", 8) == "the ind\xe2\x80\xa6");
  CHECK(display_width("\xe2\x80\xa6x") == 2);
}

TEST_CASE("wrap: lines break at spaces and stay within the width", "[report][fit]") {
  const auto lines = wrap("broker-1/d-0 truncates to 5: loses 3 records, none committed", 20);
  REQUIRE(lines.size() > 1);
  std::string joined;
  for (const auto& l : lines) {
    CHECK(display_width(l) <= 20);
    joined += (joined.empty() ? "" : " ") + l;
  }
  CHECK(joined == "broker-1/d-0 truncates to 5: loses 3 records, none committed");
  CHECK(wrap("", 10) == std::vector<std::string>{""});
}

TEST_CASE("fit_columns: the widest shrink first, the rightmost go when floors do not fit",
          "[report][fit]") {
  std::vector<std::size_t> widths{5, 10, 200};
  CHECK(fit_columns(widths, {5, 8, 8}, 100) == 3);
  CHECK(widths[0] == 5);
  CHECK(widths[1] == 10);
  CHECK(widths[0] + widths[1] + widths[2] + 4 == 100);

  std::vector<std::size_t> fits{5, 10};
  CHECK(fit_columns(fits, {5, 8}, 100) == 2);
  CHECK(fits == std::vector<std::size_t>{5, 10});

  std::vector<std::size_t> many(20, 30);
  const std::size_t kept = fit_columns(many, std::vector<std::size_t>(20, 8), 100);
  CHECK(kept < 20);
  std::size_t total = 2 * (kept - 1);
  for (std::size_t i = 0; i < kept; ++i)
    total += many[i];
  CHECK(total <= 100);
}

TEST_CASE("table: every line fits 120 columns unless wide", "[report][fit]") {
  Value rows = Value::array();
  for (int i = 0; i < 3; ++i)
    rows.push(Value::object()
                  .set("file", std::string(80, 'f') + "/" + std::to_string(i))
                  .set("message", std::string(150, 'm'))
                  .set("count", i));
  const Value v = Value::object()
                      .set("summary", "a verdict sentence " + std::string(30, 'x') +
                                          " that runs past the width of one line of a terminal "
                                          "and so is wrapped at spaces onto a second line")
                      .set("note", std::string(130, 'n'))
                      .set("rows", rows);
  std::ostringstream out, err, wide_out;
  render(v, Format::table, out, err, {});
  std::istringstream lines(out.str());
  std::string line;
  bool first = true;
  while (std::getline(lines, line)) {
    CHECK(display_width(line) <= 120);
    if (first) CHECK(line.rfind("a verdict sentence", 0) == 0);  // the verdict opens it
    first = false;
  }
  RenderOptions wide;
  wide.wide = true;
  render(v, Format::table, wide_out, err, wide);
  CHECK(wide_out.str().find(std::string(150, 'm')) != std::string::npos);
  CHECK(out.str().find(std::string(150, 'm')) == std::string::npos);
}

namespace {
// display_width's rule before its ASCII shortcut: one column per byte that does not continue
// a UTF-8 sequence.
std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text)
    n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}
}  // namespace

TEST_CASE("display_width: the ASCII shortcut answers as the code-point rule does",
          "[report][fit]") {
  CHECK(display_width("") == 0);
  CHECK(display_width("1700000000000") == 13);
  CHECK(display_width("2023-11-14T22:13:20.000Z") == 24);
  CHECK(display_width("caf\xc3\xa9") == 4);  // 2-byte UTF-8
  // CJK (3 bytes each), past the 8-byte steps and in their tail: one column each by today's
  // rule (a rule for double-width text would change these, not the shortcut).
  CHECK(display_width("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e") == 3);
  CHECK(display_width("topic-\xe6\x97\xa5\xe6\x9c\xac-0123456789") == 19);
  CHECK(display_width("\xf0\x9f\x98\x80") == 1);          // 4-byte UTF-8
  CHECK(display_width("0123456789abcde\xc3\xa9") == 16);  // the non-ASCII byte in the tail
  CHECK(display_width("01234567\xc3\xa9") == 9);          // the non-ASCII byte in a step
  CHECK(is_ascii("plain ASCII text, longer than eight"));
  CHECK_FALSE(is_ascii("01234567\xc3\xa9"));
  CHECK_FALSE(is_ascii("\x80"));
  // Random texts of ASCII, multibyte and stray bytes, at every length and alignment.
  const std::vector<std::string> pieces = {"a",
                                           "0123456789",
                                           "-",
                                           " ",
                                           "\x7f",
                                           "\xc3\xa9",
                                           "\xe6\x97\xa5",
                                           "\xf0\x9f\x98\x80",
                                           "\x80",
                                           "\xff",
                                           "\xe2\x80\xa6",
                                           "\x01"};
  std::mt19937 rng(41);
  for (int n = 0; n < 5000; ++n) {
    std::string s;
    const int parts = static_cast<int>(rng() % 10);
    for (int i = 0; i < parts; ++i)
      s += rng() % 3 ? pieces[rng() % 4] : pieces[rng() % pieces.size()];
    INFO("case " << n);
    REQUIRE(display_width(s) == code_points(s));
    for (std::size_t from = 1; from < s.size() && from < 9; ++from)
      REQUIRE(display_width(std::string_view(s).substr(from)) ==
              code_points(std::string_view(s).substr(from)));
  }
}
