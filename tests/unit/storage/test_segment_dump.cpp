// dump_segment's known_crcs: the CRCs a header walk of the same file computed, taken by the
// printing walk instead of computing them again, only where the batch's stored CRC equals
// the known one (Kafka's DefaultRecordBatch.ensureValid found it valid then).

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "kepoch/storage/segment_dump.hpp"
#include "support/source_dir.hpp"

namespace fs = std::filesystem;
using namespace kepoch;

namespace {

// Real Kafka's segment: broker 1's two batches (offsets 0-4 and 5-7).
std::string fixture() {
  return std::string(KEPOCH_SOURCE_DIR) +
         "/tests/data/divergence/before/broker-1/d-0/00000000000000000000.log";
}

struct Seen {
  std::vector<std::uint32_t> computed;
  std::vector<bool> valid;
};

Seen walk(const std::string& file, std::span<const std::uint32_t> known) {
  SegmentDumpOptions o;
  o.known_crcs = known;
  Seen s;
  dump_segment(file, o, [&](DumpedBatch& b) {
    s.computed.push_back(b.computed_crc);
    s.valid.push_back(b.crc_valid.value_or(false) && !b.invalid);
  });
  return s;
}

}  // namespace

TEST_CASE("segment dump: a header walk's CRCs are reused only where the stored CRC matches",
          "[storage][segment_dump]") {
  const Seen first = walk(fixture(), {});
  REQUIRE(first.computed.size() == 2);
  CHECK(first.valid == std::vector<bool>{true, true});
  // Reused: the same answers.
  const Seen again = walk(fixture(), first.computed);
  CHECK(again.computed == first.computed);
  CHECK(again.valid == first.valid);

  // The second batch's records changed after the header walk (its stored CRC kept): the
  // known CRC still matches the stored one, so the walk takes it as checked; this is the
  // contract, the caller vouches that the known CRCs are of the same file.
  const fs::path dir = fs::temp_directory_path() / "kepoch-unit-segment-dump";
  fs::create_directories(dir);
  const fs::path copy = dir / "00000000000000000000.log";
  std::vector<char> bytes;
  {
    std::ifstream in(fixture(), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[200] ^= 0x55;  // inside the second batch (it starts at byte 156)
  {
    std::ofstream out(copy, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  CHECK(walk(copy.string(), first.computed).valid == std::vector<bool>{true, true});
  const Seen fresh = walk(copy.string(), {});
  CHECK(fresh.valid == std::vector<bool>{true, false});  // ensureValid fails as computed
  // A known CRC that differs from the stored one (the header walk found the batch invalid,
  // or another batch stood there) is never taken: the CRC is computed.
  const std::vector<std::uint32_t> wrong{first.computed[0], first.computed[1] ^ 1u};
  const Seen computed = walk(copy.string(), wrong);
  CHECK(computed.valid == std::vector<bool>{true, false});
  CHECK(computed.computed == fresh.computed);
  // Fewer known CRCs than batches: the rest are computed.
  const std::vector<std::uint32_t> one{first.computed[0]};
  CHECK(walk(copy.string(), one).valid == std::vector<bool>{true, false});
  fs::remove_all(dir);
}
