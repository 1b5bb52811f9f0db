// Pins OffsetCheckpointFile acceptance and what LogManager, ReplicaManager and
// LogCleanerManager do with a bad file of each role.
#include "check_helpers.hpp"

using kepoch::CheckpointKind;
using kepoch::CheckpointType;
using kepoch::KafkaOutcome;
using kepoch::OffsetsRole;
using test::validate;

namespace {
CheckpointType role(OffsetsRole r) {
  return {CheckpointKind::offsets, r};
}
}  // namespace

TEST_CASE("offsets checkpoint: entries as written", "[format][offsets]") {
  const auto r =
      validate("0\n2\norders 0 1500\norders 1 1320\n", role(OffsetsRole::high_watermark));
  CHECK(r.valid);
  REQUIRE(r.offsets.size() == 2);
  CHECK(r.offsets[1].topic == "orders");
  CHECK(r.offsets[1].partition == 1);
  CHECK(r.offsets[1].offset == 1320);
  CHECK(r.problems.empty());
}

TEST_CASE("offsets checkpoint: an IOException takes the dir offline, whatever the role",
          "[format][offsets]") {
  for (auto rl : {OffsetsRole::recovery_point, OffsetsRole::log_start_offset,
                  OffsetsRole::high_watermark, OffsetsRole::cleaner_offset}) {
    const auto r = validate("0\n1\norders 0\n", role(rl));
    CHECK_FALSE(r.valid);
    CHECK(r.outcome == KafkaOutcome::dir_offline);
  }
}

TEST_CASE("offsets checkpoint: an unchecked exception's effect depends on the role",
          "[format][offsets]") {
  const char* text = "0\n1\norders x 5\n";  // NumberFormatException on the partition
  CHECK(validate(text, role(OffsetsRole::recovery_point)).outcome == KafkaOutcome::discarded);
  CHECK(validate(text, role(OffsetsRole::log_start_offset)).outcome == KafkaOutcome::discarded);
  CHECK(validate(text, role(OffsetsRole::high_watermark)).outcome == KafkaOutcome::metadata_fault);
  CHECK(validate(text, role(OffsetsRole::cleaner_offset)).outcome == KafkaOutcome::cleaner_stopped);
  const auto r = validate(text, role(OffsetsRole::recovery_point));
  CHECK_FALSE(r.valid);
  CHECK_THAT(r.kafka_action, Catch::Contains("recovery point"));
  CHECK(validate("0\n-2\n", role(OffsetsRole::high_watermark)).outcome ==
        KafkaOutcome::metadata_fault);
}

TEST_CASE("offsets checkpoint lint: duplicates, negatives, illegal topic names",
          "[format][offsets]") {
  const auto r =
      validate("0\n4\nt 0 5\nt 0 7\nt -1 -3\nbad/topic 0 1\n", role(OffsetsRole::recovery_point));
  CHECK(r.valid);
  CHECK(test::has_warning(r, "already appears on line 3"));
  CHECK(test::has_warning(r, "partition -1 is negative"));
  CHECK(test::has_warning(r, "offset -3 is negative"));
  CHECK(test::has_warning(r, "not a legal topic name"));
}

TEST_CASE("offsets checkpoint lint: each duplicate names the line of the same key just before it",
          "[format][offsets]") {
  // a-0 on lines 3, 5 and 7, b-0 between, a-1 apart: Kafka's map keeps line 7's value.
  const auto r =
      validate("0\n5\na 0 1\nb 0 2\na 0 3\na 1 4\na 0 5\n", role(OffsetsRole::recovery_point));
  CHECK(r.valid);
  CHECK(test::has_warning(r, "a-0 already appears on line 3"));
  CHECK(test::has_warning(r, "a-0 already appears on line 5"));
  CHECK_FALSE(test::has_warning(r, "b-0 already appears"));
  CHECK_FALSE(test::has_warning(r, "a-1 already appears"));
}
