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

TEST_CASE(
    "table: the width is RenderOptions::width (a terminal's) and CJK cells keep columns aligned",
    "[report][fit]") {
  // A consumer group id in CJK (group ids may hold any Unicode) beside an ASCII one.
  const std::string cjk = "\xe6\xb3\xa8\xe6\x96\x87\xe5\x87\xa6\xe7\x90\x86";  // 注文処理
  Value rows = Value::array();
  rows.push(Value::object()
                .set("group", cjk + "-" + std::string(70, 'g'))
                .set("offset", 1)
                .set("lost", 2));
  rows.push(Value::object().set("group", "payments").set("offset", 10).set("lost", 20));
  rows.push(Value::object().set("group", cjk).set("offset", 100).set("lost", 200));
  const Value v = Value::object()
                      .set("summary", std::string(60, 's') + " " + std::string(60, 't'))
                      .set("groups", rows);
  for (const std::size_t width : {std::size_t{80}, std::size_t{120}, std::size_t{60}}) {
    RenderOptions options;
    options.width = width;
    std::ostringstream out, err;
    render(v, Format::table, out, err, options);
    std::istringstream lines(out.str());
    std::vector<std::size_t> offset_at;  // the display column where OFFSET's cells start
    bool in_table = false;
    for (std::string line; std::getline(lines, line);) {
      INFO(width << ": " << line);
      CHECK(display_width(line) <= width);
      if (line == "groups:") in_table = true;
      if (!in_table || line == "groups:") continue;
      // The last two cells (OFFSET, LOST): the start of the second-last run of non-spaces.
      const auto lost = line.find_last_of(' ') + 1;
      const auto gap = line.find_last_not_of(' ', lost - 1);
      const auto offset = line.find_last_of(' ', gap) + 1;
      offset_at.push_back(display_width(line.substr(0, offset)));
    }
    REQUIRE(offset_at.size() == 4);
    for (const auto c : offset_at)
      CHECK(c == offset_at[0]);
  }
}

namespace {
// display_width's rule without its ASCII shortcut, written out the slow way: each whole
// UTF-8 sequence is its code point's width (code_point_width), every other byte 1.
std::size_t columns_by_rule(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    const std::size_t len = b >= 0xF0 && b <= 0xF4   ? 4
                            : b >= 0xE0 && b <= 0xEF ? 3
                            : b >= 0xC2 && b <= 0xDF ? 2
                                                     : 1;
    char32_t cp = len == 1 ? b : b & (0x7F >> len);
    bool whole = i + len <= text.size() && (len > 1 || b < 0x80);
    for (std::size_t k = 1; whole && k < len; ++k) {
      const auto c = static_cast<unsigned char>(text[i + k]);
      whole = (c & 0xC0) == 0x80;
      cp = (cp << 6) | (c & 0x3F);
    }
    if (whole && len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) whole = false;
    if (whole && len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) whole = false;
    n += whole ? static_cast<std::size_t>(kepoch::code_point_width(cp)) : 1;
    i += whole ? len : 1;
  }
  return n;
}
}  // namespace

TEST_CASE("display_width: the ASCII shortcut answers as the column rule does", "[report][fit]") {
  CHECK(display_width("") == 0);
  CHECK(display_width("1700000000000") == 13);
  CHECK(display_width("2023-11-14T22:13:20.000Z") == 24);
  CHECK(display_width("caf\xc3\xa9") == 4);  // 2-byte UTF-8
  // CJK (3 bytes each, 2 columns each), past the 8-byte steps and in their tail.
  CHECK(display_width("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e") == 6);
  CHECK(display_width("topic-\xe6\x97\xa5\xe6\x9c\xac-0123456789") == 21);
  CHECK(display_width("\xf0\x9f\x98\x80") == 2);          // 4-byte UTF-8, an emoji (wide)
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
                                           "\xcc\x81",
                                           "\x01"};
  std::mt19937 rng(41);
  for (int n = 0; n < 5000; ++n) {
    std::string s;
    const int parts = static_cast<int>(rng() % 10);
    for (int i = 0; i < parts; ++i)
      s += rng() % 3 ? pieces[rng() % 4] : pieces[rng() % pieces.size()];
    INFO("case " << n);
    REQUIRE(display_width(s) == columns_by_rule(s));
    for (std::size_t from = 1; from < s.size() && from < 9; ++from)
      REQUIRE(display_width(std::string_view(s).substr(from)) ==
              columns_by_rule(std::string_view(s).substr(from)));
  }
}

TEST_CASE("shorten and wrap count a CJK character as two columns", "[report][fit]") {
  // 消費者グループ (a consumer group id): 7 characters, 14 columns.
  const std::string group =
      "\xe6\xb6\x88\xe8\xb2\xbb\xe8\x80\x85\xe3\x82\xb0\xe3\x83\xab\xe3\x83\xbc\xe3\x83\x97";
  CHECK(display_width(group) == 14);
  CHECK(shorten(group, 14) == group);
  // 9 columns: the ellipsis and 4 wide characters (8 columns); a fifth would straddle.
  const std::string cut = shorten(group, 10);
  CHECK(cut == "\xe6\xb6\x88\xe8\xb2\xbb\xe8\x80\x85\xe3\x82\xb0\xe2\x80\xa6");
  CHECK(display_width(cut) == 9);
  for (std::size_t w = 1; w < 16; ++w)
    CHECK(display_width(shorten(group, w)) <= w);
  // A path keeps its end, also in columns.
  CHECK(display_width(shorten("/data/" + group + "/d-0", 12)) <= 12);
  for (const auto& line : wrap(group + " " + group + " " + group, 20))
    CHECK(display_width(line) <= 20);
  std::ostringstream out;
  write_wrapped(out, 30, "", "  ", group + " " + group + " " + group);
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);)
    CHECK(display_width(line) <= 30);
}
