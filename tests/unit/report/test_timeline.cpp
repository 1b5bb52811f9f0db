// The diff timeline's picture, drawn from its structured form: epochs of any size stay
// distinct, a fork near the end of a long log is zoomed on, the marks sit at their offsets.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <map>
#include <regex>

#include "kepoch/report/fit.hpp"
#include "kepoch/report/timeline.hpp"
#include "support/timeline_values.hpp"

using namespace kepoch::report;
using test::replica;
using test::span;

namespace {

// The glyph -> epoch legend of a drawing.
std::map<char, std::int64_t> legend(const std::vector<std::string>& lines) {
  std::map<char, std::int64_t> out;
  const std::regex entry(R"(([A-Za-z0-9])=(\d+))");
  std::string head;  // the lines before the first bar
  for (const auto& l : lines) {
    if (l.find('|') != std::string::npos) break;
    head += l + " ";
  }
  const auto from = head.find("epochs "), to = head.find(';', from);
  const std::string part = head.substr(from, to - from);
  for (std::sregex_iterator it(part.begin(), part.end(), entry), end; it != end; ++it)
    out[(*it)[1].str()[0]] = std::stoll((*it)[2].str());
  return out;
}

std::string bar_of(const std::vector<std::string>& lines, const std::string& name) {
  for (const auto& l : lines)
    if (l.rfind(name, 0) == 0) return l.substr(l.find('|') + 1, l.rfind('|') - l.find('|') - 1);
  return "";
}

}  // namespace

TEST_CASE("timeline: epochs in the hundreds each get their own glyph", "[report][timeline]") {
  Value spans = Value::array();
  for (int i = 0; i < 40; ++i)
    spans.push(span(300 + 7 * i, i, i + 1));
  const Value t = Value::object()
                      .set("from", 0)
                      .set("to", 40)
                      .set("fork", Value())
                      .set("reference", "/d/broker-1/p-0")
                      .set("replicas", Value::array().push(replica("/d/broker-1/p-0", spans, 40, 40,
                                                                   Value(), "reference")));
  const auto lines = timeline_drawing(t, 120);
  const auto glyphs = legend(lines);
  CHECK(glyphs.size() == 40);
  const std::string bar = bar_of(lines, "broker-1/p-0");
  REQUIRE(bar.size() == 40);
  for (int i = 0; i < 40; ++i)
    CHECK(glyphs.at(bar[static_cast<std::size_t>(i)]) == 300 + 7 * i);
}

TEST_CASE("timeline: more epochs than glyphs: neighbours differ, the legend names each one",
          "[report][timeline]") {
  Value spans = Value::array();
  for (int i = 0; i < 100; ++i)
    spans.push(span(400 + i, i, i + 1));
  const Value t = Value::object()
                      .set("from", 0)
                      .set("to", 100)
                      .set("fork", Value())
                      .set("reference", "/d/broker-1/p-0")
                      .set("replicas", Value::array().push(replica("/d/broker-1/p-0", spans, 100,
                                                                   100, Value(), "reference")));
  const auto lines = timeline_drawing(t, 200);
  std::string head;  // every "glyph=epoch" entry of the legend, over its wrapped lines
  for (const auto& l : lines) {
    if (l.find('|') != std::string::npos) break;
    head += l + " ";
  }
  const std::string bar = bar_of(lines, "broker-1/p-0");
  REQUIRE(bar.size() == 100);
  for (int i = 0; i < 100; ++i) {
    const char g = bar[static_cast<std::size_t>(i)];
    CHECK(g != '#');
    const std::string entry = fmt::format(" {}={}", g, 400 + i);
    const auto at = head.find(entry);
    REQUIRE(at != std::string::npos);
    CHECK((head[at + entry.size()] == ' ' || head[at + entry.size()] == ';'));
    if (i > 0) CHECK(g != bar[static_cast<std::size_t>(i - 1)]);
  }
}

TEST_CASE("timeline: a fork 200 offsets before the end of a 50M-offset log is visible",
          "[report][timeline]") {
  const std::int64_t end = 50'000'000, fork = end - 200;
  Value leader = Value::array().push(span(500, 0, fork)).push(span(512, fork, end));
  Value follower = Value::array().push(span(500, 0, fork + 50));
  const Value t =
      Value::object()
          .set("from", 0)
          .set("to", end)
          .set("fork", fork)
          .set("reference", "/d/broker-2/p-0")
          .set("replicas",
               Value::array()
                   .push(replica("/d/broker-2/p-0", leader, end, fork - 10, Value(), "reference"))
                   .push(replica("/d/broker-1/p-0", follower, fork + 50, fork - 10, fork,
                                 "diverged")));
  const auto lines = timeline_drawing(t, 120);
  for (const auto& l : lines)
    CHECK(detail::display_width(l) <= 120);
  const auto glyphs = legend(lines);
  const std::string lead = bar_of(lines, "broker-2/p-0");
  const std::string follow = bar_of(lines, "broker-1/p-0");
  REQUIRE(lead.size() > 10);
  bool cut_mark = false;  // the offsets before the zoom are cut, and marked
  for (const auto& l : lines)
    cut_mark = cut_mark || (l.rfind("broker-2/p-0", 0) == 0 && l.find("~|") != std::string::npos);
  CHECK(cut_mark);
  // Both epochs are drawn on the leader's bar, and the follower's differs from it.
  bool epoch_512 = false;
  for (char g : lead)
    if (glyphs.count(g) && glyphs.at(g) == 512) epoch_512 = true;
  CHECK(epoch_512);
  CHECK(follow != lead);
  // The caret of the fork, the truncation point and the high watermark are drawn.
  bool caret = false, t_mark = false, h_mark = false;
  for (const auto& l : lines) {
    caret = caret || l.find("^ fork at offset 49999800") != std::string::npos;
    if (l.find_first_of("|^") == std::string::npos && l.find("offsets") == std::string::npos) {
      t_mark = t_mark || l.find('t') != std::string::npos;
      h_mark = h_mark || l.find('h') != std::string::npos;
    }
  }
  CHECK(caret);
  CHECK(t_mark);
  CHECK(h_mark);
  CHECK(lines.front().find("offsets 4999") == 0);  // the axis starts near the fork
}
