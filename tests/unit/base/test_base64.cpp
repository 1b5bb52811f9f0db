#include <catch2/catch.hpp>

#include "kepoch/base/base64.hpp"

using namespace kepoch;

namespace {
std::vector<std::uint8_t> bytes(std::string_view s) {
  return {s.begin(), s.end()};
}
}  // namespace

TEST_CASE("base64 of RFC 4648's test vectors", "[base][base64]") {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    CHECK(base64_encode(bytes(plain)) == encoded);
    CHECK(base64_decode(encoded) == bytes(plain));
  }
  CHECK(base64_encode(std::vector<std::uint8_t>{0xfb, 0xff}) == "+/8=");
}

TEST_CASE("base64 decoding is strict", "[base][base64]") {
  CHECK_FALSE(base64_decode("Zg="));       // length
  CHECK_FALSE(base64_decode("Z=g="));      // padding in the middle
  CHECK_FALSE(base64_decode("Zg==Zg=="));  // padding before the end
  CHECK_FALSE(base64_decode("Zm9-"));      // URL-safe alphabet
  CHECK_FALSE(base64_decode("Zm 9"));
}

TEST_CASE("base64 round-trips every byte value at every tail length", "[base][base64]") {
  std::vector<std::uint8_t> all;
  for (int i = 0; i < 300; ++i)
    all.push_back(static_cast<std::uint8_t>(i * 7 + 3));
  for (std::size_t n = 0; n <= all.size(); ++n) {
    const std::vector<std::uint8_t> part(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    const std::string text = base64_encode(part);
    CHECK(text.size() == (n + 2) / 3 * 4);
    CHECK(base64_decode(text) == part);
  }
  CHECK_FALSE(base64_decode("Zm9\xff"));  // a byte above 0x7f is in no alphabet
  CHECK_FALSE(base64_decode("Zm=v"));     // '=' before a data character of the last group
}

TEST_CASE("base64 of every 12-bit half of a three-byte group is RFC 4648's", "[base][base64]") {
  // A reference encoder a character at a time, against the encoder's two-character table:
  // every value of each group's first and last 12 bits.
  constexpr std::string_view alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> in;
  std::string expected;
  for (std::uint32_t i = 0; i < 4096; ++i) {
    for (const std::uint32_t j : {i, 4095 - i}) {
      const std::uint32_t g = i << 12 | j;
      in.insert(in.end(), {static_cast<std::uint8_t>(g >> 16), static_cast<std::uint8_t>(g >> 8),
                           static_cast<std::uint8_t>(g)});
      for (int shift = 18; shift >= 0; shift -= 6)
        expected += alphabet[(g >> shift) & 0x3f];
    }
  }
  CHECK(base64_encode(in) == expected);
}

TEST_CASE("base64 by AVX2 is the table encoder's at every length and alignment", "[base][base64]") {
  // The vector encoder takes 24 bytes a step while 28 are left and the table encoder the
  // rest: every length to 200 from every start within 32 bytes, over bytes covering all 64
  // values in each of a group's four positions. (Without AVX2 both are the table encoder.)
  std::vector<std::uint8_t> in(260);
  std::uint32_t x = 0x9e3779b9;
  for (auto& b : in) {
    x = x * 1664525 + 1013904223;
    b = static_cast<std::uint8_t>(x >> 24);
  }
  INFO("avx2: " << base64_uses_avx2());
  for (std::size_t start = 0; start < 32; ++start) {
    for (std::size_t n = 0; n <= 200; ++n) {
      const std::span<const std::uint8_t> part(in.data() + start, n);
      std::string fast(base64_size(n) + 1, '#');
      std::string table(base64_size(n) + 1, '#');
      CHECK(base64_write(fast.data(), part) == fast.data() + base64_size(n));
      CHECK(base64_write_portable(table.data(), part) == table.data() + base64_size(n));
      CHECK(fast == table);
      CHECK(fast.back() == '#');  // nothing written past the text
    }
  }
  // Every 6-bit value in every position of a step's 32 characters.
  std::vector<std::uint8_t> all;
  for (int round = 0; round < 4; ++round)
    for (std::uint32_t v = 0; v < 64; ++v)
      for (int k = 0; k < 4; ++k) {
        const std::uint32_t g = ((v + round + k) & 63) << 18 | ((v * 5 + k) & 63) << 12 |
                                ((v * 7 + round) & 63) << 6 | ((v * 11 + k * 3) & 63);
        all.insert(all.end(), {static_cast<std::uint8_t>(g >> 16),
                               static_cast<std::uint8_t>(g >> 8), static_cast<std::uint8_t>(g)});
      }
  std::string fast(base64_size(all.size()), ' ');
  std::string table(base64_size(all.size()), ' ');
  base64_write(fast.data(), all);
  base64_write_portable(table.data(), all);
  CHECK(fast == table);
  CHECK(base64_decode(fast) == all);
}
