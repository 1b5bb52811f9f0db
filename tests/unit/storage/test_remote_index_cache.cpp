// storage/remote_index_cache: the remote-log-index-cache dir as RemoteIndexCache reads it
// (its file names: generateFileNamePrefixForIndex, remoteLogSegmentIdFromRemoteIndexFileName,
// offsetFromRemoteIndexFileName; what init does with them at start-up; the sanity checks it
// runs on a complete entry), cross-checked against __remote_log_metadata. The fixture
// tests/data/tiered/index-cache is a cache Kafka 4.4.0 filled (tests/data/gen-remote-index-cache).
#include <unistd.h>

#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <filesystem>
#include <fstream>

#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/remote_index_cache.hpp"
#include "kepoch/storage/tiered_view.hpp"

namespace fs = std::filesystem;
using namespace kepoch;
using Catch::Matchers::Contains;

namespace {

constexpr const char* kId =
    "UH3ecz5GSXSha8XUAXrVJw";  // segment ids of the fixture (Kafka 4.4.0 wrote them)

struct ScratchDir {
  fs::path dir;
  ScratchDir() {
    char tmpl[] = "/tmp/kepoch-ric-XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  ~ScratchDir() { fs::remove_all(dir); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir / name, std::ios::binary) << bytes;
  }
};

const RemoteIndexCacheEntry& entry(const RemoteIndexCacheView& v, const std::string& prefix) {
  for (const auto& e : v.entries)
    if (e.prefix == prefix) return e;
  FAIL("no entry " << prefix);
  throw std::logic_error("unreachable");
}

std::size_t count(const RemoteIndexCacheView& v, const std::string& severity,
                  const std::string& kind) {
  std::size_t n = 0;
  for (const auto& f : v.findings)
    n += f.severity == severity && f.kind == kind;
  return n;
}

std::string be32(std::uint32_t v) {
  return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

}  // namespace

TEST_CASE(
    "remote index cache names: <offset>_<segment id>.index|.timeindex|.txnindex, and "
    "those with .deleted or .tmp (RemoteIndexCache.remote*FileName, Entry.markForCleanup)",
    "[remote_index_cache]") {
  const std::string p = std::string("1024_") + kId;
  const auto index = parse_remote_index_file_name(p + ".index");
  CHECK(index.kind == RemoteIndexFileKind::offset_index);
  CHECK(index.prefix == p);
  REQUIRE(index.segment_id);
  CHECK(index.segment_id->to_string() == kId);
  CHECK(index.start_offset == 1024);
  CHECK(parse_remote_index_file_name(p + ".timeindex").kind == RemoteIndexFileKind::time_index);
  CHECK(parse_remote_index_file_name(p + ".txnindex").kind == RemoteIndexFileKind::txn_index);
  const auto deleted = parse_remote_index_file_name(p + ".timeindex.deleted");
  CHECK(deleted.kind == RemoteIndexFileKind::deleted);
  CHECK(deleted.prefix == p);
  CHECK(deleted.segment_id);
  CHECK(parse_remote_index_file_name(p + ".index.tmp").kind == RemoteIndexFileKind::tmp);
  CHECK(parse_remote_index_file_name(p + ".log").kind == RemoteIndexFileKind::other);
  // Long.parseLong takes a sign; the ids Uuid.toString writes may hold '_' (URL base64):
  // the offset ends at the FIRST '_', the id runs from there to the first '.'.
  CHECK(parse_remote_index_file_name(std::string("+7_") + kId + ".index").start_offset == 7);
  CHECK(parse_remote_index_file_name(std::string("-5_") + kId + ".index").start_offset == -5);
  const auto underscore_id = parse_remote_index_file_name("1024_buGAJsixSqyOmGN3Dqm_sw.index");
  REQUIRE(underscore_id.segment_id);  // Kafka 4.4.0 wrote this one (the fixture)
  CHECK(underscore_id.segment_id->to_string() == "buGAJsixSqyOmGN3Dqm_sw");
}

TEST_CASE("remote index cache names Kafka cannot read: the exception init throws",
          "[remote_index_cache]") {
  CHECK_THAT(parse_remote_index_file_name("junk").id_error,
             Contains("StringIndexOutOfBoundsException") && Contains("no '.'"));
  CHECK_THAT(parse_remote_index_file_name("a.b_c").id_error,
             Contains("StringIndexOutOfBoundsException"));
  CHECK_THAT(parse_remote_index_file_name("5_notauuid.index").id_error,
             Contains("IllegalArgumentException"));
  CHECK(!parse_remote_index_file_name("5_notauuid.index").segment_id);
  // The id parses, the offset does not: fatal only once the entry is complete.
  const auto x = parse_remote_index_file_name(std::string("x_") + kId + ".index");
  CHECK(x.segment_id);
  CHECK(!x.start_offset);
  CHECK(x.offset_error == "java.lang.NumberFormatException: For input string: \"x\"");
  const auto no_underscore = parse_remote_index_file_name(std::string(kId) + ".index");
  CHECK(no_underscore.segment_id);  // substring(0, indexOf(".")): the whole prefix
  CHECK_THAT(no_underscore.offset_error, Contains("StringIndexOutOfBoundsException"));
  CHECK(!parse_remote_index_file_name(std::string("9223372036854775808_") + kId + ".index")
             .start_offset);
  CHECK(parse_remote_index_file_name(std::string("9223372036854775807_") + kId + ".index")
            .start_offset == INT64_MAX);
  CHECK(parse_remote_index_file_name(std::string("-9223372036854775808_") + kId + ".index")
            .start_offset == INT64_MIN);
}

TEST_CASE("remote index cache entries: what RemoteIndexCache.init does with each at start-up",
          "[remote_index_cache]") {
  const std::string a = std::string("0_") + kId;
  const std::string b = "1024_buGAJsixSqyOmGN3Dqm_sw";
  const std::string c = "2048_tvodlzq2QQWBb7zw6aBr1w";
  const std::string d = "3072_AAAAAAAAAAAAAAAAAAAAAQ";
  const std::string e = "4096_AAAAAAAAAAAAAAAAAAAAAg";
  const auto v = judge_remote_index_cache_names(
      {a + ".index", a + ".timeindex", a + ".txnindex",                          // complete
       b + ".index", b + ".timeindex",                                           // incomplete
       c + ".index.deleted", c + ".timeindex.deleted", c + ".txnindex.deleted",  // marked
       d + ".index.tmp",                                                         // a download
       e + ".log"},                                                              // not Kafka's
      {80, 120, 0, 8, 12, 8, 12, 0, 8, 5});
  CHECK(v.files == 10);
  CHECK(v.bytes == 253);
  REQUIRE(v.entries.size() == 5);
  CHECK(v.entries.front().prefix == a);  // by start offset
  CHECK(entry(v, a).state == "cached");
  CHECK(entry(v, a).at_startup == "loaded");
  CHECK(entry(v, a).bytes == 200);
  CHECK(entry(v, b).state == "incomplete");
  CHECK(entry(v, b).at_startup == "deleted");
  CHECK(entry(v, c).state == "marked_for_deletion");
  CHECK_THAT(entry(v, c).startup_note, Contains("stay for good on 3.9 and 4.0"));
  CHECK(entry(v, d).state == "download_unfinished");
  CHECK(entry(v, e).state == "other");
  CHECK(entry(v, e).at_startup == "left");
  CHECK(count(v, "info", "other_file") == 1);
  CHECK(count(v, "info", "incomplete_entry") == 1);
  CHECK(count(v, "error", "unparsable_name") == 0);
  CHECK(remote_index_cache_problems(v).empty());
}

TEST_CASE(
    "remote index cache: a name init cannot read stops the broker, a .tmp or .deleted "
    "one only before 4.1 (KAFKA-18787)",
    "[remote_index_cache]") {
  const auto v = judge_remote_index_cache_names(
      {"junk", "junk.tmp", std::string("x_") + kId + ".index",
       std::string("x_") + kId + ".timeindex", std::string("x_") + kId + ".txnindex"},
      {});
  CHECK(count(v, "error", "unparsable_name") == 2);    // "junk", and x_'s complete entry
  CHECK(count(v, "warning", "unparsable_name") == 1);  // "junk.tmp"
  const auto problems = remote_index_cache_problems(v);
  REQUIRE(problems.size() == 2);
  for (const auto& p : problems) {
    CHECK(p.severity == "error");
    CHECK(p.kafka_outcome == "startup-fatal");
  }
  CHECK(entry(v, std::string("x_") + kId).at_startup == "broker_fails");
  // Two entries for one segment id: init keeps the first Files.list gives.
  const auto dup = judge_remote_index_cache_names(
      {std::string("0_") + kId + ".index", std::string("7_") + kId + ".index"}, {});
  CHECK(count(dup, "warning", "duplicate_segment_id") == 1);
}

TEST_CASE("remote index cache: an empty dir, and an unlistable one", "[remote_index_cache]") {
  ScratchDir s;
  const auto empty = read_remote_index_cache(s.dir);
  CHECK(!empty.unreadable);
  CHECK(empty.files == 0);
  CHECK(empty.entries.empty());
  CHECK(empty.findings.empty());
  const auto missing = read_remote_index_cache(s.dir / "nope");
  REQUIRE(missing.unreadable);
  CHECK_THAT(*missing.unreadable, Contains("nope"));
}

TEST_CASE(
    "remote index cache: a complete entry's indexes get init's sanity checks "
    "(OffsetIndex, TimeIndex, TransactionIndex.sanityCheck), in that order",
    "[remote_index_cache]") {
  ScratchDir s;
  const std::string good = "100_" + std::string(kId);
  s.write(good + ".index", be32(5) + be32(0));  // offset 105 at position 0
  s.write(good + ".timeindex", std::string(8, '\0') + be32(5));
  s.write(good + ".txnindex", "");
  const std::string bad = "200_AAAAAAAAAAAAAAAAAAAAAQ";
  s.write(bad + ".index", std::string(7, '\0'));  // not a multiple of 8
  s.write(bad + ".timeindex", "");
  s.write(bad + ".txnindex", "");
  const auto v = read_remote_index_cache(s.dir);
  CHECK(entry(v, good).at_startup == "loaded");
  CHECK(entry(v, bad).at_startup == "broker_fails");
  CHECK_THAT(entry(v, bad).startup_note, Contains("CorruptIndexException"));
  CHECK(count(v, "error", "corrupt_index") == 1);
  REQUIRE(remote_index_cache_problems(v).size() == 1);
  CHECK(remote_index_cache_problems(v)[0].file == (s.dir / bad).string());
}

TEST_CASE(
    "remote index cache cross-checked with __remote_log_metadata: live, deleted (stale), "
    "unknown, not read",
    "[remote_index_cache]") {
  const std::string a = std::string("0_") + kId;
  const std::string b = "1024_buGAJsixSqyOmGN3Dqm_sw";
  const std::string c = "2048_tvodlzq2QQWBb7zw6aBr1w";
  std::vector<std::string> names;
  for (const auto& p : {a, b, c})
    for (const char* s : {".index", ".timeindex", ".txnindex"})
      names.push_back(p + s);
  auto v = judge_remote_index_cache_names(names, {});

  TieredLogDirView none;
  cross_check_remote_index_cache(v, none);
  CHECK(!v.metadata_read);
  CHECK(entry(v, a).metadata == "not_read");

  TieredLogDirView t;
  t.metadata_partitions = {"__remote_log_metadata-0"};
  TieredPartitionView p;
  p.topic = "tiered";
  p.partition = 0;
  RemoteSegmentView deleted;
  deleted.segment_id = parse_uuid(kId).uuid;
  deleted.start_offset = 0;
  deleted.end_offset = 1023;
  deleted.state = "DELETE_SEGMENT_FINISHED";
  RemoteSegmentView live;
  live.segment_id = parse_uuid("buGAJsixSqyOmGN3Dqm_sw").uuid;
  live.start_offset = 1000;  // not the name's 1024
  live.end_offset = 2047;
  live.state = "COPY_SEGMENT_FINISHED";
  p.segments = {deleted, live};
  t.partitions.push_back(p);
  cross_check_remote_index_cache(v, t);
  CHECK(v.metadata_read);
  CHECK(entry(v, a).metadata == "deleted");
  CHECK(entry(v, a).topic == "tiered");
  CHECK(entry(v, a).partition == 0);
  CHECK(entry(v, a).segment_state == "DELETE_SEGMENT_FINISHED");
  CHECK(entry(v, b).metadata == "live");
  CHECK(entry(v, c).metadata == "unknown");
  CHECK(count(v, "info", "stale_entry") == 1);
  CHECK(count(v, "warning", "offset_mismatch") == 1);
  CHECK(count(v, "info", "unknown_segment") == 1);
}

TEST_CASE("remote index cache Kafka 4.4.0 filled, with the metadata of the same moment",
          "[remote_index_cache]") {
  const fs::path logdir = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/tiered/index-cache/broker-1";
  LogDirScan scan = scan_log_dirs({logdir}, {}).front();
  REQUIRE(!scan.unreadable);
  REQUIRE(scan.remote_index_cache);
  const TieredLogDirView tiered = read_tiered_view(scan);
  const auto v = read_log_dir_index_cache(scan, tiered);
  REQUIRE(v);
  REQUIRE(v->entries.size() == 3);  // the three remote segments the consumer read
  for (const auto& e : v->entries) {
    CHECK(e.state == "cached");
    CHECK(e.at_startup == "loaded");
    CHECK(e.topic == "tiered");
    CHECK(e.metadata_start_offset == e.start_offset);
  }
  // Remote retention deleted the oldest segment; its cache entry stayed.
  CHECK(v->entries[0].metadata == "deleted");
  CHECK(v->entries[1].metadata == "live");
  CHECK(v->entries[2].metadata == "live");
  CHECK(count(*v, "info", "stale_entry") == 1);
  CHECK(remote_index_cache_problems(*v).empty());
}
