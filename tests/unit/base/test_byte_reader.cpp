// ByteReader's varints: read without a check per byte while their longest form fits, byte by
// byte near the end; both ways give the same values, positions and errors.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "kepoch/base/byte_reader.hpp"

using kepoch::ByteReader;
using kepoch::FormatError;

namespace {

// ByteUtils.writeVarlong: zig-zag, then 7 bits a byte, low group first.
std::vector<std::uint8_t> varlong_bytes(std::int64_t v) {
  auto raw = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  std::vector<std::uint8_t> out;
  for (; raw >= 0x80; raw >>= 7)
    out.push_back(static_cast<std::uint8_t>(raw | 0x80));
  out.push_back(static_cast<std::uint8_t>(raw));
  return out;
}

// The message and position of the FormatError `read` throws.
template <class Read>
std::pair<std::string, std::uint64_t> error_of(Read read) {
  try {
    read();
  } catch (const FormatError& e) {
    return {e.what(), e.position()};
  }
  return {"no error", 0};
}

}  // namespace

TEST_CASE("varints read the same in the middle of the bytes and at their end",
          "[base][byte_reader]") {
  const std::int64_t values[] = {0,
                                 -1,
                                 1,
                                 63,
                                 -64,
                                 64,
                                 8191,
                                 -8192,
                                 1 << 20,
                                 -(1 << 27),
                                 2147483647,
                                 -2147483648LL,
                                 1796206198938,
                                 -1796206198938,
                                 INT64_MAX,
                                 INT64_MIN};
  for (const std::int64_t v : values) {
    INFO(v);
    auto bytes = varlong_bytes(v);
    const std::size_t size = bytes.size();
    ByteReader at_end(bytes, 100);
    CHECK(at_end.varlong("f") == v);
    CHECK(at_end.position() == 100 + size);
    bytes.resize(size + 10, 0xff);  // room for the longest form after it
    ByteReader middle(bytes, 100);
    CHECK(middle.varlong("f") == v);
    CHECK(middle.position() == 100 + size);
    if (v >= INT32_MIN && v <= INT32_MAX) {
      ByteReader as_int(bytes, 100);
      CHECK(as_int.varint("f") == v);
      CHECK(as_int.offset() == size);
    }
  }
}

TEST_CASE("a varint cut short or too long fails as before, wherever it is", "[base][byte_reader]") {
  const std::vector<std::uint8_t> cut = {0x80, 0x80};
  CHECK(error_of([&] { ByteReader(cut, 10).varint("len"); }) ==
        std::pair<std::string, std::uint64_t>{"len needs 1 bytes, only 0 remain", 12});
  const std::vector<std::uint8_t> long_int(5, 0x80);
  CHECK(error_of([&] { ByteReader(long_int, 10).varint("len"); }) ==
        std::pair<std::string, std::uint64_t>{"len: varint longer than 5 bytes", 15});
  std::vector<std::uint8_t> long_int_more(long_int);
  long_int_more.resize(12, 0x80);
  CHECK(error_of([&] { ByteReader(long_int_more, 10).varint("len"); }) ==
        std::pair<std::string, std::uint64_t>{"len: varint longer than 5 bytes", 15});
  const std::vector<std::uint8_t> long_long(12, 0x80);
  CHECK(error_of([&] { ByteReader(long_long, 0).varlong("delta"); }) ==
        std::pair<std::string, std::uint64_t>{"delta: varlong longer than 10 bytes", 10});
  const std::vector<std::uint8_t> none;
  CHECK(error_of([&] { ByteReader(none, 7).unsigned_varint("count"); }) ==
        std::pair<std::string, std::uint64_t>{"count needs 1 bytes, only 0 remain", 7});
}

TEST_CASE("a 5-byte varint keeps its low 32 bits either way", "[base][byte_reader]") {
  // 0x7f in the fifth group: the bits past 32 are dropped on both paths.
  const std::vector<std::uint8_t> bytes = {0xff, 0xff, 0xff, 0xff, 0x7f};
  CHECK(ByteReader(bytes).unsigned_varint("f") == 0xffffffffu);
  std::vector<std::uint8_t> padded(bytes);
  padded.resize(9, 0);
  CHECK(ByteReader(padded).unsigned_varint("f") == 0xffffffffu);
}
