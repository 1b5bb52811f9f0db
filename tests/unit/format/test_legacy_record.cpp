// Pins LegacyRecord and AbstractLegacyRecordBatch.DeepRecordsIterator (magic v0/v1). Kafka
// 4.x cannot write these formats, so the bytes are built here field by field exactly as
// the spec's section 6 lays them out (offset int64, size int32, crc uint32 = CRC-32 of
// magic..end, magic, attributes, v1 timestamp, keyLength int32, key, valueLength int32,
// value); wrappers hold a gzip stream of inner entries of the same layout.
#include <zlib.h>
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/legacy_record.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

void put_be(Bytes& b, std::uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i)
    b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void put_bytes(Bytes& b, const std::optional<std::string>& s) {
  if (!s) return put_be(b, 0xffffffff, 4);
  put_be(b, s->size(), 4);
  b.insert(b.end(), s->begin(), s->end());
}

// One legacy entry; `attributes` carries the codec (bits 0-2) and timestamp type (bit 3).
Bytes entry(std::int64_t offset, int magic, std::uint8_t attributes, std::int64_t timestamp,
            const std::optional<std::string>& key, const std::optional<std::string>& value) {
  Bytes body{static_cast<std::uint8_t>(magic), attributes};
  if (magic == 1) put_be(body, static_cast<std::uint64_t>(timestamp), 8);
  put_bytes(body, key);
  put_bytes(body, value);
  Bytes out;
  put_be(out, static_cast<std::uint64_t>(offset), 8);
  put_be(out, body.size() + 4, 4);
  put_be(out, ::crc32(0, body.data(), static_cast<uInt>(body.size())), 4);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

std::string gzip(const Bytes& in) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(compressBound(static_cast<uLong>(in.size())) + 64, '\0');
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts)
    out.insert(out.end(), p.begin(), p.end());
  return out;
}

constexpr std::uint8_t kGzip = 1;
constexpr std::uint8_t kLogAppendTime = 0x08;

struct Seen {
  std::int64_t offset;
  std::int64_t timestamp;
  std::string timestamp_type;
  std::string key;
  std::string value;
  bool crc_valid;
};

struct Walk {
  std::vector<Seen> records;
  std::vector<std::string> notes;
  std::string error;
};

std::string text(const std::optional<std::span<const std::uint8_t>>& b) {
  return b ? std::string(b->begin(), b->end()) : "(null)";
}

Walk walk(const Bytes& e) {
  Walk w;
  std::vector<std::uint8_t> buffer;
  try {
    w.notes =
        kepoch::for_each_legacy_record(e, 1000, 1 << 20, buffer, [&](const kepoch::Record& r) {
          w.records.push_back({r.offset, r.timestamp, std::string(r.timestamp_type), text(r.key),
                               text(r.value), r.crc == r.computed_crc});
        });
  } catch (const kepoch::FormatError& ex) {
    w.error = ex.what();
  }
  return w;
}

}  // namespace

TEST_CASE("an uncompressed v0 message is one record without timestamp", "[format][LegacyRecord]") {
  // The exact bytes of a v0 entry: offset 7, key "k", value "v".
  const Bytes e = entry(7, 0, 0, -1, "k", "v");
  REQUIRE(e.size() == 12 + 4 + 1 + 1 + 4 + 1 + 4 + 1);
  CHECK(e[16] == 0);  // magic at entry offset 16, as for every format
  const Walk w = walk(e);
  REQUIRE(w.error.empty());
  REQUIRE(w.records.size() == 1);
  CHECK(w.records[0].offset == 7);
  CHECK(w.records[0].timestamp == -1);
  CHECK(w.records[0].timestamp_type == "no-timestamp");
  CHECK(w.records[0].key == "k");
  CHECK(w.records[0].value == "v");
  CHECK(w.records[0].crc_valid);
}

TEST_CASE("an uncompressed v1 message: its timestamp and type, null key and value",
          "[format][LegacyRecord]") {
  Walk w = walk(entry(3, 1, 0, 1500, std::nullopt, "value"));
  REQUIRE(w.records.size() == 1);
  CHECK(w.records[0].timestamp == 1500);
  CHECK(w.records[0].timestamp_type == "create-time");
  CHECK(w.records[0].key == "(null)");
  w = walk(entry(3, 1, kLogAppendTime, 1600, "k", std::nullopt));
  CHECK(w.records[0].timestamp_type == "log-append-time");
  CHECK(w.records[0].value == "(null)");
}

TEST_CASE("LegacyRecord.isValid: a damaged message still decodes, with crc_valid false",
          "[format][LegacyRecord]") {
  Bytes e = entry(3, 1, 0, 1500, "k", "value");
  e.back() ^= 0x01;
  const Walk w = walk(e);
  REQUIRE(w.records.size() == 1);
  CHECK_FALSE(w.records[0].crc_valid);
  CHECK(w.records[0].value == "valud");
}

TEST_CASE("a message shorter than its fields is an error naming the field",
          "[format][LegacyRecord]") {
  Bytes e = entry(3, 1, 0, 1500, "key", "value");
  // The key length says 3, but only 2 bytes remain: cut the message and its size.
  e.resize(12 + 4 + 2 + 8 + 4 + 2);
  e[11] = static_cast<std::uint8_t>(e.size() - 12);
  const Walk w = walk(e);
  CHECK(w.records.empty());
  CHECK_THAT(w.error, Catch::Contains("key"));
}

TEST_CASE("DeepRecordsIterator v1: relative inner offsets become absolute from the wrapper's",
          "[format][LegacyRecord]") {
  const Bytes inner = concat({entry(0, 1, 0, 100, "a", "1"), entry(1, 1, 0, 101, "b", "2"),
                              entry(2, 1, 0, 102, "c", "3")});
  const Walk w = walk(entry(12, 1, kGzip, 102, std::nullopt, gzip(inner)));
  REQUIRE(w.error.empty());
  REQUIRE(w.records.size() == 3);
  CHECK(w.records[0].offset == 10);
  CHECK(w.records[2].offset == 12);
  CHECK(w.records[1].timestamp == 101);  // CreateTime wrapper: each inner keeps its own
  CHECK(w.records[1].key == "b");
  CHECK(w.notes.empty());
}

TEST_CASE("DeepRecordsIterator v1: a LogAppendTime wrapper's timestamp is every inner's",
          "[format][LegacyRecord]") {
  const Bytes inner = concat({entry(0, 1, 0, 100, "a", "1"), entry(1, 1, 0, 101, "b", "2")});
  const Walk w = walk(entry(5, 1, kGzip | kLogAppendTime, 9000, std::nullopt, gzip(inner)));
  REQUIRE(w.records.size() == 2);
  CHECK(w.records[0].timestamp == 9000);
  CHECK(w.records[1].timestamp_type == "log-append-time");
}

TEST_CASE("DeepRecordsIterator v1: wrapper offset 0 (older librdkafka) means base 0",
          "[format][LegacyRecord]") {
  const Bytes inner = concat({entry(0, 1, 0, 1, "a", "1"), entry(1, 1, 0, 1, "b", "2")});
  const Walk w = walk(entry(0, 1, kGzip, 1, std::nullopt, gzip(inner)));
  REQUIRE(w.records.size() == 2);
  CHECK(w.records[1].offset == 1);
}

TEST_CASE("DeepRecordsIterator v1: a wrapper offset below the last inner offset is invalid",
          "[format][LegacyRecord]") {
  const Bytes inner = concat(
      {entry(0, 1, 0, 1, "a", "1"), entry(1, 1, 0, 1, "b", "2"), entry(2, 1, 0, 1, "c", "3")});
  const Walk w = walk(entry(1, 1, kGzip, 1, std::nullopt, gzip(inner)));
  CHECK(w.records.empty());
  CHECK(w.error ==
        "Found invalid wrapper offset in compressed v1 message set, wrapper offset '1' is less "
        "than the last inner message offset '2' and it is not zero.");
}

TEST_CASE("DeepRecordsIterator v0: inner offsets are absolute, lying ones are noted",
          "[format][LegacyRecord]") {
  const Bytes inner = concat({entry(20, 0, 0, -1, "a", "1"), entry(21, 0, 0, -1, "b", "2")});
  Walk w = walk(entry(21, 0, kGzip, -1, std::nullopt, gzip(inner)));
  REQUIRE(w.records.size() == 2);
  CHECK(w.records[0].offset == 20);
  CHECK(w.records[1].offset == 21);
  CHECK(w.records[1].timestamp == -1);
  CHECK(w.notes.empty());
  // Kafka takes inner v0 offsets as they are, whatever the wrapper says.
  const Bytes lying = concat({entry(20, 0, 0, -1, "a", "1"), entry(25, 0, 0, -1, "b", "2")});
  w = walk(entry(21, 0, kGzip, -1, std::nullopt, gzip(lying)));
  REQUIRE(w.records.size() == 2);
  CHECK(w.records[1].offset == 25);
  CHECK(w.notes == std::vector<std::string>{"inner offsets not consecutive: 20 then 25",
                                            "wrapper offset 21 is not its last inner offset 25"});
}

TEST_CASE("an inner message's damaged CRC is reported on that record", "[format][LegacyRecord]") {
  Bytes inner = concat({entry(0, 1, 0, 1, "a", "1"), entry(1, 1, 0, 1, "b", "2")});
  inner.back() ^= 0x10;
  const Walk w = walk(entry(1, 1, kGzip, 1, std::nullopt, gzip(inner)));
  REQUIRE(w.records.size() == 2);
  CHECK(w.records[0].crc_valid);
  CHECK_FALSE(w.records[1].crc_valid);
}

TEST_CASE("wrappers Kafka rejects: no inner records, null value, not gzip, zstd",
          "[format][LegacyRecord]") {
  CHECK(walk(entry(0, 1, kGzip, 1, std::nullopt, gzip({}))).error ==
        "Found invalid compressed record set with no inner records");
  CHECK(walk(entry(0, 1, kGzip, 1, std::nullopt, std::nullopt)).error ==
        "Found invalid compressed record set with null value (magic = 1)");
  const Walk garbage = walk(entry(0, 1, kGzip, 1, std::nullopt, "this is not gzip"));
  CHECK(garbage.records.empty());
  CHECK_FALSE(garbage.error.empty());
  CHECK_THAT(walk(entry(0, 1, 4, 1, std::nullopt, "x")).error,
             Catch::StartsWith("Invalid wrapper compressionType found in legacy deep record"));
  CHECK(walk(entry(0, 1, 6, 1, std::nullopt, "x")).error == "Unknown compression type id: 6");
}

TEST_CASE("DataLogInputStream: a small inner size is corrupt, a partial inner entry ends the set",
          "[format][LegacyRecord]") {
  const Bytes good = entry(0, 1, 0, 1, "a", "1");
  Bytes small = good;
  small[11] = 13;  // size 13 < 14
  CHECK_THAT(walk(entry(0, 1, kGzip, 1, std::nullopt, gzip(small))).error,
             Catch::StartsWith("Record size is less than the minimum record overhead (14)"));
  Bytes partial = concat({good, entry(1, 1, 0, 1, "b", "2")});
  partial.resize(partial.size() - 3);
  const Walk w = walk(entry(0, 1, kGzip, 1, std::nullopt, gzip(partial)));
  REQUIRE(w.error.empty());
  REQUIRE(w.records.size() == 1);
  REQUIRE(w.notes.size() == 1);
  CHECK_THAT(w.notes[0], Catch::StartsWith("a partial inner message"));
}

TEST_CASE("Inner messages must not be compressed (Kafka's error): the records before it stay read",
          "[format][LegacyRecord]") {
  const Bytes nested = entry(1, 1, kGzip, 1, std::nullopt, gzip(entry(0, 1, 0, 1, "x", "y")));
  const Walk w = walk(
      entry(1, 1, kGzip, 1, std::nullopt, gzip(concat({entry(0, 1, 0, 1, "a", "1"), nested}))));
  REQUIRE(w.records.size() == 1);
  CHECK_THAT(w.error, Catch::StartsWith("Inner messages must not be compressed"));
}

TEST_CASE("a wrapper may not inflate past the cap (bounded memory)", "[format][LegacyRecord]") {
  Bytes inner;
  for (int i = 0; i < 2000; ++i) {
    const Bytes e = entry(i, 1, 0, 1, std::string(1000, 'k'), std::string(1000, 'v'));
    inner.insert(inner.end(), e.begin(), e.end());
  }
  // 4 MB of inner messages against the 1 MiB cap walk() passes.
  const Walk w = walk(entry(1999, 1, kGzip, 1, std::nullopt, gzip(inner)));
  CHECK(w.records.empty());
  CHECK_FALSE(w.error.empty());
}

TEST_CASE("a v1 message inside a v0 wrapper takes the wrapper's timestamp type: none",
          "[format][LegacyRecord]") {
  // DeepRecordsIterator rebuilds every v1 inner message with the wrapper's type; a v0
  // wrapper has NO_TIMESTAMP_TYPE, and the inner keeps its own timestamp.
  const Walk w = walk(entry(3, 0, kGzip, -1, std::nullopt, gzip(entry(3, 1, 0, 777, "a", "1"))));
  REQUIRE(w.records.size() == 1);
  CHECK(w.records[0].offset == 3);
  CHECK(w.records[0].timestamp == 777);
  CHECK(w.records[0].timestamp_type == "no-timestamp");
}
