// Pins where `diff` compares replicas and where a comparison means nothing
// (storage/replica_diff): batches the log cleaner rewrote (LogCleaner keeps a batch's base
// and last offset and drops records, or drops whole batches: offsets missing) are no
// divergence, so batches are compared above them; an empty epoch cache has no epochs to
// compare. The compacted replica is Kafka's own (tests/data/compacted: offsets 0-2 removed,
// an emptied batch kept at 3, 4-7 kept, 8 in the next segment).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "kepoch/base/crc32c.hpp"
#include "kepoch/storage/replica_diff.hpp"
#include "kepoch/storage/replica_sources.hpp"
#include "support/scratch_files.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;

namespace {

const std::filesystem::path kCompacted =
    std::filesystem::path(KEPOCH_SOURCE_DIR) / "tests/data/compacted/cmp-0";

// The same log before its cleaner ran, as another replica holds it: one record per batch at
// 0-8, with Kafka's CRCs where the compacted replica kept the batch whole, others below.
PartitionReplica uncompacted(const PartitionReplica& compacted, std::int64_t changed_crc_at = -1) {
  std::map<std::int64_t, BatchSummary> kept;
  walk_batches(compacted, [&](const BatchSummary& b) { kept.emplace(b.base_offset, b); });
  PartitionReplica r;
  r.dir = "uncompacted";
  r.topic = compacted.topic;
  StoredBatches s;
  for (std::int64_t o = 0; o < compacted.log_end_offset; ++o) {
    BatchSummary x;
    x.ordinal = static_cast<std::uint64_t>(o);
    x.base_offset = x.last_offset = o;
    x.records = 1;
    x.size = 80;
    const auto it = kept.find(o);
    x.crc = it != kept.end() && it->second.records == 1 ? it->second.crc
                                                        : static_cast<std::uint32_t>(7000 + o);
    if (o == changed_crc_at) x.crc ^= 1;
    x.epoch = it != kept.end() ? it->second.epoch : 0;
    x.records_before = s.records;
    x.bytes_before = s.bytes;
    s.records += 1;
    s.bytes += x.size;
    s.batches.push_back(x);
  }
  s.batch_count = s.batches.size();
  r.stored = s;
  r.log_end_offset = compacted.log_end_offset;
  r.loaded = compacted.loaded;
  r.as_leader = r.loaded;
  return r;
}

}  // namespace

TEST_CASE("LogCleaner rewrote batches: no fork below them", "[storage][replica_diff]") {
  const PartitionReplica compacted = load_partition_replica(kCompacted);
  REQUIRE(compacted.log_end_offset == 9);
  SECTION("above the cleaned batches the logs agree") {
    const std::vector<PartitionReplica> replicas{compacted, uncompacted(compacted)};
    const ReplicaComparison c = compare_replicas(replicas, 1, 0);
    CHECK_FALSE(c.fork_by_batches);
    CHECK_FALSE(c.only_here);
    CHECK(c.batches_compared_from == 4);  // after the emptied batch at 3
    REQUIRE(c.notes.size() == 1);
    CHECK_THAT(c.notes[0], Catch::Contains("log cleaner"));
    CHECK(c.identical());
  }
  SECTION("a batch that differs above them is still a fork") {
    const std::vector<PartitionReplica> replicas{compacted, uncompacted(compacted, 6)};
    const ReplicaComparison c = compare_replicas(replicas, 1, 0);
    CHECK(c.fork_by_batches == 6);
    CHECK_FALSE(c.identical());
  }
}

TEST_CASE("cleaned_until: records dropped from a batch, or batches removed whole",
          "[storage][replica_diff]") {
  BatchRange r;
  r.batches = {{0, 0, 1, 1}, {1, 1, 1, 2}, {2, 2, 1, 3}};
  CHECK(cleaned_until(r, 0) == 0);  // an uncleaned log: nothing shows
  r.batches = {{0, 4, 2, 1}, {5, 5, 1, 2}};
  CHECK(cleaned_until(r, 0) == 5);  // 0-4 hold 2 records
  r.batches = {{0, 0, 1, 1}, {3, 3, 1, 2}, {4, 4, 1, 3}};
  CHECK(cleaned_until(r, 0) == 4);  // 1-2 removed
  r.batches_complete = false;       // a snapshot's windows: a gap is no evidence
  CHECK(cleaned_until(r, 0) == 0);
}

TEST_CASE("An empty epoch cache is not a fork at the log start", "[storage][replica_diff]") {
  const PartitionReplica compacted = load_partition_replica(kCompacted);
  PartitionReplica no_epochs = compacted;
  no_epochs.dir = "no-epochs";
  no_epochs.loaded.cache.clear();
  const std::vector<PartitionReplica> replicas{compacted, no_epochs};
  const ReplicaComparison c = compare_replicas(replicas, 1, 0);
  CHECK_FALSE(c.fork_by_epochs);
  CHECK_FALSE(c.only_here);
  CHECK_FALSE(c.only_there);
  CHECK(c.identical());
  CHECK_THAT(c.notes.front(), Catch::Contains("no-epochs has no leader epochs"));
}

TEST_CASE("Identical only when the batches below the tail agree too", "[storage][replica_diff]") {
  // Two replicas of lc-0 (tests/data/leader-changes) with the same epoch caches and log end;
  // one holds another batch at offsets 6-8 (a value byte changed, its CRC made right again).
  // Loaded to their tails, the batches from the anchor on agree, but "identical" must not
  // rest on Kafka's epoch rule alone: the batch at 6 is found.
  const std::filesystem::path lc =
      std::filesystem::path(KEPOCH_SOURCE_DIR) / "tests/data/leader-changes";
  const test::ScratchReplica changed(lc / "broker-1/lc-0");
  auto bytes = test::slurp(changed.file("00000000000000000000.log"));
  const std::size_t batch = 248;  // the batch at offset 6 (segment dump's position)
  const std::size_t end =
      batch + 12 +
      ((std::size_t{bytes[batch + 8]} << 24) | (std::size_t{bytes[batch + 9]} << 16) |
       (std::size_t{bytes[batch + 10]} << 8) | bytes[batch + 11]);
  bytes.at(batch + 110) ^= 0x04;
  const std::uint32_t crc =
      crc32c(std::span<const std::uint8_t>(bytes.data() + batch + 21, end - batch - 21));
  for (int i = 0; i < 4; ++i)
    bytes[batch + 17 + static_cast<std::size_t>(i)] =
        static_cast<std::uint8_t>(crc >> (24 - 8 * i));
  test::spit(changed.file("00000000000000000000.log"), bytes);

  std::vector<PartitionReplica> replicas{
      load_partition_replica(changed.dir, {}, LoadDepth::tail),
      load_partition_replica(lc / "broker-2/lc-0", {}, LoadDepth::tail)};
  const ReplicaComparison c = compare_replicas(replicas, 0, 1);
  CHECK_FALSE(c.identical());
  CHECK(c.fork_by_batches == 6);
  CHECK(c.read_whole.has_value());
  // The untouched copies are identical, and say nothing of a whole read.
  std::vector<PartitionReplica> same{
      load_partition_replica(lc / "broker-1/lc-0", {}, LoadDepth::tail),
      load_partition_replica(lc / "broker-2/lc-0", {}, LoadDepth::tail)};
  const ReplicaComparison d = compare_replicas(same, 0, 1);
  CHECK(d.identical());
  CHECK_FALSE(d.read_whole.has_value());
}

namespace {

ReplicaSource source(std::string argument, PartitionReplica r,
                     std::optional<std::int32_t> node = std::nullopt,
                     std::optional<std::string> cluster = std::nullopt) {
  ReplicaSource s;
  s.argument = std::move(argument);
  s.replicas.push_back(std::move(r));
  s.node_id = node;
  s.cluster_id = std::move(cluster);
  if (node || s.cluster_id) s.identity_file = s.argument + "/../meta.properties";
  return s;
}

PartitionReplica replica_d0() {
  PartitionReplica r;
  r.topic = "d";
  r.partition = 0;
  return r;
}

}  // namespace

TEST_CASE("Pairing: replicas of different clusters are refused, as different topic ids are",
          "[storage][replica_sources]") {
  // MetaProperties' cluster.id names the cluster a log dir belongs to
  // (MetaPropertiesEnsemble.verify refuses a log dir of another cluster at startup): two
  // clusters' copies of d-0 are no replicas of one partition.
  std::vector<ReplicaSource> sources{source("x", replica_d0(), 1, "szVdbl2iRXOg29JrTu_QMg"),
                                     source("y", replica_d0(), 2, "AAAAAAAAAAAAAAAAAAAAAQ")};
  CHECK_THROWS_WITH(
      pair_replicas(sources, 2, false),
      Catch::Contains("y/../meta.properties records cluster id AAAAAAAAAAAAAAAAAAAAAQ") &&
          Catch::Contains("x/../meta.properties records cluster id szVdbl2iRXOg29JrTu_QMg"));
  // The same cluster: paired, and nothing noted.
  sources[1].cluster_id = "szVdbl2iRXOg29JrTu_QMg";
  const PairedPartitions same = pair_replicas(sources, 2, false);
  REQUIRE(same.groups.size() == 1);
  CHECK(same.groups.front().replicas.at(1).notes.empty());
}

TEST_CASE("Pairing: a cluster not known is neither refused nor claimed to agree",
          "[storage][replica_sources]") {
  // A replica dir copied without its log dir has no meta.properties: compared, with a note
  // that its cluster is not known when another argument's is; no note when none is known.
  std::vector<ReplicaSource> sources{source("x", replica_d0(), 1, "szVdbl2iRXOg29JrTu_QMg"),
                                     source("y", replica_d0())};
  const PairedPartitions p = pair_replicas(sources, 2, false);
  REQUIRE(p.groups.size() == 1);
  CHECK(p.groups.front().replicas.at(0).notes.empty());
  REQUIRE(p.groups.front().replicas.at(1).notes.size() == 1);
  CHECK_THAT(p.groups.front().replicas.at(1).notes.front(),
             Catch::Contains("whether it belongs to cluster szVdbl2iRXOg29JrTu_QMg") &&
                 Catch::Contains("is not known"));
  std::vector<ReplicaSource> none{source("x", replica_d0()), source("y", replica_d0())};
  const PairedPartitions q = pair_replicas(none, 2, false);
  CHECK(q.groups.front().replicas.at(0).notes.empty());
  CHECK(q.groups.front().replicas.at(1).notes.empty());
}

TEST_CASE("Pairing: two replicas of one partition from one broker id are refused",
          "[storage][replica_sources]") {
  // Kafka holds one replica of a partition per broker (LogManager refuses a partition found
  // in two of its log dirs): two arguments recording node.id 1 are copies of one broker's.
  std::vector<ReplicaSource> sources{source("x", replica_d0(), 1, "szVdbl2iRXOg29JrTu_QMg"),
                                     source("y", replica_d0(), 1, "szVdbl2iRXOg29JrTu_QMg")};
  CHECK_THROWS_WITH(pair_replicas(sources, 2, false),
                    Catch::Contains("x and y are both broker 1's"));
  // Two log dirs of one broker holding different partitions pair with another broker's.
  for (auto& s : sources)
    s.whole = true;
  sources[1].replicas.front().partition = 1;
  sources.push_back(source("z", replica_d0(), 2, "szVdbl2iRXOg29JrTu_QMg"));
  sources.back().whole = true;
  PartitionReplica z1 = replica_d0();
  z1.partition = 1;
  sources.back().replicas.push_back(z1);
  CHECK(pair_replicas(sources, 2, false).groups.size() == 2);
}

TEST_CASE("Pairing: two topic ids differ even when the first replica records none",
          "[storage][replica_sources]") {
  // The first replica without partition.metadata must not let two different ids in after it.
  auto replica = [](std::optional<Uuid> id) {
    PartitionReplica r;
    r.topic = "d";
    r.partition = 0;
    r.topic_id = id;
    return r;
  };
  const Uuid a = parse_uuid("1xdWaU5KRaC_Aglt2I_ErA").uuid;
  const Uuid b = parse_uuid("AAAAAAAAAAAAAAAAAAAAAQ").uuid;
  std::vector<ReplicaSource> sources{source("x", replica(std::nullopt)), source("y", replica(a)),
                                     source("z", replica(b))};
  CHECK_THROWS_WITH(pair_replicas(sources, 2, true),
                    Catch::Contains("z holds d-0 with topic id") && Catch::Contains("but y has"));
  sources[2].replicas[0].topic_id = a;
  CHECK(pair_replicas(sources, 2, true).groups.front().replicas.size() == 3);
}

TEST_CASE("A -delete, -stray or -future dir given alone is not a replica to judge",
          "[storage][replica_sources]") {
  // LogManager deletes the first two and only swaps a future log in when a move completes:
  // refused (an input kepoch cannot judge), as the log dir walk leaves them out.
  const std::filesystem::path d0 =
      std::filesystem::path(KEPOCH_SOURCE_DIR) / "tests/data/divergence/before/broker-1/d-0";
  for (const char* suffix : {"-delete", "-stray", "-future"}) {
    char tmpl[] = "/tmp/kepoch-state-XXXXXX";
    const std::filesystem::path logdir = ::mkdtemp(tmpl);
    const auto dir = logdir / (std::string("d-0.1bd8c3a5f7e64b0a9a8d7b1c2e3f4a5b") + suffix);
    std::filesystem::copy(d0, dir, std::filesystem::copy_options::recursive);
    CHECK_THROWS_WITH(load_replica_source(dir.string()),
                      Catch::Contains("not a live replica") && Catch::Contains(suffix));
    std::filesystem::remove_all(logdir);
  }
}
