#include "kepoch/base/base64.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace kepoch {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Each byte's 6-bit value, -1 where it is not in the alphabet ('=' included): a table, as
// replay decodes every key, value and header of an archive through it.
constexpr std::array<std::int8_t, 256> kValues = [] {
  std::array<std::int8_t, 256> t{};
  t.fill(-1);
  for (std::size_t i = 0; i < kAlphabet.size(); ++i)
    t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}();

// The two characters of each 12-bit value, first in the low byte: a group of three bytes
// is two lookups (salvage encodes every key, value and header byte through this).
constexpr std::array<std::array<char, 2>, 4096> kPairs = [] {
  std::array<std::array<char, 2>, 4096> t{};
  for (std::size_t i = 0; i < t.size(); ++i)
    t[i] = {kAlphabet[i >> 6], kAlphabet[i & 0x3f]};
  return t;
}();

int value_of(char c) {
  return kValues[static_cast<unsigned char>(c)];
}

// The table encoder: whole groups two lookups each, then the last one or two bytes with
// their padding.
char* encode_portable(char* o, const std::uint8_t* bytes, std::size_t n) {
  const std::size_t full = n / 3 * 3;
  std::size_t i = 0;
  for (; i < full; i += 3) {
    const std::uint32_t group =
        std::uint32_t(bytes[i]) << 16 | std::uint32_t(bytes[i + 1]) << 8 | bytes[i + 2];
    std::memcpy(o, kPairs[group >> 12].data(), 2);
    std::memcpy(o + 2, kPairs[group & 0xfff].data(), 2);
    o += 4;
  }
  if (i < n) {  // one or two bytes left: two or one '='
    std::uint32_t group = std::uint32_t(bytes[i]) << 16;
    if (i + 1 < n) group |= std::uint32_t(bytes[i + 1]) << 8;
    o[0] = kAlphabet[group >> 18];
    o[1] = kAlphabet[(group >> 12) & 0x3f];
    o[2] = i + 1 < n ? kAlphabet[(group >> 6) & 0x3f] : '=';
    o[3] = '=';
    o += 4;
  }
  return o;
}

#if defined(__x86_64__)
// 24 bytes to 32 characters a step (Mula and Lemire, "Faster Base64 Encoding and Decoding
// using AVX2 Instructions", 2018): each lane takes 12 bytes, a shuffle puts each group of
// three as bytes [b1, b0, b2, b1] of a 32-bit word, two multiplies move its four 6-bit
// values into the word's four bytes, and a 16-entry shuffle table adds to each value the
// distance to its character ('A', 'a' - 26, '0' - 52, '+' - 62, '/' - 63). Reads 28 bytes
// per step (two 16-byte loads 12 bytes apart), so it stops with fewer than 28 left and the
// table encoder writes the rest.
__attribute__((target("avx2"))) char* encode_avx2(char* o, const std::uint8_t* bytes,
                                                  std::size_t n) {
  const __m256i shuffle = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,  //
                                           1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
  const __m256i mask_ac = _mm256_set1_epi32(0x0fc0fc00);
  const __m256i mul_ac = _mm256_set1_epi32(0x04000040);
  const __m256i mask_bd = _mm256_set1_epi32(0x003f03f0);
  const __m256i mul_bd = _mm256_set1_epi32(0x01000010);
  const __m256i offsets =
      _mm256_setr_epi8('a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
                       '0' - 52, '0' - 52, '0' - 52, '0' - 52, '+' - 62, '/' - 63, 'A', 0, 0,  //
                       'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
                       '0' - 52, '0' - 52, '0' - 52, '0' - 52, '+' - 62, '/' - 63, 'A', 0, 0);
  std::size_t i = 0;
  for (; n - i >= 28; i += 24) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i + 12));
    const __m256i in = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), shuffle);
    // Word bytes [b1, b0, b2, b1] -> [b0 >> 2, (b0 & 3) << 4 | b1 >> 4,
    // (b1 & 15) << 2 | b2 >> 6, b2 & 63].
    const __m256i ac = _mm256_mulhi_epu16(_mm256_and_si256(in, mask_ac), mul_ac);
    const __m256i bd = _mm256_mullo_epi16(_mm256_and_si256(in, mask_bd), mul_bd);
    const __m256i values = _mm256_or_si256(ac, bd);
    // Which offset: 0..25 -> 13, 26..51 -> 0, 52..61 -> 1..10, 62 -> 11, 63 -> 12.
    __m256i pick = _mm256_subs_epu8(values, _mm256_set1_epi8(51));
    const __m256i upper = _mm256_cmpgt_epi8(_mm256_set1_epi8(26), values);
    pick = _mm256_or_si256(pick, _mm256_and_si256(upper, _mm256_set1_epi8(13)));
    const __m256i text = _mm256_add_epi8(values, _mm256_shuffle_epi8(offsets, pick));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), text);
    o += 32;
  }
  return encode_portable(o, bytes + i, n - i);
}

bool detect_avx2() {
  return __builtin_cpu_supports("avx2");
}
#else
char* encode_avx2(char* o, const std::uint8_t* bytes, std::size_t n) {
  return encode_portable(o, bytes, n);
}
bool detect_avx2() {
  return false;
}
#endif

const bool kAvx2 = detect_avx2();

}  // namespace

char* base64_write(char* out, std::span<const std::uint8_t> bytes) {
  return kAvx2 ? encode_avx2(out, bytes.data(), bytes.size())
               : encode_portable(out, bytes.data(), bytes.size());
}

char* base64_write_portable(char* out, std::span<const std::uint8_t> bytes) {
  return encode_portable(out, bytes.data(), bytes.size());
}

bool base64_uses_avx2() {
  return kAvx2;
}

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string out;
  base64_append(out, bytes);
  return out;
}

void base64_append(std::string& out, std::span<const std::uint8_t> bytes) {
  const std::size_t at = out.size();
  out.resize(at + base64_size(bytes.size()));
  base64_write(out.data() + at, bytes);
}

std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::vector<std::uint8_t> out(text.size() / 4 * 3);
  std::size_t w = 0;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const std::size_t padding =
        last ? (text[i + 3] == '=') + (text[i + 3] == '=' && text[i + 2] == '=') : 0;
    std::uint32_t group = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const int v = k < 4 - padding ? value_of(text[i + k]) : 0;
      if (v < 0) return std::nullopt;
      group = group << 6 | static_cast<std::uint32_t>(v);
    }
    out[w++] = static_cast<std::uint8_t>(group >> 16);
    if (padding < 2) out[w++] = static_cast<std::uint8_t>(group >> 8);
    if (padding < 1) out[w++] = static_cast<std::uint8_t>(group);
  }
  out.resize(w);
  return out;
}

}  // namespace kepoch
