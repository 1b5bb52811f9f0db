// Pins decompression of record-batch payloads against batches written by real Kafka 4.1.1
// (tests/unit/data/compression/README.md): what the Java reader accepts decodes to the
// produced records; corrupt, truncated, lying or oversized payloads are FormatErrors at the
// right position. The acceptance quirks pinned below (gzip trailing junk, snappy raw blocks and
// 1-3 trailing bytes, LZ4 content checksum unverified, a stored empty LZ4 block as end mark,
// block-checksum and header-checksum failures, zstd trailing junk) were each confirmed by
// putting the payload in a batch with a fixed CRC and running Kafka 4.1.1's
// `kafka-dump-log --deep-iteration` on it.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <fstream>
#include <iterator>
#include <string>

#include "kepoch/format/compression.hpp"

using kepoch::CompressionType;
using kepoch::decompress;
using kepoch::FormatError;
using Bytes = std::vector<std::uint8_t>;

namespace {

constexpr std::size_t kMax = 1 << 20;
constexpr std::uint64_t kBase = 61;  // payloads start after the 61-byte batch header

Bytes data_file(const std::string& name) {
  std::ifstream f(std::string(KEPOCH_SOURCE_DIR) + "/tests/unit/data/compression/" + name,
                  std::ios::binary);
  REQUIRE(f);
  return Bytes(std::istreambuf_iterator<char>(f), {});
}

// The only batch of a .log file (DefaultRecordBatch header, 61 bytes).
struct Batch {
  int codec;
  std::int32_t count;
  Bytes payload;
};

Batch only_batch(const std::string& name) {
  const Bytes log = data_file(name);
  kepoch::ByteReader r(log);
  r.skip(8, "baseOffset");
  const auto length = static_cast<std::size_t>(r.i32("batchLength"));
  REQUIRE(length + 12 == log.size());
  r.skip(4 + 1 + 4, "partitionLeaderEpoch, magic, crc");
  const int codec = r.i16("attributes") & 7;
  r.skip(4 + 8 + 8 + 8 + 2 + 4, "lastOffsetDelta .. baseSequence");
  const std::int32_t count = r.i32("recordsCount");
  const auto payload = r.bytes(r.remaining(), "records");
  return {codec, count, Bytes(payload.begin(), payload.end())};
}

struct Record {
  std::optional<std::string> key, value;
};

std::optional<std::string> nullable(kepoch::ByteReader& r, std::string_view field) {
  const std::int32_t n = r.varint(field);
  if (n < 0) return std::nullopt;
  const auto b = r.bytes(static_cast<std::size_t>(n), field);
  return std::string(b.begin(), b.end());
}

// DefaultRecord.readFrom over the decompressed stream, which must hold exactly `count` records.
std::vector<Record> records(const Bytes& bytes, std::int32_t count) {
  kepoch::ByteReader r(bytes);
  std::vector<Record> out;
  for (std::int32_t i = 0; i < count; ++i) {
    auto rec = r.sub(static_cast<std::size_t>(r.varint("length")), "record");
    rec.skip(1, "attributes");
    rec.varlong("timestampDelta");
    REQUIRE(rec.varint("offsetDelta") == i);
    Record x{nullable(rec, "key"), nullable(rec, "value")};
    REQUIRE(rec.varint("headersCount") == 0);
    REQUIRE(rec.at_end());
    out.push_back(std::move(x));
  }
  REQUIRE(r.at_end());
  return out;
}

void check_produced(const std::vector<Record>& recs, bool keys, std::size_t first = 0) {
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const auto n = std::to_string(first + i);
    if (keys) {
      REQUIRE(recs[i].key == "r-" + n);
    } else {
      REQUIRE(!recs[i].key);
    }
    REQUIRE(recs[i].value == "r-value-" + n);
  }
}

Bytes concat(const Bytes& a, const Bytes& b) {
  Bytes out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

CompressionType type_of(const Batch& b) {
  return *kepoch::compression_from_attributes(b.codec);
}

// The FormatError `input` raises: its position and message.
std::pair<std::uint64_t, std::string> error_of(CompressionType type, const Bytes& input,
                                               std::size_t max = kMax,
                                               kepoch::LegacyLz4 legacy = kepoch::LegacyLz4::no) {
  try {
    decompress(type, input, kBase, max, legacy);
  } catch (const FormatError& e) {
    return {e.position(), e.what()};
  }
  FAIL("no FormatError");
  return {};
}

const char* const kCodecFiles[] = {"codec-gzip.log", "codec-snappy.log", "codec-lz4.log",
                                   "codec-zstd.log"};

}  // namespace

TEST_CASE("codec ids and names follow CompressionType.java", "[format][compression]") {
  CHECK(kepoch::compression_name(CompressionType::none) == "none");
  CHECK(kepoch::compression_name(CompressionType::zstd) == "zstd");
  for (int id = 0; id <= 4; ++id) {
    CHECK(static_cast<int>(*kepoch::compression_from_attributes(id)) == id);
  }
  CHECK(!kepoch::compression_from_attributes(5));  // "Unknown compression type id: 5"
  CHECK(!kepoch::compression_from_attributes(7));
  CHECK(!kepoch::compression_from_attributes(-1));
}

TEST_CASE("payloads written by Kafka's Java producer decode to the produced records",
          "[format][compression]") {
  for (const char* file : kCodecFiles) {
    INFO(file);
    const Batch b = only_batch(file);
    REQUIRE(b.count == 5);
    const Bytes out = decompress(type_of(b), b.payload, kBase, kMax);
    check_produced(records(out, b.count), true);
    // the bound is inclusive; one byte less is refused
    CHECK(decompress(type_of(b), b.payload, kBase, out.size()) == out);
    const auto [pos, what] = error_of(type_of(b), b.payload, out.size() - 1);
    CHECK(pos >= kBase);
    CHECK(pos <= kBase + b.payload.size());
    CHECK_THAT(what, Catch::Contains("exceeds max_output (" + std::to_string(out.size() - 1)));
  }
}

TEST_CASE("snappy: xerial stream with several chunks, and raw blocks of other clients",
          "[format][compression]") {
  const Batch big = only_batch("multi-chunk-snappy.log");
  REQUIRE(big.codec == 2);
  check_produced(records(decompress(CompressionType::snappy, big.payload, kBase, kMax), 1700),
                 false);

  // a raw snappy block (what librdkafka writes): the first xerial chunk of a real payload
  const Batch b = only_batch("codec-snappy.log");
  REQUIRE(kepoch::load_be32(b.payload.data() + 16) == b.payload.size() - 20);  // one chunk
  const Bytes raw(b.payload.begin() + 20, b.payload.end());
  const Bytes expected = decompress(CompressionType::snappy, b.payload, kBase, kMax);
  CHECK(decompress(CompressionType::snappy, raw, kBase, kMax) == expected);

  // snappy-java quirks: concatenated streams, 1-3 trailing bytes ignored, header-only = empty
  CHECK(decompress(CompressionType::snappy, concat(b.payload, b.payload), kBase, kMax) ==
        concat(expected, expected));
  CHECK(decompress(CompressionType::snappy, concat(b.payload, {1, 2, 3}), kBase, kMax) == expected);
  CHECK(decompress(CompressionType::snappy, Bytes(b.payload.begin(), b.payload.begin() + 16), kBase,
                   kMax)
            .empty());
  Bytes foreign = concat(b.payload, b.payload);  // a 2nd header with another magic ends it
  foreign[b.payload.size() + 5] = 'X';
  CHECK(decompress(CompressionType::snappy, foreign, kBase, kMax) == expected);
  Bytes old = concat(b.payload, b.payload);  // a 2nd header with version 0 is refused
  old[b.payload.size() + 11] = 0;
  CHECK(error_of(CompressionType::snappy, old).first == kBase + b.payload.size());
  CHECK_THAT(error_of(CompressionType::snappy, {}).second, Catch::Contains("empty"));
}

TEST_CASE("snappy: lying lengths are refused before anything is allocated",
          "[format][compression]") {
  const Batch b = only_batch("codec-snappy.log");
  Bytes lie = b.payload;
  lie[16] = 0x00, lie[17] = 0x3d, lie[18] = 0x09, lie[19] = 0x00;  // 4000000
  auto [pos, what] = error_of(CompressionType::snappy, lie);
  CHECK(pos == kBase + 16);
  CHECK(what == "snappy: xerial block length 4000000 exceeds the " +
                    std::to_string(b.payload.size() - 20) + " remaining bytes");
  lie[16] = 0x80;  // negative
  CHECK_THAT(error_of(CompressionType::snappy, lie).second, Catch::Contains("negative"));

  // a raw block whose varint claims 4 GiB of output
  const Bytes huge = {0xff, 0xff, 0xff, 0xff, 0x0f, 0x00};
  std::tie(pos, what) = error_of(CompressionType::snappy, huge);
  CHECK(pos == kBase);
  CHECK_THAT(what, Catch::Contains("exceeds max_output"));
  // inside a chunk: the varint says one byte more than the block holds
  Bytes chunk = b.payload;
  chunk[20] = static_cast<std::uint8_t>(chunk[20] + 1);
  std::tie(pos, what) = error_of(CompressionType::snappy, chunk);
  CHECK(pos == kBase + 20);
  CHECK_THAT(what, Catch::Contains("snappy: corrupt block"));
}

TEST_CASE("gzip: concatenated members, trailing garbage ignored as GZIPInputStream does",
          "[format][compression]") {
  const Batch b = only_batch("codec-gzip.log");
  const Bytes expected = decompress(CompressionType::gzip, b.payload, kBase, kMax);
  CHECK(decompress(CompressionType::gzip, concat(b.payload, b.payload), kBase, kMax) ==
        concat(expected, expected));
  const Bytes junk = {'n', 'o', 't', ' ', 'g', 'z', 'i', 'p'};
  CHECK(decompress(CompressionType::gzip, concat(b.payload, junk), kBase, kMax) == expected);

  Bytes crc = b.payload;  // the trailer's CRC32
  crc[crc.size() - 8] ^= 1;
  auto [pos, what] = error_of(CompressionType::gzip, crc);
  CHECK(pos == kBase + b.payload.size() - 8);
  CHECK_THAT(what, Catch::Contains("Corrupt GZIP trailer"));
  Bytes isize = b.payload;  // a lying ISIZE
  isize[isize.size() - 1] = 0x7f;
  CHECK(error_of(CompressionType::gzip, isize).first == kBase + b.payload.size() - 8);
  Bytes magic = b.payload;
  magic[1] = 0;
  std::tie(pos, what) = error_of(CompressionType::gzip, magic);
  CHECK(pos == kBase);
  CHECK_THAT(what, Catch::Contains("Not in GZIP format"));
}

namespace {

std::uint32_t crc32_of(const Bytes& data) {  // the gzip trailer's CRC-32 (bitwise)
  std::uint32_t crc = 0xffffffff;
  for (const std::uint8_t b : data) {
    crc ^= b;
    for (int k = 0; k < 8; ++k)
      crc = (crc >> 1) ^ (0xedb88320 & (0 - (crc & 1)));
  }
  return ~crc;
}

// One gzip member holding `data` in stored deflate blocks (RFC 1951 BTYPE 00), by hand.
Bytes gzip_stored(const Bytes& data) {
  Bytes out = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
  std::size_t at = 0;
  do {
    const std::size_t n = std::min<std::size_t>(data.size() - at, 65535);
    const bool last = at + n == data.size();
    out.push_back(last ? 1 : 0);
    for (const std::size_t v : {n, n ^ 0xffff}) {
      out.push_back(static_cast<std::uint8_t>(v));
      out.push_back(static_cast<std::uint8_t>(v >> 8));
    }
    out.insert(out.end(), data.begin() + static_cast<std::ptrdiff_t>(at),
               data.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  } while (at < data.size());
  for (const std::uint32_t v : {crc32_of(data), static_cast<std::uint32_t>(data.size())}) {
    for (int k = 0; k < 32; k += 8)
      out.push_back(static_cast<std::uint8_t>(v >> k));
  }
  return out;
}

}  // namespace

TEST_CASE("gzip: members of any size, whatever the last trailer's ISIZE says",
          "[format][compression]") {
  // The whole-buffer inflater sizes its output from the payload's last ISIZE: a larger first
  // member, a member past the first guess and a cap between them must not change the result.
  Bytes big(300 * 1024), small = {'k', 'a', 'f', 'k', 'a'};
  for (std::size_t i = 0; i < big.size(); ++i)
    big[i] = static_cast<std::uint8_t>(i * 7 + (i >> 9));
  const Bytes gz_big = gzip_stored(big), gz_small = gzip_stored(small);
  CHECK(decompress(CompressionType::gzip, gz_big, kBase, kMax) == big);
  CHECK(decompress(CompressionType::gzip, concat(gz_big, gz_small), kBase, kMax) ==
        concat(big, small));
  CHECK(decompress(CompressionType::gzip, concat(gz_small, gz_big), kBase, kMax) ==
        concat(small, big));
  CHECK(decompress(CompressionType::gzip, gz_big, kBase, big.size()) == big);
  auto [pos, what] = error_of(CompressionType::gzip, gz_big, big.size() - 1);
  CHECK(what == "gzip: decompressed size exceeds max_output (" + std::to_string(big.size() - 1) +
                    " bytes)");
  CHECK(pos > kBase);
  CHECK(pos <= kBase + gz_big.size());
  Bytes bad = concat(gz_big, gz_small);  // a stored block's NLEN broken in the second member
  bad[gz_big.size() + 12] ^= 1;
  std::tie(pos, what) = error_of(CompressionType::gzip, bad);
  CHECK(pos >= kBase + gz_big.size() + 10);
  CHECK_THAT(what, Catch::StartsWith("gzip: corrupt deflate data: invalid stored block lengths"));
}

TEST_CASE("lz4: Kafka's frames, multi-block frames, checksummed frames of the lz4 tool",
          "[format][compression]") {
  const Batch big = only_batch("multi-block-lz4.log");
  REQUIRE(big.codec == 3);
  check_produced(records(decompress(CompressionType::lz4, big.payload, kBase, kMax), 3300), false);

  const Batch b = only_batch("codec-lz4.log");
  const Bytes expected = decompress(CompressionType::lz4, b.payload, kBase, kMax);
  REQUIRE(b.payload[4] == 0x60);  // FLG as Kafka writes it: no checksums, no content size
  CHECK(decompress(CompressionType::lz4, concat(b.payload, {9, 9}), kBase, kMax) == expected);

  // FLG 0x7c: block checksums, content size, content checksum (XXH32 of the whole content)
  const Bytes cli = data_file("lz4cli-block-checksums.lz4");
  REQUIRE(cli[4] == 0x7c);
  CHECK(decompress(CompressionType::lz4, cli, kBase, kMax) == expected);
  const std::uint8_t* sum = cli.data() + cli.size() - 4;  // little-endian, like all of LZ4
  CHECK(kepoch::xxh32(expected) == (std::uint32_t{sum[0]} | std::uint32_t{sum[1]} << 8 |
                                    std::uint32_t{sum[2]} << 16 | std::uint32_t{sum[3]} << 24));
  Bytes block_sum = cli;  // the block checksum follows the block; the content checksum ends
  block_sum[block_sum.size() - 12] ^= 1;
  auto [pos, what] = error_of(CompressionType::lz4, block_sum);
  CHECK(pos == kBase + cli.size() - 12);
  CHECK_THAT(what, Catch::Contains("Block checksum mismatch"));
  Bytes content_sum = cli;  // Kafka reads the content checksum but does not verify it
  content_sum.back() ^= 1;
  CHECK(decompress(CompressionType::lz4, content_sum, kBase, kMax) == expected);
}

TEST_CASE("lz4: header checksum, and v0 messages' wrong one", "[format][compression]") {
  const Batch b = only_batch("codec-lz4.log");
  const Bytes expected = decompress(CompressionType::lz4, b.payload, kBase, kMax);
  // Kafka's old writer hashed magic + FLG + BD; Lz4BlockInputStream skips HC for magic v0
  Bytes legacy = b.payload;
  legacy[6] = static_cast<std::uint8_t>(kepoch::xxh32(std::span(legacy.data(), 6)) >> 8);
  REQUIRE(legacy[6] != b.payload[6]);
  auto [pos, what] = error_of(CompressionType::lz4, legacy);
  CHECK(pos == kBase + 6);
  CHECK_THAT(what, Catch::Contains("Stream frame descriptor corrupted"));
  CHECK(decompress(CompressionType::lz4, legacy, kBase, kMax, kepoch::LegacyLz4::yes) == expected);
  CHECK(kepoch::xxh32({}) == 0x02CC5D05);  // the published XXH32 of empty input, seed 0
}

TEST_CASE("lz4: bad frame descriptors and lying block sizes", "[format][compression]") {
  const Batch b = only_batch("codec-lz4.log");
  const auto with = [&](std::size_t at, std::uint8_t v) {
    Bytes x = b.payload;
    x[at] = v;
    return x;
  };
  CHECK(error_of(CompressionType::lz4, with(0, 5)).first == kBase);  // magic
  CHECK_THAT(error_of(CompressionType::lz4, with(4, 0x40)).second, Catch::Contains("dependent"));
  CHECK_THAT(error_of(CompressionType::lz4, with(4, 0xa0)).second, Catch::Contains("version"));
  CHECK(error_of(CompressionType::lz4, with(5, 0x30)).first == kBase + 5);  // block size code 3
  // block size > remaining bytes, then > the 64 KiB maximum of BD 0x40
  auto [pos, what] = error_of(CompressionType::lz4, with(8, 0x7f));
  CHECK(pos == kBase + 7);
  CHECK_THAT(what, Catch::Contains("remaining bytes"));
  std::tie(pos, what) = error_of(CompressionType::lz4, with(9, 0x10));
  CHECK(pos == kBase + 7);
  CHECK_THAT(what, Catch::Contains("exceeds the frame's maximum 65536"));
  // a stored empty block (size 0x80000000) is taken as the end mark
  Bytes empty_stored = {0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82, 0, 0, 0, 0x80};
  CHECK(decompress(CompressionType::lz4, empty_stored, kBase, kMax).empty());
}

TEST_CASE("zstd: frames back to back, trailing garbage is an error", "[format][compression]") {
  const Batch b = only_batch("codec-zstd.log");
  const Bytes expected = decompress(CompressionType::zstd, b.payload, kBase, kMax);
  CHECK(decompress(CompressionType::zstd, concat(b.payload, b.payload), kBase, kMax) ==
        concat(expected, expected));
  CHECK(decompress(CompressionType::zstd, {}, kBase, kMax).empty());
  const auto [pos, what] = error_of(CompressionType::zstd, concat(b.payload, {1, 2, 3, 4, 5}));
  CHECK(pos >= kBase + b.payload.size());
  CHECK_THAT(what, Catch::StartsWith("zstd: "));
}

TEST_CASE("every truncation of a real payload is an error inside the payload",
          "[format][compression]") {
  for (const char* file : kCodecFiles) {
    const Batch b = only_batch(file);
    for (std::size_t n = 1; n < b.payload.size(); ++n) {
      INFO(file << " cut to " << n << " bytes");
      const Bytes cut(b.payload.begin(), b.payload.begin() + static_cast<std::ptrdiff_t>(n));
      if (b.codec == 2 && n >= 16 && n < 20) {  // a xerial header, then < 4 bytes: empty stream
        CHECK(decompress(type_of(b), cut, kBase, kMax).empty());
        continue;
      }
      const auto [pos, what] = error_of(type_of(b), cut);
      CHECK(pos >= kBase);
      CHECK(pos <= kBase + n);
    }
  }
}

TEST_CASE("flipping any byte of a real payload never reads out of bounds",
          "[format][compression]") {
  for (const char* file : kCodecFiles) {
    const Batch b = only_batch(file);
    for (std::size_t i = 0; i < b.payload.size(); ++i) {
      for (const int mask : {0x01, 0x80, 0xff}) {
        Bytes x = b.payload;
        x[i] = static_cast<std::uint8_t>(x[i] ^ mask);
        try {
          const Bytes out = decompress(type_of(b), x, kBase, 4096);
          CHECK(out.size() <= 4096);
        } catch (const FormatError& e) {
          INFO(file << " byte " << i << " ^ " << mask << ": " << e.what());
          CHECK(e.position() >= kBase);
          CHECK(e.position() <= kBase + x.size());
        }
      }
    }
  }
}

TEST_CASE("decompress_into replaces a reused buffer's content, a failure leaves it empty",
          "[format][compression]") {
  Bytes buffer(3 * kMax / 2, 0xab);  // a larger previous output
  for (const char* file : kCodecFiles) {
    INFO(file);
    const Batch b = only_batch(file);
    const Bytes want = decompress(type_of(b), b.payload, kBase, kMax);
    kepoch::decompress_into(type_of(b), b.payload, kBase, kMax, buffer);
    CHECK(buffer == want);
    kepoch::decompress_into(type_of(b), b.payload, kBase, kMax, buffer);  // smaller again
    CHECK(buffer == want);
    CHECK_THROWS_AS(kepoch::decompress_into(type_of(b), b.payload, kBase, want.size() - 1, buffer),
                    FormatError);
    CHECK(buffer.empty());
  }
}
