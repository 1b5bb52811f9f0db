// Times in a report by the field-name rule: ISO 8601 in table and YAML, "_iso" beside the
// epoch milliseconds in JSON, NO_TIMESTAMP (-1) as none/null, in whole and streamed output.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>

#include "kepoch/report/render.hpp"
#include "kepoch/report/stream.hpp"
#include "kepoch/report/time_fields.hpp"

using namespace kepoch;
using report::Value;

namespace {

Value batch(std::int64_t max_timestamp) {
  return Value::object()
      .set("base_offset", 5)
      .set("max_timestamp", max_timestamp)
      .set("timestamp_type", "create-time");
}

std::string rendered(const Value& v, report::Format f) {
  std::ostringstream out, err;
  report::RenderOptions options;
  options.iso_times = true;
  report::render(v, f, out, err, options);
  return out.str();
}

}  // namespace

TEST_CASE("the rule: timestamp and *_timestamp, integers only", "[report][time]") {
  CHECK(report::is_time_field("timestamp"));
  CHECK(report::is_time_field("max_timestamp"));
  CHECK(report::is_time_field("last_contained_log_timestamp"));
  CHECK_FALSE(report::is_time_field("timestamp_type"));
  CHECK_FALSE(report::has_time_fields(Value::object().set("timestamp", "create-time")));
  CHECK(report::has_time_fields(
      Value::array().push(Value::object().set("batches", Value::array().push(batch(1))))));
}

TEST_CASE("JSON keeps the milliseconds and adds <name>_iso after them", "[report][time]") {
  const auto j = nlohmann::ordered_json::parse(
      rendered(Value::array().push(batch(1796182873123)).push(batch(-1)), report::Format::json));
  CHECK(j[0]["max_timestamp"] == 1796182873123);
  CHECK(j[0]["max_timestamp_iso"] == "2026-12-02T03:41:13.123Z");
  CHECK(j[0]["timestamp_type"] == "create-time");
  std::vector<std::string> keys;
  for (const auto& [k, v] : j[0].items())
    keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"base_offset", "max_timestamp", "max_timestamp_iso",
                                         "timestamp_type"});
  CHECK(j[1]["max_timestamp"] == -1);
  CHECK(j[1]["max_timestamp_iso"].is_null());
}

TEST_CASE("table and YAML show the ISO text, NO_TIMESTAMP is none and null", "[report][time]") {
  const Value v =
      Value::object().set("batches", Value::array().push(batch(1796182873123)).push(batch(-1)));
  const std::string table = rendered(v, report::Format::table);
  CHECK(table.find("2026-12-02T03:41:13.123Z") != std::string::npos);
  CHECK(table.find("none") != std::string::npos);
  CHECK(table.find("1796182873123") == std::string::npos);
  CHECK(table.find("1969") == std::string::npos);
  const std::string yaml = rendered(v, report::Format::yaml);
  CHECK(yaml.find("max_timestamp: 2026-12-02T03:41:13.123Z") != std::string::npos);
  CHECK(yaml.find("max_timestamp: ~") != std::string::npos);
  CHECK(yaml.find("_iso") == std::string::npos);
}

TEST_CASE("the streams show times as the whole-value renderers do", "[report][time]") {
  for (auto format : {report::Format::json, report::Format::table, report::Format::yaml}) {
    std::ostringstream out, err;
    report::RenderOptions options;
    options.iso_times = true;
    auto stream = report::make_stream(format, out, err, options);
    stream->begin_item(Value::object().set("file", "f.log"), "batches");
    stream->write_element([](report::ObjectWriter& w) {
      w.integer("base_offset", 5);
      w.integer("max_timestamp", 1796182873123);
      w.begin_objects("records");
      w.begin_object();
      w.integer("timestamp", -1);
      w.end_object();
      w.end_objects();
    });
    stream->end_item(Value::object());
    stream->finish();
    const Value whole = Value::array().push(
        Value::object()
            .set("file", "f.log")
            .set("batches",
                 Value::array().push(Value::object()
                                         .set("base_offset", 5)
                                         .set("max_timestamp", 1796182873123)
                                         .set("records", Value::array().push(Value::object().set(
                                                             "timestamp", -1))))));
    if (format == report::Format::json) {
      CHECK(nlohmann::json::parse(out.str()) == nlohmann::json::parse(rendered(whole, format)));
    } else {
      CHECK(out.str().find("2026-12-02T03:41:13.123Z") != std::string::npos);
      CHECK(out.str().find(format == report::Format::table ? "timestamp: none" : "timestamp: ~") !=
            std::string::npos);
    }
  }
}
