#pragma once
// The writer under the protocol encoder: Kafka's Writable, big-endian as Java's
// ByteBuffer, with the unsigned varint of the flexible versions
// (ByteUtils.writeUnsignedVarint: 7 bits a byte, low bits first, high bit = more).

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "kepoch/base/uuid.hpp"

namespace kepoch::cluster::protocol {

class WireWriter {
 public:
  void i8(std::int8_t v) { out_.push_back(static_cast<std::uint8_t>(v)); }
  void i16(std::int16_t v) { be(static_cast<std::uint16_t>(v), 2); }
  void u16(std::uint16_t v) { be(v, 2); }
  void i32(std::int32_t v) { be(static_cast<std::uint32_t>(v), 4); }
  void u32(std::uint32_t v) { be(v, 4); }
  void i64(std::int64_t v) { be(static_cast<std::uint64_t>(v), 8); }
  void f64(double v) { be(std::bit_cast<std::uint64_t>(v), 8); }
  void uuid(const Uuid& u) { bytes(u.bytes); }
  void unsigned_varint(std::uint32_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<std::uint8_t>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<std::uint8_t>(v));
  }
  void bytes(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }

  std::size_t size() const { return out_.size(); }
  const std::vector<std::uint8_t>& data() const { return out_; }
  std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  void be(std::uint64_t v, int n) {
    for (int shift = 8 * (n - 1); shift >= 0; shift -= 8)
      out_.push_back(static_cast<std::uint8_t>(v >> shift));
  }

  std::vector<std::uint8_t> out_;
};

}  // namespace kepoch::cluster::protocol
