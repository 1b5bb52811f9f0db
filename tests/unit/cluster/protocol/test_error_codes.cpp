// kepoch's error-code table against org.apache.kafka.common.protocol.Errors of Kafka 4.1.1
// as tests/protocol/gen-vectors printed it (tests/data/protocol/error-codes.json).
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "kepoch/cluster/protocol/error_codes.hpp"

using namespace kepoch::cluster::protocol;

TEST_CASE("Every Kafka error code, name, retriability and message", "[protocol]") {
  std::ifstream in(std::string(KEPOCH_SOURCE_DIR) + "/tests/data/protocol/error-codes.json");
  REQUIRE(in);
  const auto kafka = nlohmann::json::parse(in);
  REQUIRE(kafka.size() == error_codes().size());
  for (std::size_t i = 0; i < kafka.size(); ++i) {
    const auto& k = kafka[i];
    const auto& e = error_codes()[i];
    INFO(k.dump());
    CHECK(e.code == k.at("code").get<int>());
    CHECK(e.name == k.at("name").get<std::string>());
    CHECK(e.retriable == k.at("retriable").get<bool>());
    CHECK(e.message == k.at("message").get<std::string>());
    CHECK(find_error_code(e.code) == &e);
    CHECK(error_code_from_name(e.name) == e.code);
  }
}

TEST_CASE("Error code lookups", "[protocol]") {
  CHECK(error_code_name(6) == "NOT_LEADER_OR_FOLLOWER");
  CHECK(error_code_name(-1) == "UNKNOWN_SERVER_ERROR");
  CHECK(error_code_name(134) == "UNKNOWN_ERROR_CODE(134)");
  CHECK(error_code_name(-2) == "UNKNOWN_ERROR_CODE(-2)");
  CHECK(find_error_code(999) == nullptr);
  CHECK(error_code_from_name("NOPE") == std::nullopt);
  CHECK(errors::kNone == 0);
  CHECK(errors::kUnknownTopicOrPartition == 3);
  CHECK(errors::kNotLeaderOrFollower == 6);
  CHECK(errors::kUnsupportedVersion == 35);
  CHECK(errors::kSaslAuthenticationFailed == 58);
  CHECK(find_error_code(errors::kNotLeaderOrFollower)->retriable);
  CHECK_FALSE(find_error_code(errors::kSaslAuthenticationFailed)->retriable);
}
