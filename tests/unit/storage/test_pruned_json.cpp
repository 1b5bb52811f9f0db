// JSON parsed into only what a reader reads: the members it names, containers where it
// expects scalars kept as far as a quote shows them, refused elements capped.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "kepoch/storage/pruned_json.hpp"

using kepoch::JsonShape;
using kepoch::kMaxWrongElements;
using kepoch::parse_pruned_json;
using nlohmann::json;

namespace {

std::string many(const std::string& value, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i)
    out += (i ? "," : "") + value;
  return out;
}

}  // namespace

TEST_CASE("pruned JSON keeps what the shape names and parses the rest unbuilt",
          "[storage][pruned_json]") {
  const JsonShape scalar = JsonShape::scalar();
  const JsonShape pair = JsonShape::array(&scalar, 2);
  const JsonShape pairs = JsonShape::array(&pair);
  const JsonShape inner = JsonShape::object({{"a", &scalar}, {"b", &scalar}});
  const JsonShape line =
      JsonShape::object({{"n", &scalar}, {"pairs", &pairs}, {"o", &inner}, {"s", &scalar}});

  SECTION("what the shape names is as json::parse builds it") {
    const std::string text = R"({"n":1,"pairs":[[1,2],[3,4]],"o":{"a":"x","b":null},"s":"t"})";
    CHECK(parse_pruned_json(text, line) == json::parse(text));
  }
  SECTION("members the shape does not name are not built, at any depth") {
    const std::string text =
        R"({"n":1,"zz":[)" + many("{}", 100000) + R"(],"o":{"a":1,"b":2,"c":[[[1]]]},"s":"t"})";
    CHECK(parse_pruned_json(text, line) == json::parse(R"({"n":1,"o":{"a":1,"b":2},"s":"t"})"));
  }
  SECTION("a container where a scalar belongs: kept for the quote, then empty") {
    const json deep = parse_pruned_json(R"({"n":[[[[[[[1]]]]]]]})", line);
    CHECK(deep["n"] == json::parse("[[[[[[]]]]]]"));  // 4 levels shown, "..." below
    const json wide = parse_pruned_json(R"({"n":[)" + many("{}", 100000) + "]}", line);
    CHECK(wide["n"].size() == kepoch::kQuoteBudget);
    const json both = parse_pruned_json(
        R"({"n":[)" + many("{}", 1000) + R"(],"s":[)" + many("{}", 1000) + "]}", line);
    CHECK(both["n"].size() == kepoch::kQuoteBudget);
    CHECK(both["s"] == json::array());  // the line's budget spent: kept empty
  }
  SECTION("an array keeps its first refused elements, and a tuple its first elements") {
    const json p = parse_pruned_json(
        R"({"pairs":[[1,2],)" + many("{}", 1000) + "," + many("[1]", 1000) + "]}", line);
    REQUIRE(p["pairs"].size() == 1 + kMaxWrongElements);
    CHECK(p["pairs"][0] == json::parse("[1,2]"));
    CHECK(p["pairs"][1] == json::object());
    const json t = parse_pruned_json(R"({"pairs":[[)" + many("7", 1000) + "]]}", line);
    CHECK(t["pairs"][0].size() == kMaxWrongElements);
  }
  SECTION("a text that is an array is kept to be quoted; bad JSON throws as json::parse") {
    CHECK(parse_pruned_json("[1,[2]]", line) == json::parse("[1,[2]]"));
    for (const std::string bad : {R"({"n":)", R"({"n":1e999})", R"({"zz":[})", "{} x"}) {
      std::string expected;
      try {
        const json j = json::parse(bad);
        FAIL("parsed: " << j.dump());
      } catch (const json::exception& e) {
        expected = e.what();
      }
      REQUIRE_FALSE(expected.empty());
      CHECK_THROWS_WITH(parse_pruned_json(bad, line), expected);
    }
  }
}
