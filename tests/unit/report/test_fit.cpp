// Text fitted to the table width: ellipses, wrapping, columns that share the width.
#include <catch2/catch.hpp>

#include <sstream>

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
