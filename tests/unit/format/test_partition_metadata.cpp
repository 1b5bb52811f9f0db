// Pins PartitionMetadataReadBuffer and where its failures land (UnifiedLog.initializeTopicId
// during log load: IOException -> dir offline, unchecked -> startup fails).
#include "check_helpers.hpp"

using kepoch::CheckpointKind;
using kepoch::KafkaOutcome;
using test::validate;

namespace {
const kepoch::CheckpointType kMeta{CheckpointKind::partition_metadata};
}

TEST_CASE("partition.metadata as Kafka writes it", "[format][partition_metadata]") {
  const auto r = validate("version: 0\ntopic_id: b8tRS7h4TJ2Vt43Dp85v2A", kMeta);
  CHECK(r.valid);
  REQUIRE(r.topic_id);
  CHECK(r.topic_id->to_string() == "b8tRS7h4TJ2Vt43Dp85v2A");
  CHECK(r.problems.empty());  // no trailing newline is Kafka's own format
}

TEST_CASE("partition.metadata failures", "[format][partition_metadata]") {
  struct Case {
    const char* text;
    KafkaOutcome outcome;
    const char* needle;
  };
  const Case cases[] = {
      {"", KafkaOutcome::startup_fatal, "line 1 is missing"},
      {"version: 0\n", KafkaOutcome::startup_fatal, "line 2 is missing"},
      {"version:0\ntopic_id: b8tRS7h4TJ2Vt43Dp85v2A", KafkaOutcome::dir_offline, "Malformed line"},
      {"version: x\ntopic_id: b8tRS7h4TJ2Vt43Dp85v2A", KafkaOutcome::dir_offline, "Malformed line"},
      {"version: -1\ntopic_id: b8tRS7h4TJ2Vt43Dp85v2A", KafkaOutcome::dir_offline,
       "Unrecognized version"},
      {"version: 0\ntopic_id: nope", KafkaOutcome::startup_fatal, "not a 22-character"},
      {"version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA", KafkaOutcome::dir_offline,
       "Invalid topic ID"},
      {"version: 0\ntopic_id:b8tRS7h4TJ2Vt43Dp85v2A", KafkaOutcome::dir_offline, "Malformed line"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto r = validate(c.text, kMeta);
    CHECK_FALSE(r.valid);
    CHECK(r.outcome == c.outcome);
    CHECK_THAT(test::first_error(r), Catch::Contains(c.needle));
  }
}

TEST_CASE("partition.metadata lint", "[format][partition_metadata]") {
  const auto r = validate("vers: 1\nid: b8tRS7h4TJ2Vt43Dp85v2A\nextra\n", kMeta);
  CHECK(r.valid);  // Kafka checks neither key, accepts newer versions, ignores extra lines
  CHECK(test::has_warning(r, "key \"vers\""));
  CHECK(test::has_warning(r, "key \"id\""));
  CHECK(test::has_warning(r, "version 1 is newer"));
  CHECK(test::has_warning(r, "ignored"));
}

TEST_CASE("replicas of one partition must share a topic id", "[format][partition_metadata]") {
  std::vector<kepoch::CheckpointReport> reports;
  const char* ids[] = {"b8tRS7h4TJ2Vt43Dp85v2A", "b8tRS7h4TJ2Vt43Dp85v2A",
                       "Zm9vYmFyYmF6cXV4MTIzNA"};
  int broker = 1;
  for (const char* id : ids) {
    auto r =
        kepoch::check_checkpoint(std::string("version: 0\ntopic_id: ") + id,
                                 "b" + std::to_string(broker++) + "/orders-0/partition.metadata",
                                 kMeta, {}, kepoch::CheckDepth::validate);
    reports.push_back(r);
  }
  kepoch::lint_topic_ids_across_replicas(reports);
  CHECK(test::has_warning(reports[0], "differs"));
  CHECK(test::has_warning(reports[2], "differs"));
  for (const auto& r : reports)
    CHECK(r.valid);
}
