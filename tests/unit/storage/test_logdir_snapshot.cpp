// Log dir snapshots on real Kafka 4.1.1 log dirs (divergence/before/broker-1, logdir): a
// snapshot read back holds the replica as load_partition_replica loads it, batches_from
// answers from it exactly what it answers from the segments wherever the kept windows reach
// and says so where they do not; malformed files are refused with file, line and what was
// expected.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/consumer_view.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"
#include "kepoch/storage/replica_diff.hpp"
#include "kepoch/storage/replica_forecast.hpp"
#include "support/forecast_fixtures.hpp"
#include "support/same_reads.hpp"

namespace fs = std::filesystem;
using namespace kepoch;
using test::forecast_from;
using test::same_log;
using test::same_range;

namespace {

const fs::path kBroker1 = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/divergence/before/broker-1";
const fs::path kLogDir = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/logdir";

std::string snapshot_text(const fs::path& log_dir, std::uint32_t window = 16) {
  std::ostringstream out;
  write_logdir_snapshot(out, {log_dir}, SnapshotOptions{window});
  return out.str();
}

const PartitionReplica& find(const LogDirSnapshot& s, const std::string& topic) {
  for (const auto& r : s.replicas)
    if (r.topic == topic) return r;
  FAIL("no replica of " << topic);
  throw;
}

// The text with the first occurrence of `from` replaced (the test fails if it is absent).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string refusal(const std::string& text) {
  try {
    parse_logdir_snapshot(text, "b1.snap");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("a snapshot read back holds the replica as Kafka loads it", "[storage][LogDirSnapshot]") {
  const LogDirSnapshot s = parse_logdir_snapshot(snapshot_text(kBroker1), "b1.snap");
  REQUIRE(s.replicas.size() == 1);
  const PartitionReplica& got = s.replicas.front();
  const PartitionReplica want = load_partition_replica(kBroker1 / "d-0");
  CHECK(got.dir == fs::path("b1.snap:d-0"));
  CHECK(got.topic == want.topic);
  CHECK(got.partition == want.partition);
  CHECK(got.topic_id == want.topic_id);
  CHECK(got.checkpoint_entries == want.checkpoint_entries);
  CHECK(got.rebuilt_entries == want.rebuilt_entries);
  CHECK(got.clean_shutdown == want.clean_shutdown);
  CHECK(got.high_watermark == want.high_watermark);
  CHECK(got.recovery_point == want.recovery_point);
  CHECK(got.log_start_checkpoint == want.log_start_checkpoint);
  CHECK(got.log_end_offset == want.log_end_offset);
  CHECK(got.notes == want.notes);
  CHECK(got.segments.size() == want.segments.size());
  same_log(got.loaded, want.loaded);
  same_log(got.as_leader, want.as_leader);
  REQUIRE(got.stored);
  CHECK(got.stored->batches.size() == got.stored->batch_count);  // a small log: all kept
  for (std::int64_t from = 0; from <= want.log_end_offset + 1; ++from) {
    for (std::int64_t until : {from + 1, from + 3, INT64_MAX}) {
      const BatchRange r = batches_from(got, from, until);
      CHECK(r.counts_known);
      CHECK(r.batches_complete);
      same_range(r, batches_from(want, from, until));
    }
  }
}

TEST_CASE("snapshot windows answer exactly where they reach and say where they do not",
          "[storage][LogDirSnapshot]") {
  // t-0: 7 batches (6 single records, one gzip batch of 4), all in epoch 0, HW = LEO = 10.
  const LogDirSnapshot s = parse_logdir_snapshot(snapshot_text(kLogDir, 1), "logdir.snap");
  const PartitionReplica& got = find(s, "t");
  const PartitionReplica want = load_partition_replica(kLogDir / "t-0");
  REQUIRE(got.stored);
  CHECK(got.stored->batch_count == 7);
  CHECK(got.stored->batches.size() < got.stored->batch_count);
  bool some_unknown = false;
  for (std::int64_t from = 0; from <= want.log_end_offset; ++from) {
    const BatchRange r = batches_from(got, from);
    const BatchRange w = batches_from(want, from);
    if (r.counts_known) {
      CHECK(r.records == w.records);
      CHECK(r.bytes == w.bytes);
    } else {
      some_unknown = true;
    }
    if (r.batches_complete) same_range(r, w);
  }
  CHECK(some_unknown);
  // The offsets truncation produces from this replica's own state are always answered: the
  // counts from each, and from the high watermark on (the tail) every batch.
  for (std::int64_t x :
       {want.loaded.log_start_offset, want.loaded.high_watermark, want.log_end_offset}) {
    const BatchRange r = batches_from(got, x);
    CHECK(r.counts_known);
    CHECK(r.records == batches_from(want, x).records);
    CHECK(r.bytes == batches_from(want, x).bytes);
  }
  for (std::int64_t x : {want.loaded.high_watermark, want.log_end_offset}) {
    const BatchRange r = batches_from(got, x);
    CHECK(r.batches_complete);
    same_range(r, batches_from(want, x));
  }
}

TEST_CASE("a snapshot lists the partition dirs it left out", "[storage][LogDirSnapshot]") {
  const LogDirSnapshot s = parse_logdir_snapshot(snapshot_text(kLogDir), "logdir.snap");
  CHECK(s.replicas.size() == 2);  // codec-zstd-0, t-0
  CHECK(s.log_dirs == std::vector<std::string>{kLogDir.string()});
  CHECK(s.window == 16);
}

namespace {

// Every occurrence of `from` replaced.
std::string replaced_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

void same_replica(const PartitionReplica& a, const PartitionReplica& b) {
  CHECK(a.dir == b.dir);
  CHECK(a.topic == b.topic);
  CHECK(a.partition == b.partition);
  CHECK(a.topic_id == b.topic_id);
  CHECK(a.checkpoint_entries == b.checkpoint_entries);
  CHECK(a.rebuilt_entries == b.rebuilt_entries);
  CHECK(a.clean_shutdown == b.clean_shutdown);
  CHECK(a.high_watermark == b.high_watermark);
  CHECK(a.recovery_point == b.recovery_point);
  CHECK(a.log_start_checkpoint == b.log_start_checkpoint);
  CHECK(a.log_end_offset == b.log_end_offset);
  CHECK(a.recovery_stop.has_value() == b.recovery_stop.has_value());
  CHECK(a.recovery_truncated_bytes == b.recovery_truncated_bytes);
  CHECK(a.notes == b.notes);
  REQUIRE(a.segments.size() == b.segments.size());
  for (std::size_t i = 0; i < a.segments.size(); ++i) {
    CHECK(a.segments[i].file == b.segments[i].file);
    CHECK(a.segments[i].base_offset == b.segments[i].base_offset);
    CHECK(a.segments[i].size_bytes == b.segments[i].size_bytes);
    CHECK(a.segments[i].batches == b.segments[i].batches);
    CHECK(a.segments[i].next_offset == b.segments[i].next_offset);
  }
  same_log(a.loaded, b.loaded);
  same_log(a.as_leader, b.as_leader);
  REQUIRE(a.stored);
  REQUIRE(b.stored);
  CHECK(a.stored->batch_count == b.stored->batch_count);
  CHECK(a.stored->records == b.stored->records);
  CHECK(a.stored->bytes == b.stored->bytes);
  REQUIRE(a.stored->batches.size() == b.stored->batches.size());
  for (std::size_t i = 0; i < a.stored->batches.size(); ++i) {
    const BatchSummary& x = a.stored->batches[i];
    const BatchSummary& y = b.stored->batches[i];
    CHECK(x.ordinal == y.ordinal);
    CHECK(x.base_offset == y.base_offset);
    CHECK(x.last_offset == y.last_offset);
    CHECK(x.records == y.records);
    CHECK(x.size == y.size);
    CHECK(x.crc == y.crc);
    CHECK(x.epoch == y.epoch);
    CHECK(x.records_before == y.records_before);
    CHECK(x.bytes_before == y.bytes_before);
    CHECK(x.digest_before == y.digest_before);
  }
  REQUIRE(a.stored->transactions.has_value() == b.stored->transactions.has_value());
  if (a.stored->transactions) {
    const StoredTransactions& x = *a.stored->transactions;
    const StoredTransactions& y = *b.stored->transactions;
    CHECK(x.from == y.from);
    REQUIRE(x.batches.size() == y.batches.size());
    for (std::size_t i = 0; i < x.batches.size(); ++i) {
      CHECK(x.batches[i].base_offset == y.batches[i].base_offset);
      CHECK(x.batches[i].last_offset == y.batches[i].last_offset);
      CHECK(x.batches[i].records == y.batches[i].records);
      CHECK(x.batches[i].producer_id == y.batches[i].producer_id);
      CHECK(x.batches[i].transactional == y.batches[i].transactional);
      CHECK(x.batches[i].control == y.batches[i].control);
      CHECK(x.batches[i].marker == y.batches[i].marker);
    }
  }
}

}  // namespace

// The reader takes the writer's own lines on a direct path and any other spelling of the
// same JSON (here: a space after each line's key) through nlohmann-json: both must give the
// same replicas.
TEST_CASE("a snapshot's lines read alike in the writer's shape and in any other spelling",
          "[storage][LogDirSnapshot]") {
  for (const fs::path& dir :
       {kBroker1, kLogDir, fs::path(KEPOCH_SOURCE_DIR) / "tests/unit/data/indexes",
        fs::path(KEPOCH_SOURCE_DIR) / "tests/data/transactions"}) {
    const std::string text = snapshot_text(dir, 2);
    const std::string spaced = replaced_all(replaced_all(text, "{\"replica\":", "{\"replica\": "),
                                            "{\"batch\":", "{\"batch\": ");
    REQUIRE(spaced != text);
    const LogDirSnapshot direct = parse_logdir_snapshot(text, "x.snap");
    const LogDirSnapshot general = parse_logdir_snapshot(spaced, "x.snap");
    REQUIRE(direct.replicas.size() == general.replicas.size());
    CHECK(direct.log_dir_of == general.log_dir_of);
    for (std::size_t i = 0; i < direct.replicas.size(); ++i)
      same_replica(direct.replicas[i], general.replicas[i]);
  }
}

TEST_CASE("malformed snapshots are refused with file, line and what was expected",
          "[storage][LogDirSnapshot]") {
  const std::string good = snapshot_text(kBroker1);
  REQUIRE(refusal(good) == "accepted");

  SECTION("truncated: the end line is missing") {
    const std::string cut = good.substr(0, good.rfind("{\"end\""));
    CHECK_THAT(refusal(cut), Catch::Contains("b1.snap:") &&
                                 Catch::Contains("found the end of the file (truncated"));
  }
  SECTION("truncated inside a line") {
    CHECK_THAT(refusal(good.substr(0, good.size() - 5)), Catch::Contains("a line cut short"));
  }
  SECTION("empty file") {
    CHECK_THAT(refusal(""), Catch::Contains("b1.snap:1: expected the header line"));
  }
  SECTION("another version") {
    CHECK_THAT(refusal(replaced(good, "\"version\":1", "\"version\":2")),
               Catch::Contains("b1.snap:1: version: expected 1") && Catch::Contains("found 2"));
  }
  SECTION("another format") {
    CHECK_THAT(refusal(replaced(good, "kepoch-logdir-snapshot", "kafka-dump")),
               Catch::Contains("b1.snap:1: format: expected \"kepoch-logdir-snapshot\""));
  }
  SECTION("a field of the wrong type") {
    CHECK_THAT(refusal(replaced(good, "\"clean_shutdown\":false", "\"clean_shutdown\":\"no\"")),
               Catch::Contains("b1.snap:2: replica.clean_shutdown: expected true or false, "
                               "found \"no\""));
    CHECK_THAT(refusal(replaced(good, "\"log_end_offset\":", "\"log_end_offset\":\"x\",\"y\":")),
               Catch::Contains("b1.snap:2:") && Catch::Contains("log_end_offset: expected an "
                                                                "integer"));
  }
  SECTION("a missing field") {
    CHECK_THAT(refusal(replaced(good, "\"topic\":", "\"topik\":")),
               Catch::Contains("b1.snap:2: replica.topic: expected a field, found none"));
  }
  SECTION("numbers too large for their field") {
    CHECK_THAT(refusal(replaced(good, "\"partition\":0", "\"partition\":4294967296")),
               Catch::Contains("replica.partition: expected an integer in [-2147483648, "
                               "2147483647], found 4294967296"));
    CHECK_THAT(refusal(replaced(good, "\"partition\":0", "\"partition\":1e400")),
               Catch::Contains("b1.snap:2:"));
    CHECK_THAT(refusal(replaced(good, "\"recovery_truncated_bytes\":0",
                                "\"recovery_truncated_bytes\":184467440737095516160")),
               Catch::Contains("recovery_truncated_bytes: expected an integer in [0, "
                               "18446744073709551615]"));
    CHECK_THAT(refusal(replaced(good, "{\"batch\":[0,", "{\"batch\":[99999999999999999999,")),
               Catch::Contains("b1.snap:3: batch.ordinal: expected an integer"));
  }
  SECTION("batch lines out of order or missing") {
    const auto second = good.find("{\"batch\":[1,");
    REQUIRE(second != std::string::npos);
    CHECK_THAT(refusal(replaced(good, "{\"batch\":[1,", "{\"batch\":[0,")),
               Catch::Contains("b1.snap:4: batch.ordinal: expected above the previous batch's"));
    const auto line_end = good.find('\n', second);
    const std::string dropped = good.substr(0, second) + good.substr(line_end + 1);
    CHECK_THAT(refusal(dropped), Catch::Contains("expected batch line"));
  }
  SECTION("not JSON") {
    CHECK_THAT(refusal(replaced(good, "{\"replica\":", "[\"replica\":")),
               Catch::Contains("b1.snap:2: expected a replica, skipped or end line (one JSON "
                               "object), found bad JSON"));
  }
  SECTION("text after the end line") {
    CHECK_THAT(refusal(good + "{}\n"), Catch::Contains("expected nothing after the end line"));
  }
}

namespace {

// ix-0 (31 one-record batches, epoch 0) from a snapshot, with batches 10-20 not kept: the gap
// a long log leaves between windows.
PartitionReplica with_gap() {
  const fs::path dir = fs::path(KEPOCH_SOURCE_DIR) / "tests/unit/data/indexes";
  LogDirSnapshot s = parse_logdir_snapshot(snapshot_text(dir, 1), "ix.snap");
  PartitionReplica r = find(s, "ix");
  REQUIRE(r.stored->batches.size() == 31);
  auto& b = r.stored->batches;
  b.erase(b.begin() + 10, b.begin() + 21);
  return r;
}

}  // namespace

TEST_CASE("batch counts from a snapshot are known only where the windows reach",
          "[storage][LogDirSnapshot]") {
  const PartitionReplica gap = with_gap();
  const PartitionReplica dir =
      load_partition_replica(fs::path(KEPOCH_SOURCE_DIR) / "tests/unit/data/indexes/ix-0");
  const BatchRange at15 = batches_from(gap, 15);
  CHECK_FALSE(at15.counts_known);
  CHECK_FALSE(at15.batches_complete);
  const BatchRange at5 = batches_from(gap, 5);  // batches 4 and 5 kept: counts, not the list
  CHECK(at5.counts_known);
  CHECK(at5.records == batches_from(dir, 5).records);
  CHECK(at5.bytes == batches_from(dir, 5).bytes);
  CHECK_FALSE(at5.batches_complete);
  const BatchRange at25 = batches_from(gap, 25);
  CHECK(at25.batches_complete);
  same_range(at25, batches_from(dir, 25));
}

TEST_CASE("predict from a snapshot says which counts its windows cannot give",
          "[storage][LogDirSnapshot]") {
  const PartitionReplica follower = with_gap();
  PartitionReplica leader =
      load_partition_replica(fs::path(KEPOCH_SOURCE_DIR) / "tests/unit/data/indexes/ix-0");
  SECTION("the leader's epoch 0 ends inside the gap") {
    leader.as_leader.cache.assign({1, 15});
    const ReplicaForecast f = forecast_replica(leader, follower, TruncationMode::fetch);
    CHECK(f.prediction.truncate_to == 15);
    CHECK_FALSE(f.removed_known);
    CHECK_FALSE(f.lost_known);
    CHECK_FALSE(f.committed_loss());
    // ix-0's log dir has no replication-offset-checkpoint: whether anything lost was
    // committed is not known either (the third line).
    REQUIRE(f.unanswered.size() == 3);
    CHECK_THAT(f.unanswered[0], Catch::Contains("from offset 15") &&
                                    Catch::Contains("did not keep the batch holding it"));
    CHECK_THAT(f.unanswered[2], Catch::Contains("has no high watermark recorded"));
  }
  SECTION("the leader's epoch 0 ends in the tail window") {
    leader.as_leader.cache.assign({1, 25});
    const ReplicaForecast f = forecast_replica(leader, follower, TruncationMode::fetch);
    CHECK(f.prediction.truncate_to == 25);
    CHECK(f.removed_known);
    CHECK(f.lost_known);
    CHECK(f.unanswered.empty());
    CHECK(f.removed_records == 6);
    CHECK(f.lost_records == 0);  // the leader holds the very same batches
  }
}

TEST_CASE("diff from a snapshot proves replicas identical across a gap by batch digests",
          "[storage][LogDirSnapshot]") {
  const std::vector<PartitionReplica> replicas{
      load_partition_replica(fs::path(KEPOCH_SOURCE_DIR) / "tests/unit/data/indexes/ix-0"),
      with_gap()};
  for (auto [mine, theirs] : {std::pair{1u, 0u}, std::pair{0u, 1u}}) {
    const ReplicaComparison c = compare_replicas(replicas, mine, theirs);
    CHECK_FALSE(c.fork_by_batches);
    CHECK(c.unanswered.empty());
    CHECK(c.identical());
  }
}

TEST_CASE("diff from snapshots finds the fork after a gap from a digest anchor",
          "[storage][LogDirSnapshot]") {
  std::vector<PartitionReplica> replicas{with_gap(), with_gap()};
  auto& theirs = replicas[1].stored->batches;
  for (auto& b : theirs)
    if (b.ordinal == 25) b.crc ^= 1;
  SECTION("batches 21-24 are anchored by the same digest: the fork is certain") {
    const ReplicaComparison c = compare_replicas(replicas, 0, 1);
    CHECK(c.fork_by_batches == 25);
    REQUIRE(c.differing_batches.size() == 1);
    CHECK(c.differing_batches[0].base_offset == 25);
    CHECK(c.unanswered.empty());
    CHECK_FALSE(c.identical());
  }
  SECTION("without an anchor after the gap, the first difference found is not called the fork") {
    for (auto& b : theirs)
      if (b.ordinal >= 21) b.digest_before ^= 1;  // as if they held other batches in the gap
    const ReplicaComparison c = compare_replicas(replicas, 0, 1);
    CHECK_FALSE(c.fork_by_batches);
    REQUIRE(c.unanswered.size() == 1);
    CHECK_THAT(c.unanswered[0], Catch::Contains("the first differing one there is at offset 25"));
    CHECK_FALSE(c.identical());
  }
  SECTION("without any anchor and no difference, nothing is called identical") {
    for (auto& b : theirs) {  // batch 25 the same again, no digest in common
      if (b.ordinal == 25) b.crc ^= 1;
      b.digest_before ^= 1;
    }
    const ReplicaComparison c = compare_replicas(replicas, 0, 1);
    CHECK_FALSE(c.fork_by_batches);
    REQUIRE(c.unanswered.size() == 1);
    CHECK_THAT(c.unanswered[0], Catch::Contains("none differs there"));
    CHECK_FALSE(c.identical());
  }
}

TEST_CASE("a snapshot records its broker and cluster from meta.properties",
          "[storage][LogDirSnapshot]") {
  // tests/data/logdir/meta.properties: node.id=1, cluster.id=szVdbl2iRXOg29JrTu_QMg.
  const std::string text = snapshot_text(kLogDir);
  const LogDirSnapshot s = parse_logdir_snapshot(text, "logdir.snap");
  CHECK(s.node_id == 1);
  CHECK(s.cluster_id == "szVdbl2iRXOg29JrTu_QMg");
  // A log dir copied without meta.properties: null, read back as unknown.
  const LogDirSnapshot none = parse_logdir_snapshot(snapshot_text(kBroker1), "b1.snap");
  CHECK_FALSE(none.node_id);
  CHECK_FALSE(none.cluster_id);
  // Snapshots of older kepochs have neither field.
  const std::string older = replaced(replaced(text, "\"node_id\":1,", ""),
                                     "\"cluster_id\":\"szVdbl2iRXOg29JrTu_QMg\",", "");
  CHECK_FALSE(parse_logdir_snapshot(older, "old.snap").node_id);
  CHECK_THAT(
      refusal(replaced(text, "\"cluster_id\":\"szVdbl2iRXOg29JrTu_QMg\"", "\"cluster_id\":7")),
      Catch::Contains("cluster_id"));
}

const fs::path kTransactions = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/transactions";

TEST_CASE("a snapshot keeps its tail's transaction markers: consumers' counts as from the log",
          "[storage][LogDirSnapshot][consumer_view]") {
  // Kafka's transactions fixture (0-2 committed, 3 COMMIT, 4-5 aborted, 6 ABORT, 7-8 plain):
  // the EndTransactionMarker rule read from the snapshot gives the kinds the segments give.
  const LogDirSnapshot s = parse_logdir_snapshot(snapshot_text(kTransactions), "tx.snap");
  const PartitionReplica& stored = find(s, "tx");
  const PartitionReplica dir = load_partition_replica(kTransactions / "tx-0");
  REQUIRE(stored.stored->transactions);
  CHECK(stored.stored->transactions->from == 0);            // every batch kept
  CHECK(stored.stored->transactions->batches.size() == 4);  // the plain batch 7-8 not listed
  for (std::int64_t from = 0; from <= 9; ++from) {
    const auto a = transaction_batches_from(stored, from);
    const auto b = transaction_batches_from(dir, from);
    REQUIRE(a);
    REQUIRE(b);
    std::map<std::int64_t, RecordKind> from_snapshot, from_log;
    const auto ka = consumer_kinds(*a);
    const auto kb = consumer_kinds(*b);
    for (std::size_t i = 0; i < a->size(); ++i)
      from_snapshot[(*a)[i].base_offset] = ka[i];
    for (std::size_t i = 0; i < b->size(); ++i)
      if (kb[i] != RecordKind::data || (*b)[i].transactional) from_log[(*b)[i].base_offset] = kb[i];
    CHECK(from_snapshot == from_log);
  }
  for (std::int64_t cut : {0, 3, 4, 7}) {
    const ReplicaForecast a = forecast_from(stored, cut);
    const ReplicaForecast b = forecast_from(dir, cut);
    CHECK(a.transactions_known);
    CHECK(a.removed_records == b.removed_records);
    CHECK(a.lost_records == b.lost_records);
    CHECK(a.lost_aborted_records == b.lost_aborted_records);
    CHECK(a.lost_control_records == b.lost_control_records);
  }
  CHECK(forecast_from(stored, 3).lost_control_records == 2);  // the COMMIT and ABORT markers
  CHECK(forecast_from(stored, 3).lost_aborted_records == 2);
}

TEST_CASE("transactions kept from an offset answer only from the batch holding it on",
          "[storage][LogDirSnapshot][consumer_view]") {
  LogDirSnapshot s = parse_logdir_snapshot(snapshot_text(kTransactions), "tx.snap");
  PartitionReplica r = find(s, "tx");
  auto& t = *r.stored->transactions;
  // As if the kept tail began at the aborted transaction's batch (4-5).
  t.from = 4;
  t.batches.erase(t.batches.begin(), t.batches.begin() + 2);
  CHECK_FALSE(transaction_batches_from(r, 3));
  REQUIRE(transaction_batches_from(r, 4));
  CHECK(transaction_batches_from(r, 5)->front().base_offset == 4);  // the batch holding 5
  const ReplicaForecast f = forecast_from(r, 3);
  CHECK_FALSE(f.transactions_known);
  CHECK(f.removed_records == 6);
}

TEST_CASE("a snapshot of an older kepoch (no transactions) reads, its transaction counts unknown",
          "[storage][LogDirSnapshot]") {
  const std::string text = snapshot_text(kTransactions);
  const auto at = text.find(",\"transactions\":{");
  REQUIRE(at != std::string::npos);
  const auto end = text.find("]]}", at);
  REQUIRE(end != std::string::npos);
  const std::string older = text.substr(0, at) + text.substr(end + 3);
  const LogDirSnapshot s = parse_logdir_snapshot(older, "old.snap");
  const PartitionReplica& r = find(s, "tx");
  CHECK_FALSE(r.stored->transactions);
  CHECK_FALSE(transaction_batches_from(r, 0));
  const ReplicaForecast f = forecast_from(r, 0);
  CHECK_FALSE(f.transactions_known);
  CHECK(f.removed_records == 9);
  // A bad kind is refused with the line and field.
  CHECK_THAT(refusal(replaced(text, "\"abort\"", "\"rollback\"")),
             Catch::Contains("replica.transactions.batches[].kind: expected \"transactional\""));
}

namespace {

// A scratch log dir holding copies of tests/data/logdir/t-0 (Kafka 4.1.1's) under other
// partition numbers: partition order and name order differ from partition 10 on.
struct ScratchLogDir {
  fs::path dir;
  explicit ScratchLogDir(const std::vector<int>& partitions) {
    char tmpl[] = "/tmp/kepoch-order-XXXXXX";
    dir = ::mkdtemp(tmpl);
    for (const int p : partitions)
      fs::copy(kLogDir / "t-0", dir / ("t-" + std::to_string(p)), fs::copy_options::recursive);
    fs::copy(kLogDir / "meta.properties", dir / "meta.properties");
  }
  ~ScratchLogDir() { fs::remove_all(dir); }
};

std::vector<std::string> names_of(const std::vector<PartitionReplica>& replicas) {
  std::vector<std::string> out;
  for (const auto& r : replicas)
    out.push_back(r.topic + "-" + std::to_string(r.partition));
  return out;
}

}  // namespace

TEST_CASE("a snapshot lists its replicas in partition order across its log dirs",
          "[storage][LogDirSnapshot]") {
  const ScratchLogDir a({10, 2});
  const ScratchLogDir b({3});
  std::ostringstream out;
  write_logdir_snapshot(out, {a.dir, b.dir});
  const LogDirSnapshot s = parse_logdir_snapshot(out.str(), "b1.snap");
  // Name order would put t-10 first, and each log dir's before the next one's.
  CHECK(names_of(s.replicas) == std::vector<std::string>{"t-2", "t-3", "t-10"});
  CHECK(s.log_dir_of == std::vector<std::string>{a.dir.string(), b.dir.string(), a.dir.string()});
}

TEST_CASE("a snapshot read as a stream gives the replicas a whole read gives, one at a time",
          "[storage][LogDirSnapshot]") {
  const ScratchLogDir a({10, 2, 0});
  const fs::path file = a.dir / "b1.snap";  // not a partition dir: the writer's input is read first
  {
    std::ostringstream out;
    write_logdir_snapshot(out, {a.dir, kLogDir});
    std::ofstream(file) << out.str();
  }
  const LogDirSnapshot whole = read_logdir_snapshot(file);
  // Paused after each replica too (its window let go, the unread text read again; the file,
  // ~6 KiB, is more than the first 4 KiB window): the same. Paused, each replica is peeked at
  // first: the peek names the partition next() then reads (the writer's lines are all in the
  // fast form), and nothing once the end is next.
  for (const bool paused : {false, true}) {
    INFO("paused: " << paused);
    LogDirSnapshotStream stream(file);
    CHECK(stream.header().node_id == whole.node_id);
    CHECK(stream.header().cluster_id == whole.cluster_id);
    std::vector<PartitionReplica> streamed;
    std::vector<std::string> dirs;
    PartitionReplica r;
    std::string dir;
    if (paused) stream.pause();
    std::vector<std::string> peeked;
    for (;;) {
      std::string_view topic;
      std::int32_t partition = -1;
      if (paused) {
        if (stream.peek(topic, partition))
          peeked.push_back(std::string(topic) + "-" + std::to_string(partition));
        stream.pause();  // the peek's window let go too
      }
      if (!stream.next(r, &dir)) break;
      streamed.push_back(r);
      dirs.push_back(dir);
      if (paused) stream.pause();
    }
    if (paused) {
      CHECK(peeked == names_of(whole.replicas));
      stream.pause();  // at the end too
      std::string_view topic;
      std::int32_t partition = -1;
      CHECK_FALSE(stream.peek(topic, partition));
    }
    CHECK_FALSE(stream.next(r));
    REQUIRE(names_of(streamed) == names_of(whole.replicas));
    CHECK(dirs == whole.log_dir_of);
    for (std::size_t i = 0; i < streamed.size(); ++i) {
      CHECK(streamed[i].dir == whole.replicas[i].dir);
      same_log(streamed[i].loaded, whole.replicas[i].loaded);
      REQUIRE(streamed[i].stored);
      CHECK(streamed[i].stored->batches.size() == whole.replicas[i].stored->batches.size());
      CHECK(streamed[i].stored->records == whole.replicas[i].stored->records);
    }
    CHECK(stream.header().skipped.size() == whole.skipped.size());
  }
}

// A snapshot's lines in blocks: the header, each replica with its batch lines, the end.
static std::vector<std::vector<std::string>> snapshot_blocks(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::vector<std::string>> blocks(1);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("{\"replica\":", 0) == 0 || line.rfind("{\"end\":", 0) == 0)
      blocks.emplace_back();
    blocks.back().push_back(line);
  }
  return blocks;
}

TEST_CASE("a snapshot stream refuses a replica out of partition order, naming file and line",
          "[storage][LogDirSnapshot]") {
  const ScratchLogDir a({2, 10});
  std::ostringstream out;
  write_logdir_snapshot(out, {a.dir});
  // Move t-10's lines (its replica line and its batches) before t-2's, as an older kepoch
  // wrote them (partition dirs in name order).
  std::vector<std::vector<std::string>> blocks = snapshot_blocks(out.str());
  REQUIRE(blocks.size() == 4);  // header, t-2, t-10, end
  std::swap(blocks[1], blocks[2]);
  const fs::path file = a.dir / "old.snap";
  {
    std::ofstream f(file);
    for (const auto& b : blocks)
      for (const auto& l : b)
        f << l << '\n';
  }
  // A whole read (diff, predict) takes it as it always did.
  CHECK(names_of(read_logdir_snapshot(file).replicas) == std::vector<std::string>{"t-10", "t-2"});
  LogDirSnapshotStream stream(file);
  PartitionReplica r;
  REQUIRE(stream.next(r));
  CHECK(r.partition == 10);
  const std::string t2_line = std::to_string(2 + blocks[1].size());  // header, t-10's lines, t-2
  try {
    stream.next(r);
    FAIL("accepted a replica out of order");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains(file.string() + ":" + t2_line + ":"));
    CHECK_THAT(what, Catch::Contains("expected t-10 or a later partition"));
    CHECK_THAT(what, Catch::Contains("found t-2"));
  }
}

TEST_CASE("a snapshot holding a replica twice is refused, naming file and line",
          "[storage][LogDirSnapshot]") {
  // A broker holds one dir of a partition per log dir (a move's -future dir is a skipped
  // line): t-2's replica line and its batch lines repeated, the end line's counts raised to
  // match, counted the partition twice without a word.
  const ScratchLogDir a({2, 10});
  std::ostringstream out;
  write_logdir_snapshot(out, {a.dir});
  std::vector<std::vector<std::string>> blocks = snapshot_blocks(out.str());
  REQUIRE(blocks.size() == 4);  // header, t-2, t-10, end
  const std::size_t batches = blocks[1].size() - 1 + blocks[2].size() - 1;
  blocks.insert(blocks.begin() + 2, blocks[1]);
  blocks.back() = {
      fmt::format("{{\"end\":{{\"replicas\":3,\"batches\":{}}}}}", batches + blocks[1].size() - 1)};
  const fs::path file = a.dir / "twice.snap";
  {
    std::ofstream f(file);
    for (const auto& b : blocks)
      for (const auto& l : b)
        f << l << '\n';
  }
  const std::string again = std::to_string(2 + blocks[1].size());  // header, t-2's lines
  const auto refused = [&](const std::function<void()>& read) {
    try {
      read();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  for (const std::string& what :
       {refused([&] { read_logdir_snapshot(file); }), refused([&] {
          LogDirSnapshotStream stream(file);
          PartitionReplica r;
          while (stream.next(r)) {
          }
        }),
        // The general path (not the writer's shape) too.
        refused([&] {
          std::ifstream f(file);
          std::stringstream text;
          text << f.rdbuf();
          parse_logdir_snapshot(replaced_all(text.str(), "{\"replica\":", "{\"replica\": "), file);
        })}) {
    CHECK_THAT(what, Catch::Contains(file.string() + ":" + again +
                                     ": replica: expected each "
                                     "replica once"));
    CHECK_THAT(what, Catch::Contains("found t-2 of log dir \"" + a.dir.string() +
                                     "\" again (first on line 2)"));
  }

  // The same partition in two log dirs is two replicas (Kafka refuses to start with both;
  // `logdir scan` says so), read as written; the same log dir given twice is refused.
  const ScratchLogDir b({2});
  std::ostringstream two;
  write_logdir_snapshot(two, {a.dir, b.dir});
  CHECK(names_of(parse_logdir_snapshot(two.str(), "two.snap").replicas) ==
        std::vector<std::string>{"t-2", "t-2", "t-10"});
  std::ostringstream none;
  CHECK_THROWS_AS(write_logdir_snapshot(none, {a.dir, a.dir / "."}), UsageError);
  CHECK(none.str().empty());
}
