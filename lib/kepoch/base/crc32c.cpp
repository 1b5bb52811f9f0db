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
// Hardware CRC: crc32q has a latency of 3 cycles and a throughput of 1 per cycle, so one
// dependent chain runs at a third of the instruction's speed. Long inputs are split into three
// interleaved streams whose CRCs are combined by "shifting" a CRC over the zeros of the blocks
// that follow it (a GF(2) linear map, applied with four byte tables), as in Mark Adler's
// crc32c.c (zlib's author; public domain). Blocks: 3 x 8 KiB, then 3 x 256 bytes, then one
// stream for the tail.
constexpr std::size_t kLongBlock = 8192;
constexpr std::size_t kShortBlock = 256;

using ShiftTable = std::array<std::array<std::uint32_t, 256>, 4>;

constexpr std::uint32_t gf2_times(const std::array<std::uint32_t, 32>& mat, std::uint32_t vec) {
  std::uint32_t sum = 0;
  for (std::size_t i = 0; vec != 0; vec >>= 1, ++i)
    if (vec & 1) sum ^= mat[i];
  return sum;
}

constexpr std::array<std::uint32_t, 32> gf2_square(const std::array<std::uint32_t, 32>& mat) {
  std::array<std::uint32_t, 32> sq{};
  for (std::size_t n = 0; n < 32; ++n)
    sq[n] = gf2_times(mat, mat[n]);
  return sq;
}

// The table that maps a CRC register to the register after `len` zero bytes (len a power of 2).
constexpr ShiftTable make_shift_table(std::size_t len) {
  std::array<std::uint32_t, 32> op{};  // one zero bit
  op[0] = kPolynomial;
  for (std::size_t n = 1; n < 32; ++n)
    op[n] = 1u << (n - 1);
  for (int i = 0; i < 3; ++i)  // 1 -> 8 zero bits
    op = gf2_square(op);
  for (; len > 1; len >>= 1)  // 1 -> len zero bytes
    op = gf2_square(op);
  ShiftTable t{};
  for (std::uint32_t n = 0; n < 256; ++n)
    for (std::size_t b = 0; b < 4; ++b)
      t[b][n] = gf2_times(op, n << (8 * b));
  return t;
}

constexpr ShiftTable kShiftLong = make_shift_table(kLongBlock);
constexpr ShiftTable kShiftShort = make_shift_table(kShortBlock);

inline std::uint64_t shift_crc(const ShiftTable& t, std::uint64_t crc) {
  return t[0][crc & 0xff] ^ t[1][(crc >> 8) & 0xff] ^ t[2][(crc >> 16) & 0xff] ^
         t[3][(crc >> 24) & 0xff];
}

inline std::uint64_t load64(const std::uint8_t* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

template <std::size_t kBlock>
__attribute__((target("sse4.2"))) inline std::uint64_t crc_three_way(std::uint64_t c0,
                                                                     const std::uint8_t*& p,
                                                                     std::size_t& n,
                                                                     const ShiftTable& shift) {
  while (n >= 3 * kBlock) {
    std::uint64_t c1 = 0, c2 = 0;
    for (std::size_t i = 0; i < kBlock; i += 8) {
      c0 = __builtin_ia32_crc32di(c0, load64(p + i));
      c1 = __builtin_ia32_crc32di(c1, load64(p + kBlock + i));
      c2 = __builtin_ia32_crc32di(c2, load64(p + 2 * kBlock + i));
    }
    c0 = shift_crc(shift, c0) ^ c1;
    c0 = shift_crc(shift, c0) ^ c2;
    p += 3 * kBlock;
    n -= 3 * kBlock;
  }
  return c0;
}

__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(std::uint32_t crc,
                                                             std::span<const std::uint8_t> data) {
  const std::uint8_t* p = data.data();
  std::size_t n = data.size();
  std::uint64_t c = static_cast<std::uint32_t>(~crc);
  c = crc_three_way<kLongBlock>(c, p, n, kShiftLong);
  c = crc_three_way<kShortBlock>(c, p, n, kShiftShort);
  while (n >= 8) {
    c = __builtin_ia32_crc32di(c, load64(p));
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
