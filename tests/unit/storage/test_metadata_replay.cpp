// Pins where a metadata history starts, after the rules a starting KRaft node follows:
// LogLoader's log start (the first segment's base offset), KafkaMetadataLog.recoverSnapshots
// (snapshots below the log start are dropped; none reaching a log start above 0 is an
// inconsistent state), KafkaMetadataLog.truncateToLatestSnapshot (a latest snapshot past the
// log end, or of a newer epoch, replaces the log) and KafkaRaftClient.updateListenersProgress
// (a snapshot, then the log from its end offset).
#include <catch2/catch.hpp>

#include "kepoch/storage/metadata_replay.hpp"

using kepoch::choose_metadata_start;
using kepoch::MetadataLogShape;
using kepoch::MetadataStartRule;
using kepoch::SnapshotId;

namespace {

MetadataLogShape shape(std::int64_t start, std::int64_t end, std::int32_t epoch,
                       std::vector<SnapshotId> snapshots) {
  MetadataLogShape s;
  s.log_start_offset = start;
  s.log_end_offset = end;
  s.latest_epoch = epoch;
  s.snapshots = std::move(snapshots);
  return s;
}

}  // namespace

TEST_CASE("a log from offset 0 is replayed whole, whatever snapshots follow",
          "[storage][metadata_replay]") {
  const auto s = choose_metadata_start(shape(0, 646, 2, {{300, 1}, {600, 2}}));
  CHECK(s.rule == MetadataStartRule::log_start);
  CHECK_FALSE(s.snapshot);
  CHECK(s.read_log);
  CHECK(s.from_offset == 0);
}

TEST_CASE("a bootstrap snapshot (end offset 0) precedes the log", "[storage][metadata_replay]") {
  const auto s = choose_metadata_start(shape(0, 40, 1, {{0, 0}, {30, 1}}));
  CHECK(s.rule == MetadataStartRule::bootstrap_then_log);
  CHECK(s.snapshot == SnapshotId{0, 0});
  CHECK(s.from_offset == 0);
}

TEST_CASE("a cleaned log starts at the oldest snapshot reaching the log start",
          "[storage][metadata_replay]") {
  // deleteBeforeSnapshot(128) advanced the log start to 128 and kept the segment at 126.
  const auto s = choose_metadata_start(shape(126, 182, 1, {{128, 1}, {138, 1}, {177, 1}}));
  CHECK(s.rule == MetadataStartRule::oldest_snapshot);
  CHECK(s.snapshot == SnapshotId{128, 1});
  CHECK(s.read_log);
  CHECK(s.from_offset == 128);
  // recoverSnapshots drops snapshots below the log start.
  const auto t = choose_metadata_start(shape(126, 182, 1, {{100, 1}, {138, 1}}));
  CHECK(t.snapshot == SnapshotId{138, 1});
}

TEST_CASE("truncateToLatestSnapshot: a snapshot past the log end replaces the log",
          "[storage][metadata_replay]") {
  const auto s = choose_metadata_start(shape(126, 150, 1, {{128, 1}, {200, 1}}));
  CHECK(s.rule == MetadataStartRule::latest_snapshot);
  CHECK(s.snapshot == SnapshotId{200, 1});
  CHECK_FALSE(s.read_log);
  // A snapshot of a newer epoch than the log's, even below its end.
  const auto t = choose_metadata_start(shape(126, 182, 1, {{128, 1}, {150, 2}}));
  CHECK(t.rule == MetadataStartRule::latest_snapshot);
  CHECK(t.snapshot == SnapshotId{150, 2});
  // No segment at all: Kafka opens an empty log at 0 and starts at the latest snapshot.
  MetadataLogShape none;
  none.snapshots = {{0, 0}, {90, 3}};
  const auto u = choose_metadata_start(none);
  CHECK(u.rule == MetadataStartRule::latest_snapshot);
  CHECK(u.snapshot == SnapshotId{90, 3});
}

TEST_CASE("a cleaned log no snapshot reaches is replayed from its start",
          "[storage][metadata_replay]") {
  // recoverSnapshots: "Inconsistent snapshot state" (Kafka does not load it).
  const auto s = choose_metadata_start(shape(126, 182, 1, {{100, 1}}));
  CHECK(s.rule == MetadataStartRule::no_covering_snapshot);
  CHECK_FALSE(s.snapshot);
  CHECK(s.from_offset == 126);
}
