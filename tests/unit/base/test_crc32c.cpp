// CRC-32C against the standard check value and RFC 3720 vectors; hardware and portable
// paths must agree on every length and alignment.
#include <catch2/catch.hpp>

#include <numeric>
#include <string_view>
#include <vector>

#include "kepoch/base/crc32c.hpp"

namespace {
std::span<const std::uint8_t> bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}
}  // namespace

TEST_CASE("CRC-32C check value and RFC 3720 vectors", "[base][crc32c]") {
  CHECK(kepoch::crc32c(bytes("123456789")) == 0xE3069283u);
  std::vector<std::uint8_t> zeros(32, 0), ones(32, 0xff), inc(32);
  std::iota(inc.begin(), inc.end(), std::uint8_t{0});
  CHECK(kepoch::crc32c(zeros) == 0x8A9136AAu);
  CHECK(kepoch::crc32c(ones) == 0x62A8AB43u);
  CHECK(kepoch::crc32c(inc) == 0x46DD794Eu);
  CHECK(kepoch::crc32c({}) == 0u);
}

TEST_CASE("CRC-32C: hardware and portable agree, extend composes", "[base][crc32c]") {
  std::vector<std::uint8_t> data(1000);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<std::uint8_t>(i * 31 + 7);
  for (std::size_t start : {0u, 1u, 3u, 7u}) {
    for (std::size_t len : {0u, 1u, 7u, 8u, 9u, 63u, 500u}) {
      std::span<const std::uint8_t> s(data.data() + start, len);
      CHECK(kepoch::crc32c(s) == kepoch::crc32c_portable(0, s));
    }
  }
  const std::span<const std::uint8_t> all(data);
  CHECK(kepoch::crc32c_extend(kepoch::crc32c(all.first(333)), all.subspan(333)) ==
        kepoch::crc32c(all));
}

TEST_CASE("CRC-32C: the three-stream hardware path agrees on long inputs", "[base][crc32c]") {
  // 3 x 8 KiB and 3 x 256-byte blocks, their edges, and odd starts and tails.
  std::vector<std::uint8_t> data(3 * 8192 * 2 + 3 * 256 + 100);
  std::uint32_t x = 12345;
  for (auto& b : data) {
    x = x * 1103515245u + 12345u;
    b = static_cast<std::uint8_t>(x >> 16);
  }
  for (std::size_t start : {0u, 5u}) {
    const std::size_t lens[] = {
        767, 768, 769, 24575, 24576, 24577, 24576 + 768 + 13, data.size() - 5};
    for (std::size_t len : lens) {
      std::span<const std::uint8_t> s(data.data() + start, len);
      CHECK(kepoch::crc32c(s) == kepoch::crc32c_portable(0, s));
      CHECK(kepoch::crc32c_extend(kepoch::crc32c(s.first(len / 3)), s.subspan(len / 3)) ==
            kepoch::crc32c_portable(0, s));
    }
  }
}
