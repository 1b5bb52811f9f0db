// The shared renderers: one value, three formats; problems on stderr in table form.
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "kepoch/format/checkpoint_check.hpp"
#include "kepoch/report/checkpoint_report.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/report/render_detail.hpp"

using namespace kepoch;
using report::Value;

namespace {

Value sample() {
  const auto r = check_checkpoint("0\n2\n0 0\n1 x\n", "/d/t-0/leader-epoch-checkpoint",
                                  {CheckpointKind::leader_epoch}, {}, CheckDepth::validate);
  return Value::array().push(report::checkpoint_value(r, CheckDepth::validate));
}

struct Output {
  std::string out, err;
};

Output run(const Value& v, report::Format f) {
  std::ostringstream out, err;
  report::render(v, f, out, err, {});
  return {out.str(), err.str()};
}

}  // namespace

TEST_CASE("JSON: an array of file objects with the documented fields", "[report][render]") {
  const auto j = nlohmann::json::parse(run(sample(), report::Format::json).out);
  REQUIRE(j.is_array());
  REQUIRE(j.size() == 1);
  const auto& f = j[0];
  CHECK(f["file"] == "/d/t-0/leader-epoch-checkpoint");
  CHECK(f["kind"] == "leader-epoch");
  CHECK(f["version"] == 0);
  CHECK(f["entries"] == nlohmann::json::parse(R"([{"epoch":0,"start_offset":0}])"));
  CHECK(f["valid"] == false);
  CHECK(f["kafka_outcome"] == "startup-fatal");
  CHECK(f["loaded_entries"].is_null());
  REQUIRE(f["problems"].size() == 1);
  CHECK(f["problems"][0]["severity"] == "error");
  CHECK(f["problems"][0]["line"] == 4);
  CHECK(f["problems"][0]["kafka_exception"] == "java.lang.NumberFormatException");
}

// render_json writes as it walks the Value; its bytes must stay nlohmann's dump(2) of the
// whole tree, which it was before (every command's -o json, plan's over a big cluster too).
TEST_CASE("JSON: written as the tree is walked, byte for byte nlohmann's dump",
          "[report][render]") {
  Value v =
      Value::object()
          .set("summary", "a \"quoted\"\nline\twith \x01 and \xff\xfe bytes")
          .set("empty_object", Value::object())
          .set("empty_array", Value::array())
          .set("n", std::int64_t{-42})
          .set("x", 0.1)
          .set("big", 1e300)
          .set("yes", true)
          .set("none", Value())
          .set("nested", Value::array()
                             .push(Value::object().set("k", Value::array().push(Value::array())))
                             .push(Value::array().push(std::int64_t{1}).push("two"))
                             .push(Value::object()
                                       .set("dup", std::int64_t{1})
                                       .set("other", Value::object().set("deep", "d"))
                                       .set("dup", Value::array().push(std::int64_t{2}))));
  const std::vector<const Value*> pieces{&v, v.find("nested"), v.find("n"), v.find("empty_object")};
  for (const Value* w : pieces) {
    std::ostringstream out;
    report::render_json(*w, out);
    CHECK(out.str() == report::detail::to_json(*w).dump(2, ' ', false,
                                                        nlohmann::json::error_handler_t::replace) +
                           "\n");
  }
  // The key set twice keeps its first place and takes its last value (ordered_json's []).
  std::ostringstream out;
  report::render_json(*v.find("nested"), out);
  CHECK(out.str().find("\"dup\": [\n      2\n    ],\n    \"other\"") != std::string::npos);
}

TEST_CASE("YAML: the same tree, strings that look like numbers stay strings", "[report][render]") {
  Value v = Value::object().set("topic", "0").set("count", 0).set("flag", "true").set("empty", "");
  const auto y = YAML::Load(run(v, report::Format::yaml).out);
  CHECK(y["topic"].Tag() == "!");  // quoted: a string
  CHECK(y["topic"].as<std::string>() == "0");
  CHECK(y["count"].as<int>() == 0);
  CHECK(y["flag"].Tag() == "!");
  CHECK(y["empty"].as<std::string>().empty());
  const auto doc = YAML::Load(run(sample(), report::Format::yaml).out);
  REQUIRE(doc.IsSequence());
  CHECK(doc[0]["kafka_outcome"].as<std::string>() == "startup-fatal");
  CHECK(doc[0]["problems"][0]["line"].as<int>() == 4);
}

TEST_CASE("table: aligned fields and columns on stdout, problems on stderr", "[report][render]") {
  const auto o = run(sample(), report::Format::table);
  CHECK_THAT(o.out, Catch::Contains("kind            leader-epoch"));
  CHECK_THAT(o.out, Catch::Contains("  EPOCH  START_OFFSET\n  0      0\n"));
  CHECK_THAT(o.out, Catch::Contains("problems        1 error, 0 warnings (on stderr)"));
  CHECK(o.err ==
        "/d/t-0/leader-epoch-checkpoint:4: error: start offset \"x\" is not a long (Kafka: "
        "NumberFormatException: For input string: \"x\")\n");
  CHECK(o.out.find("\x1b[") == std::string::npos);  // no colour unless asked
}

TEST_CASE("table: colour only when asked", "[report][render]") {
  std::ostringstream out, err;
  report::RenderOptions colour;
  colour.color_out = colour.color_err = true;
  report::render(sample(), report::Format::table, out, err, colour);
  CHECK(out.str().find("\x1b[1m") != std::string::npos);
  CHECK(err.str().find("\x1b[31merror") != std::string::npos);
}
