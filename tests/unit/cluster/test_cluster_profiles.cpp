#include <catch2/catch.hpp>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_profiles.hpp"

using namespace kepoch::cluster;
using Catch::Matchers::Contains;

namespace {

const char* kConfig =
    "clusters:\n"
    "  prod:\n"
    "    bootstrap: \"k1:9093,k2:9093\"\n"
    "    command_config: prod.properties\n"
    "    properties:\n"
    "      sasl.username: ops\n"
    "      socket.timeout.ms: 4000\n"
    "  local:\n"
    "    bootstrap: localhost:9092\n";

std::string error_of(const std::string& yaml, std::string_view name = "prod") {
  try {
    find_cluster_profile(yaml, "/home/u/.config/kepoch/config.yaml", name);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("profiles: a named profile with its three parts and their lines", "[cluster][profiles]") {
  const auto p = find_cluster_profile(kConfig, "/home/u/.config/kepoch/config.yaml", "prod");
  CHECK(p.name == "prod");
  CHECK(p.line == 2);
  CHECK(p.bootstrap == "k1:9093,k2:9093");
  CHECK(p.bootstrap_line == 3);
  CHECK(p.command_config == std::filesystem::path("/home/u/.config/kepoch/prod.properties"));
  REQUIRE(p.properties.size() == 2);
  CHECK(p.properties[0].key == "sasl.username");
  CHECK(p.properties[0].value == "ops");
  CHECK(p.properties[0].line == 6);
  CHECK(p.properties[1].value == "4000");
  const auto local = find_cluster_profile(kConfig, "/c.yaml", "local");
  CHECK(local.bootstrap == "localhost:9092");
  CHECK_FALSE(local.command_config);
}

TEST_CASE("profiles: a missing profile lists the known names", "[cluster][profiles]") {
  CHECK_THROWS_AS(find_cluster_profile(kConfig, "/c.yaml", "staging"), kepoch::UsageError);
  CHECK(error_of(kConfig, "staging") ==
        "no cluster profile 'staging' in /home/u/.config/kepoch/config.yaml (known: prod, local)");
  CHECK_THROWS_WITH(load_cluster_profile("/nonexistent/kepoch/config.yaml", "prod"),
                    "cluster profile 'prod' asked for, but /nonexistent/kepoch/config.yaml does "
                    "not exist");
}

TEST_CASE("profiles: malformed files name the line", "[cluster][profiles]") {
  CHECK(error_of("clusters:\n  prod:\n    bootstrap: x:1\n    bootstrp: y:2\n") ==
        "/home/u/.config/kepoch/config.yaml:4: unknown key clusters.prod.bootstrp (bootstrap, "
        "command_config, properties)");
  CHECK_THAT(error_of("clusters:\n  prod: [a\n"), Contains("config.yaml:"));
  CHECK_THAT(error_of("profiles:\n  prod: {}\n"), Contains("expected a top-level 'clusters:' map"));
  CHECK_THAT(error_of("clusters:\n  prod: {}\nextra: 1\n"),
             Contains("config.yaml:3: unknown top-level key extra"));
  CHECK_THAT(error_of("clusters:\n  prod: {}\n"),
             Contains("config.yaml:2: clusters.prod sets nothing"));
  CHECK_THAT(error_of("clusters:\n  prod:\n    properties: [a, b]\n"),
             Contains("config.yaml:3: clusters.prod.properties must be a map"));
  CHECK_THAT(error_of("clusters:\n  prod:\n    bootstrap:\n      - a\n"),
             Contains("clusters.prod.bootstrap must be a string"));
}

TEST_CASE("profiles: hostile files are one error naming the line, never a crash",
          "[cluster][profiles]") {
  // yaml-cpp's own message for too deep a nesting is "bad file"; its stack stays bounded.
  CHECK(error_of(std::string(100000, '[') + std::string(100000, ']')) ==
        "/home/u/.config/kepoch/config.yaml:1: nested 500 levels deep, more than yaml-cpp reads");
  // yaml-cpp keeps one of two equal keys silently: a profile given twice is refused.
  CHECK(error_of("clusters:\n  prod:\n    bootstrap: a:1\n  prod:\n    bootstrap: b:1\n") ==
        "/home/u/.config/kepoch/config.yaml:4: clusters.prod is given twice (also on line 2)");
  CHECK(error_of("clusters:\n  prod:\n    bootstrap: a:1\nclusters:\n  x: {}\n") ==
        "/home/u/.config/kepoch/config.yaml:4: clusters is given twice (also on line 1)");
}

TEST_CASE("profiles: use rewrites current_profile alone, every other line kept",
          "[cluster][profiles]") {
  const std::string text =
      "# clusters (comment kept)\nclusters:\n  prod:\n    bootstrap: k:1\n  \"odd name\":\n"
      "    bootstrap: k:2\n";
  const std::string once = kepoch::cluster::with_current_profile(text, "c.yaml", "prod");
  CHECK(once == "current_profile: prod\n" + text);
  const std::string twice = kepoch::cluster::with_current_profile(once, "c.yaml", "odd name");
  CHECK(twice == "current_profile: \"odd name\"\n" + text);
  const auto file = kepoch::cluster::parse_profiles_file(twice, "c.yaml");
  CHECK(file.current_profile == "odd name");
  CHECK(file.profiles.size() == 2);
  CHECK_THROWS_AS(kepoch::cluster::with_current_profile(text, "c.yaml", "nope"),
                  kepoch::UsageError);
  CHECK_THROWS_AS(kepoch::cluster::parse_profiles_file(text + "currnt_profile: prod\n", "c.yaml"),
                  kepoch::InputError);
}
