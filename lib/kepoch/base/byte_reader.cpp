#include "kepoch/base/byte_reader.hpp"

#include <fmt/format.h>

namespace kepoch {

std::span<const std::uint8_t> ByteReader::take(std::size_t n, std::string_view field) {
  if (n > remaining()) {
    fail(fmt::format("{} needs {} bytes, only {} remain", field, n, remaining()));
  }
  auto out = data_.subspan(pos_, n);
  pos_ += n;
  return out;
}

void ByteReader::fail(const std::string& what) const {
  throw FormatError(position(), what);
}

std::uint32_t ByteReader::unsigned_varint(std::string_view field) {
  std::uint32_t value = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    const std::uint8_t b = u8(field);
    value |= static_cast<std::uint32_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return value;
  }
  fail(fmt::format("{}: varint longer than 5 bytes", field));
}

std::int32_t ByteReader::varint(std::string_view field) {
  const std::uint32_t raw = unsigned_varint(field);
  return static_cast<std::int32_t>((raw >> 1) ^ (~(raw & 1) + 1));
}

std::int64_t ByteReader::varlong(std::string_view field) {
  std::uint64_t raw = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    const std::uint8_t b = u8(field);
    raw |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return static_cast<std::int64_t>((raw >> 1) ^ (~(raw & 1) + 1));
  }
  fail(fmt::format("{}: varlong longer than 10 bytes", field));
}

}  // namespace kepoch
