#include "kepoch/base/byte_reader.hpp"

#include <fmt/format.h>

namespace kepoch {

void ByteReader::too_short(std::size_t n, std::string_view field) const {
  fail(fmt::format("{} needs {} bytes, only {} remain", field, n, remaining()));
}

void ByteReader::fail(const std::string& what) const {
  throw FormatError(position(), what);
}

std::uint64_t ByteReader::checked_varint_bits(int max_bytes, std::string_view field) {
  std::uint64_t value = 0;
  for (int i = 0; i < max_bytes; ++i) {
    const std::uint8_t b = u8(field);
    value |= static_cast<std::uint64_t>(b & 0x7f) << (7 * i);
    if ((b & 0x80) == 0) return value;
  }
  if (max_bytes == 5) fail(fmt::format("{}: varint longer than 5 bytes", field));
  fail(fmt::format("{}: varlong longer than 10 bytes", field));
}

}  // namespace kepoch
