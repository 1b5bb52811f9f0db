// Walking real Kafka-written segments, and copies damaged at known offsets: each damage
// gives the finding Kafka's readers would (FileLogInputStream, DefaultRecordBatch.ensureValid,
// DefaultRecord.readFrom) at the exact byte.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/record.hpp"
#include "kepoch/storage/log_segment_reader.hpp"

namespace fs = std::filesystem;
using namespace kepoch;

namespace {

const fs::path kTxnLog =
    fs::path(KEPOCH_SOURCE_DIR) / "tests/data/transactions/tx-0/00000000000000000000.log";

std::vector<std::uint8_t> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A damaged copy of a real segment in a scratch file, removed at the end of the test.
struct Copy {
  fs::path path;
  explicit Copy(std::vector<std::uint8_t> bytes) {
    char tmpl[] = "/tmp/kepoch-segment-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    ::close(fd);
    path = tmpl;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  ~Copy() { fs::remove(path); }
};

struct Walk {
  std::vector<BatchHeader> headers;
  std::vector<std::optional<std::string>> invalid;
  LogEnd end;
};

Walk walk(const fs::path& p) {
  Walk w;
  LogSegmentReader reader(p);
  while (auto e = reader.next()) {
    w.headers.push_back(e->header);
    w.invalid.push_back(validate_batch(e->header, e->bytes));
  }
  w.end = reader.end();
  return w;
}

void put_be32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

}  // namespace

TEST_CASE("a real transactional segment: offsets, control batches, CRCs", "[storage][segment]") {
  const Walk w = walk(kTxnLog);
  REQUIRE(w.headers.size() == 5);
  CHECK(w.end.reason == LogEndReason::end_of_file);
  CHECK(w.end.trailing_bytes == 0);
  std::int64_t next = 0;
  int control = 0;
  for (std::size_t i = 0; i < w.headers.size(); ++i) {
    const auto& h = w.headers[i];
    CHECK(h.base_offset == next);
    CHECK(h.magic == 2);
    CHECK_FALSE(w.invalid[i]);
    next = h.next_offset();
    control += h.is_control();
  }
  CHECK(next == 9);
  CHECK(control == 2);  // a COMMIT and an ABORT marker
  CHECK(w.headers[1].is_transactional());
}

TEST_CASE("records of a real batch: keys, values, offsets, sequences", "[storage][segment]") {
  LogSegmentReader reader(kTxnLog);
  auto e = reader.next();
  REQUIRE(e);
  std::vector<Record> records;
  for_each_record(e->header, e->bytes.subspan(kBatchHeaderSize), kBatchHeaderSize,
                  [&](const Record& r) { records.push_back(r); });
  REQUIRE(records.size() == 3);
  CHECK(records[2].offset == 2);
  CHECK(records[2].sequence == e->header.base_sequence + 2);
  REQUIRE(records[0].value);
  CHECK(std::string(records[0].value->begin(), records[0].value->end()).find("value-0") !=
        std::string::npos);
}

TEST_CASE("a flipped payload byte fails the CRC at that batch", "[storage][segment]") {
  auto bytes = slurp(kTxnLog);
  bytes[226 + 70] ^= 0x01;  // inside the third batch's records
  const Copy copy(bytes);
  const Walk w = walk(copy.path);
  REQUIRE(w.headers.size() == 5);
  CHECK_FALSE(w.invalid[1]);
  REQUIRE(w.invalid[2]);
  CHECK_THAT(*w.invalid[2], Catch::StartsWith("Record is corrupt (stored crc = "));
  CHECK(w.headers[2].position == 226);
}

TEST_CASE("the partition leader epoch is outside the CRC (spec 13.8)", "[storage][segment]") {
  auto bytes = slurp(kTxnLog);
  put_be32(bytes, 12, 7);  // first batch's partitionLeaderEpoch
  const Copy copy(bytes);
  const Walk w = walk(copy.path);
  CHECK(w.headers[0].partition_leader_epoch == 7);
  CHECK_FALSE(w.invalid[0]);  // undetectable, as in Kafka
}

TEST_CASE("torn tails stop the walk where FileLogInputStream stops", "[storage][segment]") {
  const auto bytes = slurp(kTxnLog);
  SECTION("a partial batch") {
    const Copy copy({bytes.begin(), bytes.begin() + 419 + 50});
    const Walk w = walk(copy.path);
    CHECK(w.headers.size() == 4);
    CHECK(w.end.reason == LogEndReason::partial_batch);
    CHECK(w.end.position == 419);
    CHECK(w.end.trailing_bytes == 50);
  }
  SECTION("17 bytes or fewer of a header") {
    const Copy copy({bytes.begin(), bytes.begin() + 419 + 17});
    const Walk w = walk(copy.path);
    CHECK(w.end.reason == LogEndReason::partial_header);
    CHECK(w.end.position == 419);
  }
  SECTION("zero-filled preallocated space") {
    std::vector<std::uint8_t> padded = bytes;
    padded.resize(bytes.size() + 4096, 0);
    const Copy copy(padded);
    const Walk w = walk(copy.path);
    CHECK(w.headers.size() == 5);
    CHECK(w.end.reason == LogEndReason::corrupt_size);
    CHECK(w.end.position == bytes.size());
    CHECK_THAT(w.end.message,
               Catch::StartsWith("Found record size 0 smaller than minimum record overhead (14)"));
  }
}

TEST_CASE("lying size fields never allocate or crash", "[storage][segment]") {
  auto bytes = slurp(kTxnLog);
  SECTION("2^31-1") {
    put_be32(bytes, 148 + 8, 0x7fffffff);
    const Copy copy(bytes);
    const Walk w = walk(copy.path);
    CHECK(w.headers.size() == 1);
    CHECK(w.end.reason == LogEndReason::partial_batch);
    CHECK(w.end.position == 148);
  }
  SECTION("negative") {
    put_be32(bytes, 148 + 8, 0xffffffff);
    const Copy copy(bytes);
    const Walk w = walk(copy.path);
    CHECK(w.end.reason == LogEndReason::corrupt_size);
    CHECK_THAT(w.end.message, Catch::Contains("Found record size -1"));
  }
  SECTION("a batch shorter than the 61-byte header") {
    put_be32(bytes, 148 + 8, 20);
    const Copy copy(bytes);
    LogSegmentReader reader(copy.path);
    reader.next();
    auto e = reader.next();
    REQUIRE(e);
    CHECK_THAT(*validate_batch(e->header, e->bytes),
               Catch::Contains("smaller than the minimum allowed overhead 61"));
  }
}

TEST_CASE("a record whose length lies is an error at its byte", "[storage][segment]") {
  auto bytes = slurp(kTxnLog);
  bytes[61] = 0x7e;  // first record's length varint: 63 bytes, more than the batch holds
  const Copy copy(bytes);
  LogSegmentReader reader(copy.path);
  auto e = reader.next();
  REQUIRE(e);
  try {
    for_each_record(e->header, e->bytes.subspan(kBatchHeaderSize), kBatchHeaderSize,
                    [](const Record&) {});
    FAIL("expected a FormatError");
  } catch (const FormatError& err) {
    INFO(err.what());
    CHECK(err.position() == 61);
    CHECK_THAT(err.what(), Catch::Contains("Invalid record size: expected to read 63 bytes"));
  }
}

namespace {

// Every entry of a walk in full, with the walk's end; `seek_at`: after that many entries,
// seek back to the first batch's end and walk on (once).
struct FullWalk {
  std::vector<BatchHeader> headers;
  std::vector<bool> loaded;
  std::vector<std::vector<std::uint8_t>> bytes;
  LogEnd end;
};

FullWalk walk_full(const fs::path& p, bool ahead, std::size_t seek_at = 0) {
  FullWalk w;
  LogSegmentReader reader(p);
  if (ahead) reader.read_ahead();
  bool sought = false;
  while (auto e = reader.next()) {
    w.headers.push_back(e->header);
    w.loaded.push_back(e->loaded);
    w.bytes.emplace_back(e->bytes.begin(), e->bytes.end());
    if (seek_at && !sought && w.headers.size() == seek_at) {
      reader.seek(w.headers[0].size_in_bytes());
      sought = true;
    }
  }
  w.end = reader.end();
  return w;
}

// The transactional segment's first batch (148 bytes), grown to `total` bytes of zeros
// after its own: a batch larger than the reader's windows, its CRC no matter here.
std::vector<std::uint8_t> grown_batch(const std::vector<std::uint8_t>& segment, std::size_t total) {
  std::vector<std::uint8_t> b(segment.begin(), segment.begin() + 148);
  b.resize(total, 0);
  put_be32(b, 8, static_cast<std::uint32_t>(total - 12));
  return b;
}

}  // namespace

TEST_CASE("read ahead on a second thread: the same entries as reading in place",
          "[storage][segment]") {
  const auto segment = slurp(kTxnLog);  // 5 batches, 534 bytes
  // More than a few windows of small batches, batches larger than a window (by a byte, and
  // many times), one just below it, then each of the ends a walk can have.
  std::vector<std::uint8_t> bytes;
  const auto small = [&](int copies) {
    for (int i = 0; i < copies; ++i)
      bytes.insert(bytes.end(), segment.begin(), segment.end());
  };
  small(1500);
  // The sizes around 256 KiB (the in-place window) and 512 KiB (the read-ahead window, with
  // a window's room in front for a cut batch); 1 MiB and more span several read-ahead
  // windows and, gathered, leave part of the next batches behind them.
  for (const std::size_t total :
       {(256u << 10) + 1, 700u << 10, (256u << 10) - 100, 3000u, (512u << 10) + 1,
        (512u << 10) - 100, (1u << 20) + 1, 2560u << 10, 1536u << 10, 1400u << 10}) {
    const auto big = grown_batch(segment, total);
    bytes.insert(bytes.end(), big.begin(), big.end());
    small(700);
  }
  REQUIRE(bytes.size() > 3 * LogSegmentReader::kReadAheadMin);
  const std::vector<std::pair<const char*, std::vector<std::uint8_t>>> files = {
      {"clean end", bytes},
      {"partial batch",
       [&] {
         auto b = bytes;
         b.insert(b.end(), segment.begin(), segment.begin() + 100);
         return b;
       }()},
      {"zero padding",
       [&] {
         auto b = bytes;
         b.resize(b.size() + 10000, 0);
         return b;
       }()},
      {"ends in a large batch", [&] {
         auto b = bytes;
         const auto big = grown_batch(segment, 300u << 10);
         b.insert(b.end(), big.begin(), big.end());
         return b;
       }()}};
  for (const auto& [name, content] : files) {
    const Copy copy(content);
    for (const std::size_t seek_at : {std::size_t{0}, std::size_t{5000}}) {
      INFO(name << ", seek after " << seek_at);
      const FullWalk in_place = walk_full(copy.path, false, seek_at);
      const FullWalk ahead = walk_full(copy.path, true, seek_at);
      REQUIRE(in_place.headers.size() > 5000);
      REQUIRE(ahead.headers.size() == in_place.headers.size());
      for (std::size_t i = 0; i < ahead.headers.size(); ++i) {
        INFO("entry " << i);
        REQUIRE(ahead.headers[i].position == in_place.headers[i].position);
        REQUIRE(ahead.headers[i].base_offset == in_place.headers[i].base_offset);
        REQUIRE(ahead.headers[i].size_field == in_place.headers[i].size_field);
        REQUIRE(ahead.headers[i].crc == in_place.headers[i].crc);
        REQUIRE(ahead.loaded[i] == in_place.loaded[i]);
        REQUIRE(ahead.bytes[i] == in_place.bytes[i]);
        // And both are the file's bytes at the entry.
        const auto at = static_cast<std::ptrdiff_t>(ahead.headers[i].position);
        REQUIRE(ahead.loaded[i]);
        REQUIRE(std::equal(ahead.bytes[i].begin(), ahead.bytes[i].end(), content.begin() + at));
        REQUIRE(ahead.bytes[i].size() == ahead.headers[i].size_in_bytes());
      }
      CHECK(ahead.end.reason == in_place.end.reason);
      CHECK(ahead.end.position == in_place.end.position);
      CHECK(ahead.end.trailing_bytes == in_place.end.trailing_bytes);
      CHECK(ahead.end.message == in_place.end.message);
    }
  }
}

TEST_CASE("read ahead: a walk stopped part way, small and held files read in place",
          "[storage][segment]") {
  const auto segment = slurp(kTxnLog);
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < 4000; ++i)
    bytes.insert(bytes.end(), segment.begin(), segment.end());
  const Copy copy(bytes);
  {
    LogSegmentReader reader(copy.path);
    reader.read_ahead();
    for (int i = 0; i < 10; ++i)
      REQUIRE(reader.next());
  }                           // the thread, mid-read, stops with the reader
  const Copy small(segment);  // below kReadAheadMin: nothing changes
  LogSegmentReader reader(small.path);
  reader.read_ahead();
  int n = 0;
  while (reader.next())
    ++n;
  CHECK(n == 5);
}
