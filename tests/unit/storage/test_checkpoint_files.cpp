// Reading checkpoint files from disk: read-only, bounded, never hanging, with the path in
// every error.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/storage/checkpoint_files.hpp"

namespace fs = std::filesystem;
using namespace kepoch;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/kepoch-test-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path write(const std::string& name, const std::string& content) const {
    const fs::path p = path / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
};

}  // namespace

TEST_CASE("read_small_file: errors name the path", "[storage][files]") {
  TempDir dir;
  CHECK_THROWS_WITH(read_small_file(dir.path / "missing", 100),
                    Catch::Contains("missing: no such file or directory"));
  CHECK_THROWS_WITH(read_small_file(dir.path, 100), Catch::Contains("is a directory"));
  const auto big = dir.write("big", std::string(101, 'x'));
  CHECK_THROWS_WITH(read_small_file(big, 100), Catch::Contains("file is 101 bytes"));
}

TEST_CASE("read_small_file: a FIFO is refused, not waited on", "[storage][files]") {
  TempDir dir;
  const auto fifo = dir.path / "leader-epoch-checkpoint";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_small_file(fifo, 100), Catch::Contains("not a regular file"));
}

TEST_CASE("a directory means its checkpoint files and its partition dirs'", "[storage][files]") {
  TempDir dir;
  dir.write("meta.properties", "version=1\nnode.id=1\ncluster.id=x\n");
  dir.write("recovery-point-offset-checkpoint", "0\n0\n");
  dir.write("t-0/leader-epoch-checkpoint", "0\n1\n0 0\n");
  dir.write("t-0/00000000000000000000.log", "binary");
  dir.write("t-0/leader-epoch-checkpoint.tmp", "0\n1\n0 0\n");
  const auto paths = expand_checkpoint_paths(dir.path.string());
  REQUIRE(paths.size() == 4);
  CHECK(paths[0].filename() == "meta.properties");
  CHECK(paths[2].filename() == "leader-epoch-checkpoint");
  CHECK(paths[3].filename() == "leader-epoch-checkpoint.tmp");
}

TEST_CASE("a directory without checkpoint files cannot be judged", "[storage][files]") {
  TempDir dir;
  dir.write("t-0/00000000000000000000.log", "x");
  CHECK_THROWS_AS(expand_checkpoint_paths(dir.path.string()), InputError);
}

TEST_CASE("kind from name, content or flag", "[storage][files]") {
  TempDir dir;
  const auto renamed = dir.write("lec.bak", "0\n1\n0 0\n");
  CHECK(check_checkpoint_file(renamed, std::nullopt, CheckDepth::dump).type.kind ==
        CheckpointKind::leader_epoch);
  const auto segment = dir.write("00000000000000000000.log", std::string("\0\0\0\0\x01", 5));
  CHECK_THROWS_WITH(check_checkpoint_file(segment, std::nullopt, CheckDepth::dump),
                    Catch::Contains("cannot tell which checkpoint file"));
  const auto forced = check_checkpoint_file(segment, CheckpointType{CheckpointKind::leader_epoch},
                                            CheckDepth::dump);
  CHECK_FALSE(forced.valid);  // read as Kafka would: line 1 is no version number
}

TEST_CASE("stale .tmp and metadata log dir are seen beside the file", "[storage][files]") {
  TempDir dir;
  const auto file = dir.write("t-0/leader-epoch-checkpoint", "0\n1\n0 0\n");
  dir.write("t-0/leader-epoch-checkpoint.tmp", "0\n");
  const auto r = check_checkpoint_file(file, std::nullopt, CheckDepth::validate);
  CHECK(r.has_warnings());
  const auto meta = dir.write("meta.properties", "version=1\n");
  fs::create_directories(dir.path / "__cluster_metadata-0");
  CHECK(check_checkpoint_file(meta, std::nullopt, CheckDepth::validate).outcome ==
        KafkaOutcome::startup_fatal);
}

TEST_CASE("check_checkpoint_arguments judges what it can and lists the rest", "[storage][files]") {
  TempDir dir;
  const auto good = dir.write("leader-epoch-checkpoint", "0\n0\n");
  std::vector<CheckpointReport> reports;
  std::vector<std::string> unreadable;
  check_checkpoint_arguments(
      {good.string(), (dir.path / "nope").string()}, std::nullopt, CheckDepth::validate,
      [&reports](CheckpointReport&& r) { reports.push_back(std::move(r)); },
      [&unreadable](std::string why) { unreadable.push_back(std::move(why)); });
  CHECK(reports.size() == 1);
  REQUIRE(unreadable.size() == 1);
  CHECK_THAT(unreadable[0], Catch::Contains("nope: no such file or directory"));
}

TEST_CASE("epoch entries beyond the partition's log end offset are flagged", "[storage][files]") {
  TempDir dir;
  const fs::path real =
      fs::path(KEPOCH_SOURCE_DIR) / "tests/data/transactions/tx-0/00000000000000000000.log";
  fs::create_directories(dir.path / "tx-0");
  fs::copy_file(real, dir.path / "tx-0/00000000000000000000.log");  // LEO 9
  const auto at_end = dir.write("tx-0/leader-epoch-checkpoint", "0\n2\n0 0\n1 9\n");
  CHECK_FALSE(check_checkpoint_file(at_end, std::nullopt, CheckDepth::validate).has_warnings());
  const auto beyond = dir.write("tx-0/leader-epoch-checkpoint", "0\n2\n0 0\n1 12\n");
  const auto r = check_checkpoint_file(beyond, std::nullopt, CheckDepth::validate);
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].line == 4);
  CHECK_THAT(r.problems[0].message, Catch::Contains("beyond the log end offset 9"));
  CHECK(r.valid);
}
