// RecordReader: a batch's records one at a time into one Record, as for_each_record reads
// them (DefaultRecord.readFrom): what one record held does not leak into the next.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/format/record.hpp"

using namespace kepoch;

namespace {

void put_varint(std::vector<std::uint8_t>& out, std::int64_t v) {
  auto raw = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  for (; raw >= 0x80; raw >>= 7)
    out.push_back(static_cast<std::uint8_t>(raw | 0x80));
  out.push_back(static_cast<std::uint8_t>(raw));
}

void put_bytes(std::vector<std::uint8_t>& out, std::string_view s) {
  put_varint(out, static_cast<std::int64_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

// One record (DefaultRecord.writeTo): null key, the value, the headers' keys with values "v".
std::vector<std::uint8_t> record(std::int64_t timestamp_delta, std::int32_t offset_delta,
                                 std::string_view value,
                                 const std::vector<std::string>& header_keys) {
  std::vector<std::uint8_t> body = {0};  // attributes
  put_varint(body, timestamp_delta);
  put_varint(body, offset_delta);
  put_varint(body, -1);  // null key
  put_bytes(body, value);
  put_varint(body, static_cast<std::int64_t>(header_keys.size()));
  for (const auto& k : header_keys) {
    put_bytes(body, k);
    put_bytes(body, "v");
  }
  std::vector<std::uint8_t> out;
  put_varint(out, static_cast<std::int64_t>(body.size()));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

BatchHeader header(std::int32_t count) {
  BatchHeader h;
  h.base_offset = 100;
  h.base_timestamp = 1796206198938;
  h.base_sequence = 5;
  h.records_count = count;
  return h;
}

std::vector<std::uint8_t> section() {
  std::vector<std::uint8_t> out = record(0, 0, "first", {"a", "b"});
  const auto second = record(39, 1, std::string(200, 'x'), {});
  out.insert(out.end(), second.begin(), second.end());
  return out;
}

std::string error_of(const BatchHeader& h, const std::vector<std::uint8_t>& bytes) {
  try {
    RecordReader reader(h, bytes, 61);
    Record r;
    while (reader.next(r)) {
    }
  } catch (const FormatError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("RecordReader fills one Record per record, headers and all", "[format][record]") {
  const auto bytes = section();
  const BatchHeader h = header(2);
  RecordReader reader(h, bytes, 61);
  Record r;
  REQUIRE(reader.next(r));
  CHECK(r.offset == 100);
  CHECK(r.timestamp == 1796206198938);
  CHECK(r.sequence == 5);
  CHECK(!r.key);
  CHECK(r.value->size() == 5);
  REQUIRE(r.headers.size() == 2);
  CHECK(r.headers[1].key == "b");
  CHECK(r.size_in_bytes == static_cast<std::int32_t>(record(0, 0, "first", {"a", "b"}).size()));
  REQUIRE(reader.next(r));
  CHECK(r.offset == 101);
  CHECK(r.timestamp == 1796206198977);
  CHECK(r.sequence == 6);
  CHECK(r.value->size() == 200);
  CHECK(r.headers.empty());  // the first record's are gone
  CHECK(r.size_in_bytes == 2 + 1 + 1 + 1 + 1 + 2 + 200 + 1);
  CHECK(!reader.next(r));
}

TEST_CASE("RecordReader: for_each_record's errors on counts that lie", "[format][record]") {
  const auto bytes = section();
  CHECK(error_of(header(3), bytes) == "Incorrect declared batch size, premature EOF reached");
  CHECK(error_of(header(1), bytes) ==
        "Incorrect declared batch size, records still remaining in file");
  CHECK(error_of(header(-1), bytes) == "Found invalid record count -1 in magic v2 batch");
  std::vector<Record> seen;
  for_each_record(header(2), bytes, 61, [&](const Record& r) { seen.push_back(r); });
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].headers.size() == 2);
  CHECK(seen[1].headers.empty());
}
