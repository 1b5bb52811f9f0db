// Telling a segment file's kind from its name as Kafka's loader does (LogFileUtils suffixes,
// LogLoader's .deleted/.cleaned/.swap leftovers, offsetFromFileName), and reading index
// files and snapshots written by Kafka 4.1.1 read-only, bounded (tests/unit/data/indexes).
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <filesystem>
#include <string>
#include <utility>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/index_files.hpp"

namespace fs = std::filesystem;
using namespace kepoch;

namespace {

const fs::path kIx = fs::path(KEPOCH_SOURCE_DIR) / "tests/unit/data/indexes/ix-0";

std::string error_of(const fs::path& p, std::optional<SegmentFileKind> kind = std::nullopt,
                     std::optional<std::int64_t> base = std::nullopt) {
  try {
    classify_segment_file(p, kind, base);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("classify_segment_file: the kind and base offset come from the name") {
  struct Case {
    const char* name;
    SegmentFileKind kind;
    LeftoverState state;
    std::int64_t offset;
  };
  const Case cases[] = {
      {"00000000000000000024.log", SegmentFileKind::log, LeftoverState::none, 24},
      {"00000000000000000024.index", SegmentFileKind::index, LeftoverState::none, 24},
      {"00000000000000000024.timeindex", SegmentFileKind::timeindex, LeftoverState::none, 24},
      {"00000000000000000024.txnindex", SegmentFileKind::txnindex, LeftoverState::none, 24},
      {"00000000000000000031.snapshot", SegmentFileKind::snapshot, LeftoverState::none, 31},
      {"00000000000000000024.index.deleted", SegmentFileKind::index, LeftoverState::deleted, 24},
      {"00000000000000000024.timeindex.swap", SegmentFileKind::timeindex, LeftoverState::swap, 24},
      {"00000000000000000024.log.cleaned", SegmentFileKind::log, LeftoverState::cleaned, 24},
      {"00000000000000000008.snapshot.deleted", SegmentFileKind::snapshot, LeftoverState::deleted,
       8},
      // Long.parseLong of the text before the first '.': Kafka accepts these too.
      {"7.index", SegmentFileKind::index, LeftoverState::none, 7},
      {"+7.txnindex", SegmentFileKind::txnindex, LeftoverState::none, 7},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const auto t =
        classify_segment_file(fs::path("/some/dir") / c.name, std::nullopt, std::nullopt);
    CHECK(t.kind == c.kind);
    CHECK(t.state == c.state);
    REQUIRE(t.base_offset);
    CHECK(*t.base_offset == c.offset);
  }
}

TEST_CASE("classify_segment_file: a .log or .snapshot without an offset in its name is read") {
  const auto log = classify_segment_file("torn.log", std::nullopt, std::nullopt);
  CHECK(log.kind == SegmentFileKind::log);
  CHECK_FALSE(log.base_offset);
  const auto snap = classify_segment_file("old.snapshot", std::nullopt, std::nullopt);
  CHECK(snap.kind == SegmentFileKind::snapshot);
  CHECK_FALSE(snap.base_offset);
}

TEST_CASE("classify_segment_file: names of no segment kind are a one-line error naming them") {
  CHECK(error_of("dir/copy.bin") ==
        "dir/copy.bin: cannot tell the kind of segment file from its name (expected "
        "<offset>.log, .index, .timeindex, .txnindex or .snapshot, optionally followed by "
        ".deleted, .cleaned or .swap); use --kind");
  CHECK(error_of("00000000000000000024.index.bak").find("cannot tell the kind") !=
        std::string::npos);
  CHECK(error_of("t-0/leader-epoch-checkpoint") ==
        "t-0/leader-epoch-checkpoint: a leader-epoch-checkpoint file, not a segment file (use "
        "`kepoch checkpoint dump`)");
  CHECK(error_of("t-0/partition.metadata").find("not a segment file") != std::string::npos);
  // An index's entries are relative to the base offset, which the name must give.
  CHECK(error_of("x.index").find("x.index: cannot tell the segment base offset") == 0);
}

TEST_CASE("classify_segment_file: --kind and --base-offset override the name") {
  auto t = classify_segment_file("copy.bin", SegmentFileKind::index, std::int64_t{24});
  CHECK(t.kind == SegmentFileKind::index);
  CHECK(t.base_offset == std::int64_t{24});
  CHECK(error_of("copy.bin", SegmentFileKind::timeindex).find("base offset") != std::string::npos);
  t = classify_segment_file("00000000000000000024.index", SegmentFileKind::timeindex, std::nullopt);
  CHECK(t.kind == SegmentFileKind::timeindex);
  CHECK(t.base_offset == std::int64_t{24});
  t = classify_segment_file("00000000000000000024.index", std::nullopt, std::int64_t{1000});
  CHECK(t.base_offset == std::int64_t{1000});
}

TEST_CASE("read_index_file: Kafka's files of segment 24 parse as their kind") {
  const auto at = [](const char* name) {
    const fs::path p = kIx / name;
    return read_index_file(p, classify_segment_file(p, std::nullopt, std::nullopt));
  };
  const auto index = at("00000000000000000024.index");
  const auto& oi = std::get<OffsetIndex>(index.content);
  REQUIRE(oi.entries.size() == 6);
  CHECK(oi.entries.front().offset == 25);
  CHECK(oi.entries.front().position == 80);
  CHECK(oi.sanity_check("x") == std::nullopt);

  const auto time = at("00000000000000000024.timeindex");
  const auto& ti = std::get<TimeIndex>(time.content);
  REQUIRE(ti.entries.size() == 6);
  CHECK(ti.entries.back().offset == 30);

  const auto txn = at("00000000000000000024.txnindex");
  const auto& xi = std::get<TransactionIndex>(txn.content);
  REQUIRE(xi.entries.size() == 1);
  CHECK(xi.entries[0].producer_id == 2001);
  CHECK(xi.entries[0].last_offset == 25);

  const auto snapshot = at("00000000000000000024.snapshot");
  const auto& s = std::get<ProducerSnapshot>(snapshot.content);
  CHECK(s.valid());
  CHECK(s.entries.size() == 5);
}

TEST_CASE("read_index_file: files over the cap, missing files and .log files are refused") {
  const fs::path p = kIx / "00000000000000000024.index";  // 48 bytes
  const auto t = classify_segment_file(p, std::nullopt, std::nullopt);
  CHECK_THROWS_WITH(read_index_file(p, t, 47),
                    p.string() +
                        ": file is 48 bytes, larger than the 47 bytes kepoch reads for this kind "
                        "of file");
  CHECK_NOTHROW(read_index_file(p, t, 48));
  CHECK_THROWS_AS(read_index_file(kIx / "00000000000000000099.index", t), InputError);
  const fs::path log = kIx / "00000000000000000024.log";
  CHECK_THROWS_AS(read_index_file(log, classify_segment_file(log, std::nullopt, std::nullopt)),
                  InputError);
  CHECK(kMaxIndexFileBytes == 1ull << 30);
}

TEST_CASE(
    "classify_segment_file: the remote index cache's <offset>_<segment id> names take the "
    "number before the '_' as the base offset (RemoteIndexCache.offsetFromRemoteIndexFileName)") {
  for (const auto& [name, kind] :
       {std::pair{"1024_buGAJsixSqyOmGN3Dqm_sw.index", SegmentFileKind::index},
        std::pair{"1024_buGAJsixSqyOmGN3Dqm_sw.timeindex", SegmentFileKind::timeindex},
        std::pair{"1024_buGAJsixSqyOmGN3Dqm_sw.txnindex", SegmentFileKind::txnindex},
        std::pair{"1024_buGAJsixSqyOmGN3Dqm_sw.index.deleted", SegmentFileKind::index}}) {
    INFO(name);
    const auto t = classify_segment_file(std::string("remote-log-index-cache/") + name,
                                         std::nullopt, std::nullopt);
    CHECK(t.kind == kind);
    CHECK(t.base_offset == std::int64_t{1024});
    REQUIRE(t.remote_segment_id);
    CHECK(t.remote_segment_id->to_string() == "buGAJsixSqyOmGN3Dqm_sw");
  }
  // --base-offset still wins; a segment's own name is not a remote one.
  const auto forced =
      classify_segment_file("0_UH3ecz5GSXSha8XUAXrVJw.index", std::nullopt, std::int64_t{7});
  CHECK(forced.base_offset == std::int64_t{7});
  CHECK_FALSE(forced.remote_segment_id);
  CHECK_FALSE(classify_segment_file("00000000000000000024.index", std::nullopt, std::nullopt)
                  .remote_segment_id);
  // Not a segment id after the '_', or no number before it: the base offset is unknown.
  CHECK(error_of("5_junk.index").find("cannot tell the segment base offset") != std::string::npos);
  CHECK(error_of("x_UH3ecz5GSXSha8XUAXrVJw.index").find("cannot tell the segment base offset") !=
        std::string::npos);
}
