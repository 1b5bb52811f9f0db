// The HTML pictures (report/html_page, report/svg): text escaped, one colour per epoch however
// large, the spans and markers of a timeline drawn with the attributes scripts read back, the
// axis zoomed behind a break when a fork sits near the end of a long log.
#include <catch2/catch.hpp>

#include <cmath>
#include <regex>
#include <set>
#include <string>

#include "kepoch/report/html_page.hpp"
#include "kepoch/report/svg.hpp"
#include "support/timeline_values.hpp"

using namespace kepoch::report;
using test::replica;
using test::span;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("svg: escape leaves no markup and no control character", "[report][html]") {
  CHECK(svg::escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(svg::escape(std::string("x\x1b[31my\x01", 8)) == "x\xef\xbf\xbd[31my\xef\xbf\xbd");
  CHECK(svg::escape("broker-1/d-0") == "broker-1/d-0");
}

TEST_CASE("svg: coordinates without trailing zeros", "[report][html]") {
  CHECK(svg::coord(12.5) == "12.5");
  CHECK(svg::coord(3.0) == "3");
  CHECK(svg::coord(2.25) == "2.25");
  CHECK(svg::coord(-0.001) == "0");
}

TEST_CASE("svg: every epoch up to 40000 gets its own colour", "[report][html]") {
  std::set<std::string> colours;
  for (std::int64_t e = 0; e <= 40000; ++e)
    colours.insert(svg::epoch_color(e));
  CHECK(colours.size() == 40001);
  CHECK(svg::epoch_color(std::nullopt) != svg::epoch_color(0));
  CHECK(svg::epoch_color(300) != svg::epoch_color(301));
}

TEST_CASE("svg: no epoch is drawn in the state colours (red, green) or the high watermark's blue",
          "[report][html]") {
  for (std::int64_t e = -1; e <= 5000; ++e) {
    const std::string c = svg::epoch_color(e);
    REQUIRE(c.rfind("hsl(", 0) == 0);
    const double hue = std::stod(c.substr(4));
    INFO("epoch " << e << ": " << c);
    CHECK(hue >= 30);                  // not red (0 +- 30)
    CHECK(hue <= 330);                 // not red
    CHECK(!(hue > 60 && hue < 165));   // not green
    CHECK(!(hue > 205 && hue < 240));  // not the high watermark's blue
  }
  // Neighbouring epochs (one election apart) differ in hue by far.
  auto hue = [](std::int64_t e) { return std::stod(svg::epoch_color(e).substr(4)); };
  CHECK(std::abs(hue(0) - hue(1)) > 30);
  CHECK(std::abs(hue(1) - hue(2)) > 30);
}

TEST_CASE("html: a timeline's spans and markers, escaped, with its verdict", "[report][html]") {
  Value a = Value::array(), b = Value::array();
  a.push(span(300, 0, 5)).push(span(301, 5, 8));
  b.push(span(300, 0, 5)).push(span(302, 5, 9));
  Value replicas = Value::array();
  replicas.push(replica("b1/<d>-0", std::move(a), 8, 5, 5))
      .push(replica("b2/d-0", std::move(b), 9, 9, Value()));
  const Value report = Value::object()
                           .set("summary", "b1 truncates to 5 & loses <3> records")
                           .set("topic", "d")
                           .set("partition", 0)
                           .set("timeline", Value::object()
                                                .set("from", 0)
                                                .set("to", 9)
                                                .set("fork", 5)
                                                .set("reference", "b2/d-0")
                                                .set("replicas", std::move(replicas)));
  const std::string page = timeline_page(report, "kepoch diff");
  CHECK(page.find("<h1 id=\"verdict\">b1 truncates to 5 &amp; loses &lt;3&gt; records</h1>") !=
        std::string::npos);
  CHECK(page.find("<d>") == std::string::npos);
  CHECK(count(page, "class=\"span\"") == 4);
  CHECK(page.find("data-replica=\"b1/&lt;d&gt;-0\" data-epoch=\"301\" data-start=\"5\" "
                  "data-end=\"8\"") != std::string::npos);
  CHECK(count(page, "data-kind=\"fork\" data-offset=\"5\"") == 1);
  CHECK(count(page, "data-kind=\"hw\"") == 2);
  CHECK(count(page, "data-kind=\"truncate_to\"") == 1);
  CHECK(count(page, "data-kind=\"break\"") == 0);  // 9 offsets fit
  CHECK(count(page, "<li data-epoch=") == 3);      // 300, 301, 302
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("http") == page.find("http://www.w3.org/2000/svg"));
}

TEST_CASE("html: a fork 200 offsets before the end of 50 M offsets is drawn to scale",
          "[report][html]") {
  const std::int64_t end = 50'000'000, fork = end - 200;
  Value a = Value::array(), b = Value::array();
  a.push(span(500, 0, end));
  b.push(span(500, 0, fork)).push(span(501, fork, end));
  Value replicas = Value::array();
  replicas.push(replica("a/f-0", std::move(a), end, fork, fork))
      .push(replica("b/f-0", std::move(b), end, end, Value()));
  const Value report = Value::object()
                           .set("topic", "f")
                           .set("partition", 0)
                           .set("timeline", Value::object()
                                                .set("from", 0)
                                                .set("to", end)
                                                .set("fork", fork)
                                                .set("reference", "b/f-0")
                                                .set("replicas", std::move(replicas)));
  const std::string page = timeline_page(report, "kepoch diff");
  CHECK(count(page, "data-kind=\"break\"") == 1);
  // The epoch-501 span (the 200 divergent offsets) is most of the plot wide.
  const std::regex wide(
      "data-epoch=\"501\" data-start=\"49999800\" data-end=\"50000000\" data-part=\"whole\" "
      "x=\"([0-9.]+)\" y=\"[0-9.]+\" width=\"([0-9.]+)\"");
  std::smatch m;
  REQUIRE(std::regex_search(page, m, wide));
  CHECK(std::stod(m[2].str()) > 400);
  // a's one span crosses the break: drawn in two parts, both carrying the span's offsets.
  CHECK(count(page,
              "data-replica=\"a/f-0\" data-epoch=\"500\" data-start=\"0\" "
              "data-end=\"50000000\"") == 2);
}

TEST_CASE("html: metadata history lanes", "[report][html]") {
  Value steps = Value::array();
  steps.push(Value::object()
                 .set("offset", 10)
                 .set("snapshot", Value())
                 .set("causes", Value::array().push("created"))
                 .set("leader", 1)
                 .set("leader_epoch", 0)
                 .set("isr", Value::array().push(1).push(2)));
  steps.push(Value::object()
                 .set("offset", 20)
                 .set("snapshot", Value())
                 .set("causes", Value::array().push("leader_change").push("isr_shrink"))
                 .set("leader", 2)
                 .set("leader_epoch", 1)
                 .set("isr", Value::array().push(2)));
  Value partitions = Value::array();
  partitions.push(
      Value::object().set("topic", "t<x>").set("partition", 0).set("steps", std::move(steps)));
  Value brokers = Value::array();
  brokers.push(Value::object()
                   .set("offset", 15)
                   .set("snapshot", Value())
                   .set("broker_id", 1)
                   .set("event", "fenced"));
  const std::string page = history_page(Value::object()
                                            .set("target", "meta")
                                            .set("partitions", std::move(partitions))
                                            .set("brokers", std::move(brokers)));
  CHECK(count(page, "class=\"step\"") == 2);
  CHECK(count(page, "data-kind=\"isr_shrink\" data-offset=\"20\"") == 1);
  CHECK(count(page, "data-kind=\"broker_event\" data-broker=\"1\" data-event=\"fenced\"") == 1);
  CHECK(count(page, "data-state=\"fenced\"") == 1);
  CHECK(page.find("t<x>") == std::string::npos);
  CHECK(page.find("1 leader change") != std::string::npos);
}
