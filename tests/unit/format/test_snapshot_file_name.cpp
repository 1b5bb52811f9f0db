// Pins Snapshots.parse and Snapshots.filenameFromSnapshotId: the KRaft snapshot names Kafka
// writes, the partial and deleted ones it deletes at start, and the names it cannot parse.
#include <catch2/catch.hpp>

#include "kepoch/format/snapshot_file_name.hpp"

using kepoch::parse_snapshot_file_name;
using kepoch::SnapshotFileState;
using kepoch::SnapshotId;

TEST_CASE("a frozen snapshot's name gives its end offset and epoch", "[format][snapshot]") {
  const auto f = parse_snapshot_file_name("00000000000000000646-0000000002.checkpoint");
  REQUIRE(f);
  CHECK(f->state == SnapshotFileState::frozen);
  REQUIRE(f->id);
  CHECK(*f->id == SnapshotId{646, 2});
  CHECK(kepoch::snapshot_file_stem(*f->id) == "00000000000000000646-0000000002");
  CHECK(kepoch::snapshot_id_text(*f->id) == "646-2");
}

TEST_CASE("partial and deleted snapshots are told apart", "[format][snapshot]") {
  // Snapshots.createTempFile: "<id>-<random>.checkpoint.part"; markForDelete: ".deleted".
  const auto part =
      parse_snapshot_file_name("00000000000000000646-0000000002-123456.checkpoint.part");
  REQUIRE(part);
  CHECK(part->state == SnapshotFileState::partial);
  CHECK(part->id == SnapshotId{646, 2});
  const auto del = parse_snapshot_file_name("00000000000000000646-0000000002.checkpoint.deleted");
  REQUIRE(del);
  CHECK(del->state == SnapshotFileState::deleted);
  CHECK_FALSE(parse_snapshot_file_name("00000000000000000646.log"));
  CHECK_FALSE(parse_snapshot_file_name("leader-epoch-checkpoint"));
}

TEST_CASE("names Snapshots.parse throws on", "[format][snapshot]") {
  // Long.parseLong of the first 20 characters.
  const auto boot = parse_snapshot_file_name("bootstrap.checkpoint");
  REQUIRE(boot);
  CHECK_FALSE(boot->id);
  CHECK(boot->kafka_failure ==
        "java.lang.NumberFormatException: For input string: \"bootstrap.checkpoint\"");
  // String.substring past the end.
  const auto short_name = parse_snapshot_file_name("1-1.checkpoint");
  REQUIRE(short_name);
  CHECK(short_name->kafka_failure ==
        "java.lang.StringIndexOutOfBoundsException: begin 0, end 20, length 14");
}
