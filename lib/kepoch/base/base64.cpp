#include "kepoch/base/base64.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

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

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string out;
  base64_append(out, bytes);
  return out;
}

void base64_append(std::string& out, std::span<const std::uint8_t> bytes) {
  // Written in place (no append per character): salvage encodes every key, value and header.
  const std::size_t at = out.size();
  out.resize(at + (bytes.size() + 2) / 3 * 4, '=');
  char* o = out.data() + at;
  const std::size_t full = bytes.size() / 3 * 3;
  std::size_t i = 0;
  for (; i < full; i += 3) {
    const std::uint32_t group =
        std::uint32_t(bytes[i]) << 16 | std::uint32_t(bytes[i + 1]) << 8 | bytes[i + 2];
    std::memcpy(o, kPairs[group >> 12].data(), 2);
    std::memcpy(o + 2, kPairs[group & 0xfff].data(), 2);
    o += 4;
  }
  if (i < bytes.size()) {  // one or two bytes left: two or one '=' stay
    std::uint32_t group = std::uint32_t(bytes[i]) << 16;
    if (i + 1 < bytes.size()) group |= std::uint32_t(bytes[i + 1]) << 8;
    o[0] = kAlphabet[group >> 18];
    o[1] = kAlphabet[(group >> 12) & 0x3f];
    if (i + 1 < bytes.size()) o[2] = kAlphabet[(group >> 6) & 0x3f];
  }
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
