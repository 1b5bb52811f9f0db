// storage/log_dir and storage/partition_dir: the one definition of a log dir's partition
// replicas (LogManager.loadLogs) and of a partition's live segments (LogLoader,
// LogFileUtils), pinned entry by entry.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/partition_dir.hpp"

namespace fs = std::filesystem;
using namespace kepoch;
using Catch::Matchers::Contains;

namespace {

struct ScratchDir {
  fs::path dir;
  ScratchDir() {
    char tmpl[] = "/tmp/kepoch-logdir-XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  ~ScratchDir() { fs::remove_all(dir); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  void touch(const fs::path& rel) const { std::ofstream(dir / rel) << ""; }
};

const LogDirEntry& entry(const LogDirListing& l, const std::string& name) {
  for (const auto& e : l.dirs)
    if (e.name == name) return e;
  FAIL("no entry " << name);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE(
    "log dir: LogManager.loadLogs loads topic-partition dirs, skips remote-log-index-cache "
    "and __cluster_metadata, and parseTopicPartitionName refuses the rest",
    "[storage][log_dir]") {
  ScratchDir s;
  s.touch("meta.properties");
  s.touch("replication-offset-checkpoint");
  for (const char* d :
       {"orders-0", "orders-1.0123456789abcdef0123456789abcdef-delete",
        "orders-2.0123456789abcdef0123456789abcdef-future", "__cluster_metadata-0",
        "remote-log-index-cache", "lost+found", "t-abc", "-0", "t-2147483648", ".snapshot"})
    fs::create_directory(s.dir / d);
  s.touch("not-a-dir-0");  // a file: File.isDirectory is false, ignored
  const LogDirListing l = list_log_dir(s.dir);
  CHECK(l.dirs.size() == 10);
  CHECK(l.checkpoint_files.size() == 2);  // meta.properties is one of the kinds checked
  CHECK(entry(l, "orders-0").kind == LogDirEntryKind::replica);
  CHECK(entry(l, "orders-0").partition->partition == 0);
  CHECK(entry(l, "orders-1.0123456789abcdef0123456789abcdef-delete").partition->state ==
        PartitionDirState::deleted);
  CHECK(entry(l, "orders-2.0123456789abcdef0123456789abcdef-future").kind ==
        LogDirEntryKind::replica);
  CHECK(entry(l, "__cluster_metadata-0").kind == LogDirEntryKind::metadata_log);
  CHECK(entry(l, "remote-log-index-cache").kind == LogDirEntryKind::remote_index_cache);
  for (const char* refused : {"lost+found", "t-abc", "-0", "t-2147483648", ".snapshot"}) {
    const auto& e = entry(l, refused);
    CHECK(e.kind == LogDirEntryKind::refused_name);
    CHECK_THAT(
        *e.kafka_failure,
        Contains(std::string("'") + refused +
                 "' is not in the form of topic-partition or topic-partition.uniqueId-delete"));
    CHECK_THAT(kafka_reading(e), Contains("Kafka does not start on this log dir"));
    CHECK(kafka_reading(e).find('\n') == std::string::npos);
  }
  CHECK(l.of_kind(LogDirEntryKind::replica).size() == 3);
}

TEST_CASE("log dir: symbolic links are followed as File.isDirectory follows them",
          "[storage][log_dir]") {
  ScratchDir s, elsewhere;
  s.touch("meta.properties");
  fs::create_directory_symlink("..", s.dir / "up-0");
  fs::create_directory_symlink(".", s.dir / "self-0");
  fs::create_directory_symlink(elsewhere.dir, s.dir / "moved-0");
  fs::create_directory_symlink(s.dir / "nowhere", s.dir / "dangling-0");  // not a directory
  const LogDirListing l = list_log_dir(s.dir);
  CHECK(l.dirs.size() == 3);
  CHECK(entry(l, "up-0").link_to_log_dir_or_above);
  CHECK(entry(l, "self-0").link_to_log_dir_or_above);
  CHECK_FALSE(entry(l, "moved-0").link_to_log_dir_or_above);
  CHECK(entry(l, "moved-0").link_target == elsewhere.dir);
  CHECK_THAT(kafka_reading(entry(l, "self-0")), Contains("loads that directory's files"));
  CHECK(kafka_reading(entry(l, "moved-0")).find("Kafka follows it") != std::string::npos);
}

TEST_CASE("log dir: a partition dir is refused with the command that reads it",
          "[storage][log_dir]") {
  ScratchDir s;
  fs::create_directory(s.dir / "orders-3");
  s.touch("orders-3/00000000000000000000.log");
  CHECK_THROWS_WITH(list_log_dir(s.dir / "orders-3"),
                    Contains("a partition dir (orders-3), not a log dir: to check it, run "
                             "`kepoch partition verify"));
  CHECK_THROWS_WITH(list_log_dir(s.dir / "missing"), Contains("no such log dir"));
  CHECK_FALSE(holds_log_dir_files(s.dir));
  s.touch("log-start-offset-checkpoint");
  CHECK(holds_log_dir_files(s.dir));
}

TEST_CASE("log dir: the metadata log a target means", "[storage][log_dir]") {
  ScratchDir s;
  CHECK(metadata_log_dir_of(s.dir) == s.dir);
  fs::create_directory(s.dir / "__cluster_metadata-0");
  CHECK(metadata_log_dir_of(s.dir) == s.dir / "__cluster_metadata-0");
  CHECK(metadata_log_dir_of(s.dir / "__cluster_metadata-0") == s.dir / "__cluster_metadata-0");
}

TEST_CASE(
    "partition dir: live segments are LogFileUtils.isLogFile names with an offset, by "
    "base offset",
    "[storage][partition_dir]") {
  ScratchDir s;
  for (const char* f : {"00000000000000000100.log", "00000000000000000000.log",
                        "00000000000000000050.log.deleted", "00000000000000000060.log.swap",
                        "00000000000000000000.index", "abc.log", "leader-epoch-checkpoint"})
    s.touch(f);
  fs::create_directory(s.dir / "subdir");
  const auto segments = live_segments(s.dir);
  REQUIRE(segments.size() == 2);
  CHECK(segments[0].base_offset == 0);
  CHECK(segments[1].base_offset == 100);
  const auto files = partition_files(s.dir);
  CHECK(files.size() == 7);  // the subdirectory is not a partition file
  CHECK(files.front().name == "00000000000000000000.index");  // name order
  CHECK(holds_partition_files(s.dir));
  CHECK(partition_dir_name_of(s.dir / "t-7/").name->partition == 7);
  CHECK_FALSE(partition_dir_name_of(s.dir / "lost+found").name);
}

TEST_CASE("partition dir: path_text spells a file's path as std::filesystem::path's operator/",
          "[storage][partition_dir]") {
  for (const char* dir : {"", "/", "a", "a/", ".", "..", "/x/y", "/x/y/", "x//y", "/x/./y/.."}) {
    for (const char* name : {"00000000000000000000.log", "t-0", "leader-epoch-checkpoint"}) {
      INFO(dir << " / " << name);
      CHECK(path_text(dir, name) == (fs::path(dir) / name).string());
    }
  }
}

TEST_CASE("partition dir: a plain last component is read as the normal form's last one",
          "[storage][partition_dir]") {
  // The shortcut for a plain name, and the normalising path for the rest, agree.
  for (const char* dir : {"/d/t-7", "d/t-7", "t-7", "/d/./t-7", "/d/x/../t-7", "/d/t-7/",
                          "/d/t-7/.", "/d/t-7/x/..", "/d/lost+found", "d/t-7.abc-delete"}) {
    INFO(dir);
    const auto fast = partition_dir_name_of(dir);
    const fs::path norm = absolute_path(dir).lexically_normal();
    const auto slow = parse_partition_dir_name(
        (norm.has_filename() ? norm : norm.parent_path()).filename().string(), dir);
    REQUIRE(fast.name.has_value() == slow.name.has_value());
    if (fast.name) {
      CHECK(fast.name->topic == slow.name->topic);
      CHECK(fast.name->partition == slow.name->partition);
      CHECK(fast.name->state == slow.name->state);
    }
    CHECK(fast.kafka_failure == slow.kafka_failure);
  }
  CHECK(partition_dir_name_of("/d/t-7/x/..").name->partition == 7);
}
