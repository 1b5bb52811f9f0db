// Times in a report by the field-name rule: ISO 8601 in table and YAML, "_iso" beside the
// epoch milliseconds in JSON, NO_TIMESTAMP (-1) as none/null, in whole and streamed output.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string>
#include <string_view>

#include "kepoch/report/object_writer.hpp"
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

namespace {

// A streamed dump's shape: runs of integer members holding time fields (the record's
// timestamp mid-run, a batch's two at the run's end), records sharing a millisecond, one
// moving on, one with NO_TIMESTAMP; as runs (by_run) or member by member.
std::string streamed_runs(report::Format format, bool by_run) {
  static constexpr std::string_view kBatch[] = {"producer_id", "base_timestamp", "max_timestamp"};
  static constexpr std::string_view kRecord[] = {"offset", "timestamp", "sequence", "size"};
  const auto write = [&](report::ObjectWriter& w, const report::MemberNames& names,
                         std::span<const std::int64_t> values) {
    if (by_run) return w.integers(names, values);
    for (std::size_t i = 0; i < values.size(); ++i)
      w.integer(names.names()[i], values[i]);
  };
  std::ostringstream out, err;
  report::RenderOptions options;
  options.iso_times = true;
  auto stream = report::make_stream(format, out, err, options);
  stream->begin_item(Value::object().set("file", "f.log"), "batches");
  for (int batch = 0; batch < 2; ++batch) {
    stream->write_element([&](report::ObjectWriter& w) {
      const std::int64_t head[] = {-1, 1796182873123, 1796182873124 + batch};
      write(w, kBatch, head);
      w.begin_objects("records");
      const std::int64_t times[] = {1796182873123, 1796182873123, 1796182873124, -1, 1796182873124};
      for (int r = 0; r < 5; ++r) {
        w.begin_object();
        const std::int64_t record[] = {r, times[r], -1, 100 + r};
        write(w, kRecord, record);
        w.end_object();
      }
      w.end_objects();
    });
  }
  stream->end_item(Value::object());
  stream->finish();
  return out.str();
}

}  // namespace

TEST_CASE("runs of integer members holding time fields print what the members one by one print",
          "[report][time]") {
  for (auto format : {report::Format::json, report::Format::table, report::Format::yaml}) {
    const std::string by_member = streamed_runs(format, false);
    CHECK(streamed_runs(format, true) == by_member);
    CHECK(by_member.find("03:41:13.124Z") != std::string::npos);
  }
  const auto json = nlohmann::ordered_json::parse(streamed_runs(report::Format::json, true));
  const auto& record = json[0]["batches"][1]["records"][3];
  CHECK(record.dump() ==
        R"({"offset":3,"timestamp":-1,"timestamp_iso":null,"sequence":-1,"size":103})");
  CHECK(json[0]["batches"][1]["max_timestamp_iso"] == "2026-12-02T03:41:13.125Z");
}
