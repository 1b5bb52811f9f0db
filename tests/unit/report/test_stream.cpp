// The streaming renderers: JSON lines writes one object per element carrying its item's
// id, then one closing line per item; the table shows a nested object on one line.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "kepoch/report/stream.hpp"

using kepoch::report::Value;

namespace {

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    out.push_back(nlohmann::json::parse(line));
  return out;
}

void write_two_items(kepoch::report::ReportStream& s) {
  s.begin_item(Value::object().set("file", "a.log").set("kind", "log"), "batches");
  s.element(
      Value::object()
          .set("base_offset", 0)
          .set("records",
               Value::array().push(
                   Value::object()
                       .set("offset", 0)
                       .set("control",
                            Value::object().set("type", "commit").set("coordinator_epoch", 3)))));
  s.element(Value::object().set("base_offset", 1));
  s.end_item(Value::object().set("batch_count", 2).set("problems", Value::array()));
  s.begin_item(Value::object().set("file", "b.index"), "entries");
  s.element(Value::object().set("offset", 5));
  s.end_item(Value::object());
  s.finish();
}

}  // namespace

TEST_CASE("JSON lines: one line per element with its item's id, one closing line per item",
          "[report][stream]") {
  std::ostringstream out, err;
  auto s = kepoch::report::make_stream(kepoch::report::Format::jsonl, out, err, {});
  write_two_items(*s);
  const auto lines = json_lines(out.str());
  REQUIRE(lines.size() == 5);
  CHECK(lines[0]["file"] == "a.log");
  CHECK(lines[0]["batch"]["records"][0]["control"]["coordinator_epoch"] == 3);
  CHECK_FALSE(lines[0].contains("kind"));
  CHECK(lines[1]["batch"]["base_offset"] == 1);
  CHECK(lines[2] ==
        nlohmann::json::parse(R"({"file":"a.log","kind":"log","batch_count":2,"problems":[]})"));
  CHECK(lines[3] == nlohmann::json::parse(R"({"file":"b.index","entry":{"offset":5}})"));
  CHECK(lines[4] == nlohmann::json::parse(R"({"file":"b.index"})"));
  CHECK(err.str().empty());
}

TEST_CASE("JSON lines of a whole document: the document on one line", "[report][stream]") {
  std::ostringstream out, err;
  const Value v = Value::array().push(Value::object().set("file", "x").set("n", 1));
  kepoch::report::render(v, kepoch::report::Format::jsonl, out, err);
  CHECK(out.str() == "[{\"file\":\"x\",\"n\":1}]\n");
  CHECK(kepoch::report::format_from_name("jsonl") == kepoch::report::Format::jsonl);
}

TEST_CASE("table stream: a nested object under a row reads on one line", "[report][stream]") {
  std::ostringstream out, err;
  auto s = kepoch::report::make_stream(kepoch::report::Format::table, out, err, {});
  write_two_items(*s);
  CHECK_THAT(out.str(),
             Catch::Contains("| offset: 0 control: {type: commit, coordinator_epoch: 3}"));
}
