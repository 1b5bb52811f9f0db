// The opening sentence of `checkpoint dump` / `validate` for one file (issue 38): intact,
// readable with warnings, or not usable as written, and what Kafka does with it.
#include <catch2/catch.hpp>

#include "format/check_helpers.hpp"
#include "kepoch/report/checkpoint_report.hpp"

using kepoch::CheckDepth;
using kepoch::report::checkpoint_summary;

TEST_CASE("checkpoint summary: an intact file says so and what Kafka does",
          "[report][checkpoint]") {
  const auto r = test::validate("0\n2\n0 0\n3 5\n", test::kEpochs);
  CHECK(checkpoint_summary(r, CheckDepth::validate) ==
        "/data/t-0/file is intact: 2 epoch entries, no problem. Kafka loads it.");
  CHECK(checkpoint_summary(r, CheckDepth::dump) ==
        "/data/t-0/file is intact: 2 epoch entries, no problem. Kafka reads it.");
}

TEST_CASE("checkpoint summary: warnings are counted and the first is quoted with its line",
          "[report][checkpoint]") {
  const auto r = test::validate("0\n2\n0 0\n0 5\n", test::kEpochs);
  REQUIRE(r.valid);
  REQUIRE(test::warnings(r).size() == 1);
  CHECK(checkpoint_summary(r, CheckDepth::validate) ==
        "/data/t-0/file is readable (2 epoch entries) with 1 warning, the first at line 4: " +
            test::warnings(r)[0] + ". Kafka loads it.");
}

TEST_CASE("checkpoint summary: an unusable file names its first error, where, and Kafka's action",
          "[report][checkpoint]") {
  const auto r = test::validate("0\n2\n0 0\n1 5 x\n", test::kEpochs);
  REQUIRE(!r.valid);
  const std::string s = checkpoint_summary(r, CheckDepth::validate);
  CHECK(s.rfind("/data/t-0/file is not usable as written (line 4: expected 2 fields", 0) == 0);
  CHECK(s.find(r.kafka_action) != std::string::npos);
  CHECK(s.find("is intact") == std::string::npos);
}
