// The streaming renderers: JSON lines writes one object per element carrying its item's
// id, then one closing line per item; the table shows a nested object on one line.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "kepoch/report/checkpoint_report.hpp"
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

// A checkpoint streamed (entries and loaded_entries element by element, a partition.metadata
// whole) is the document the whole-value renderer prints, in JSON and YAML alike.
TEST_CASE("checkpoint reports streamed: two lists per item, items without a list",
          "[report][stream]") {
  using kepoch::CheckDepth;
  const kepoch::CheckpointType epochs{kepoch::CheckpointKind::leader_epoch};
  const kepoch::CheckpointType offsets{kepoch::CheckpointKind::offsets,
                                       kepoch::OffsetsRole::high_watermark};
  const kepoch::CheckpointType metadata{kepoch::CheckpointKind::partition_metadata};
  const std::vector<kepoch::CheckpointReport> reports = {
      kepoch::check_checkpoint("0\n3\n0 0\n2 5\n1 9\n", "e", epochs, {}, CheckDepth::validate),
      kepoch::check_checkpoint("0\n2\nt 0 5\nt 0 6\n", "o", offsets, {}, CheckDepth::validate),
      kepoch::check_checkpoint("version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ\n", "p", metadata, {},
                               CheckDepth::validate),
      kepoch::check_checkpoint("0\n1\n", "c", epochs, {}, CheckDepth::dump),
      kepoch::check_checkpoint("1\n", "bad", epochs, {}, CheckDepth::validate),
  };
  Value whole = Value::array();
  for (const auto& r : reports)
    whole.push(kepoch::report::checkpoint_value(
        r, r.file == "c" ? CheckDepth::dump : CheckDepth::validate));
  for (const auto format : {kepoch::report::Format::json, kepoch::report::Format::yaml}) {
    std::ostringstream streamed, err, rendered;
    auto s = kepoch::report::make_stream(format, streamed, err, {});
    for (const auto& r : reports)
      kepoch::report::write_checkpoint(*s, r,
                                       r.file == "c" ? CheckDepth::dump : CheckDepth::validate);
    s->finish();
    kepoch::report::render(whole, format, rendered, err);
    if (format == kepoch::report::Format::json) {
      CHECK(nlohmann::json::parse(streamed.str()) == nlohmann::json::parse(rendered.str()));
    } else {
      CHECK(YAML::Dump(YAML::Load(streamed.str())) == YAML::Dump(YAML::Load(rendered.str())));
    }
  }
  std::ostringstream table, err;
  auto t = kepoch::report::make_stream(kepoch::report::Format::table, table, err, {});
  for (const auto& r : reports)
    kepoch::report::write_checkpoint(*t, r, CheckDepth::validate);
  t->finish();
  CHECK_THAT(table.str(),
             Catch::Contains("loaded_entries:\n  EPOCH  START_OFFSET\n  0      0\n  1      9\n"));
  CHECK_THAT(table.str(), Catch::Contains("topic_id"));
  CHECK_THAT(err.str(), Catch::Contains("o:4: warning: t-0 already appears on line 3"));
}
