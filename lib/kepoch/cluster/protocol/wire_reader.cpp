#include "kepoch/cluster/protocol/wire_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "kepoch/base/error.hpp"

namespace kepoch::cluster::protocol {

std::span<const std::uint8_t> WireReader::take(std::size_t n) {
  if (n > remaining()) {
    fail(fmt::format("expected {} byte{}, found {}", n, n == 1 ? "" : "s", remaining()));
  }
  const auto out = data_.subspan(pos_, n);
  pos_ += n;
  return out;
}

double WireReader::f64() {
  return std::bit_cast<double>(static_cast<std::uint64_t>(be(8)));
}

Uuid WireReader::uuid() {
  Uuid u;
  const auto b = take(16);
  std::copy(b.begin(), b.end(), u.bytes.begin());
  return u;
}

std::uint32_t WireReader::unsigned_varint() {
  const std::size_t start = pos_;
  std::uint64_t value = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (at_end()) {
      fail_at(start, fmt::format("expected an unsigned varint, found the end after {} of its bytes",
                                 pos_ - start));
    }
    const std::uint8_t b = take(1)[0];
    value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      if (value > 0xffffffffULL) {
        fail_at(start, fmt::format("expected an unsigned varint of 32 bits, found {}", value));
      }
      return static_cast<std::uint32_t>(value);
    }
  }
  fail_at(start, "expected an unsigned varint of at most 5 bytes, found a 6th");
}

std::size_t WireReader::limit(std::size_t n) {
  if (n > remaining()) {
    fail(fmt::format("expected a field of {} bytes, found {}", n, remaining()));
  }
  const std::size_t previous = end_;
  end_ = pos_ + n;
  return previous;
}

void WireReader::fail_at(std::size_t offset, const std::string& what) const {
  throw ProtocolError(message_, path_.to_string(), what, offset);
}

}  // namespace kepoch::cluster::protocol
