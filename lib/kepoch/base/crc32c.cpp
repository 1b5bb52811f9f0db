#include "kepoch/base/crc32c.hpp"

#include <array>
#include <cstring>

namespace kepoch {
namespace {

constexpr std::uint32_t kPolynomial = 0x82F63B78;  // reflected Castagnoli

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables make_tables() {
  Tables t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k)
      c = (c & 1) ? (c >> 1) ^ kPolynomial : c >> 1;
    t[0][i] = c;
  }
  for (std::size_t i = 0; i < 256; ++i)
    for (std::size_t s = 1; s < 8; ++s)
      t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
  return t;
}

constexpr Tables kTables = make_tables();

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(std::uint32_t crc,
                                                             std::span<const std::uint8_t> data) {
  const std::uint8_t* p = data.data();
  std::size_t n = data.size();
  std::uint64_t c = ~crc;
  while (n >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    c = __builtin_ia32_crc32di(c, word);
    p += 8;
    n -= 8;
  }
  auto c32 = static_cast<std::uint32_t>(c);
  while (n--)
    c32 = __builtin_ia32_crc32qi(c32, *p++);
  return ~c32;
}
#endif

bool detect_hardware() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("sse4.2");
#else
  return false;
#endif
}

const bool kHardware = detect_hardware();

}  // namespace

std::uint32_t crc32c_portable(std::uint32_t crc, std::span<const std::uint8_t> data) {
  const std::uint8_t* p = data.data();
  std::size_t n = data.size();
  std::uint32_t c = ~crc;
  while (n >= 8) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);  // little-endian host assumed for slicing (x86_64, arm64)
    std::memcpy(&hi, p + 4, 4);
    lo ^= c;
    c = kTables[7][lo & 0xff] ^ kTables[6][(lo >> 8) & 0xff] ^ kTables[5][(lo >> 16) & 0xff] ^
        kTables[4][lo >> 24] ^ kTables[3][hi & 0xff] ^ kTables[2][(hi >> 8) & 0xff] ^
        kTables[1][(hi >> 16) & 0xff] ^ kTables[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--)
    c = (c >> 8) ^ kTables[0][(c ^ *p++) & 0xff];
  return ~c;
}

bool crc32c_uses_hardware() {
  return kHardware;
}

std::uint32_t crc32c_extend(std::uint32_t crc, std::span<const std::uint8_t> data) {
#if defined(__x86_64__)
  if (kHardware) return crc32c_sse42(crc, data);
#endif
  return crc32c_portable(crc, data);
}

std::uint32_t crc32c(std::span<const std::uint8_t> data) {
  return crc32c_extend(0, data);
}

}  // namespace kepoch
