#include "kepoch/base/uuid.hpp"

#include <fmt/format.h>

#include <array>

namespace kepoch {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int decode_char(unsigned char c) {
  const auto pos = kAlphabet.find(static_cast<char>(c));
  return pos == std::string_view::npos ? -1 : static_cast<int>(pos);
}

// Decoded bytes of at most 24 characters (parse_uuid refuses longer input first), in place.
struct Decoded {
  std::array<std::uint8_t, 18> bytes{};
  std::size_t n = 0;
  void push_back(std::uint8_t b) { bytes[n++] = b; }
  std::size_t size() const { return n; }
};

// java.util.Base64.Decoder.decode0 for the URL alphabet, non-MIME. Returns false with
// Java's message on the inputs Java rejects. At most 24 characters.
bool java_base64url_decode(std::string_view src, Decoded& out, std::string& error) {
  std::uint32_t bits = 0;
  int shiftto = 18;
  std::size_t sp = 0;
  while (sp < src.size()) {
    const auto c = static_cast<unsigned char>(src[sp++]);
    const int b = decode_char(c);
    if (b < 0) {
      if (c == '=') {
        // "xx=" must be followed by a second '='; a lone "=" is never valid.
        if ((shiftto == 6 && (sp == src.size() || src[sp++] != '=')) || shiftto == 18) {
          error = "Input byte array has wrong 4-byte ending unit";
          return false;
        }
        break;
      }
      error = fmt::format("Illegal base64 character {:x}",
                          static_cast<int>(static_cast<signed char>(c)) & 0xff);
      return false;
    }
    bits |= static_cast<std::uint32_t>(b) << shiftto;
    shiftto -= 6;
    if (shiftto < 0) {
      out.push_back(static_cast<std::uint8_t>(bits >> 16));
      out.push_back(static_cast<std::uint8_t>(bits >> 8));
      out.push_back(static_cast<std::uint8_t>(bits));
      shiftto = 18;
      bits = 0;
    }
  }
  if (shiftto == 6) {
    out.push_back(static_cast<std::uint8_t>(bits >> 16));
  } else if (shiftto == 0) {
    out.push_back(static_cast<std::uint8_t>(bits >> 16));
    out.push_back(static_cast<std::uint8_t>(bits >> 8));
  } else if (shiftto == 12) {
    error = "Last unit does not have enough valid bits";
    return false;
  }
  if (sp < src.size()) {
    error = fmt::format("Input byte array has incorrect ending byte at {}", sp);
    return false;
  }
  return true;
}

}  // namespace

bool Uuid::is_zero() const {
  for (auto b : bytes)
    if (b != 0) return false;
  return true;
}

bool Uuid::is_reserved() const {
  for (int i = 0; i < 15; ++i)
    if (bytes[i] != 0) return false;
  return bytes[15] < 100;
}

std::string Uuid::to_string() const {
  std::string out;
  std::uint32_t acc = 0;
  int nbits = 0;
  for (auto b : bytes) {
    acc = (acc << 8) | b;
    nbits += 8;
    while (nbits >= 6) {
      nbits -= 6;
      out += kAlphabet[(acc >> nbits) & 0x3f];
    }
  }
  if (nbits > 0) out += kAlphabet[(acc << (6 - nbits)) & 0x3f];
  return out;
}

UuidParse parse_uuid(std::string_view text) {
  UuidParse result;
  if (text.size() > 24) {
    result.error = fmt::format(
        "Input string with prefix `{}` is too long to be decoded as a "
        "base64 UUID",
        text.substr(0, 24));
    return result;
  }
  Decoded decoded;
  if (!java_base64url_decode(text, decoded, result.error)) return result;
  if (decoded.size() != 16) {
    result.error = fmt::format(
        "Input string `{}` decoded as {} bytes, which is not equal to the "
        "expected 16 bytes of a base64-encoded UUID",
        text, decoded.size());
    return result;
  }
  std::copy(decoded.bytes.begin(), decoded.bytes.begin() + 16, result.uuid.bytes.begin());
  result.ok = true;
  return result;
}

}  // namespace kepoch
