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
