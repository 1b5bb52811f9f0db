#pragma once
// A bounded big-endian cursor over bytes in memory (Kafka's binary formats are big-endian,
// as Java's ByteBuffer). Every read checks the remaining length first and throws
// FormatError naming the absolute file position and what was expected, so a lying length
// field becomes a one-line error rather than a crash or a huge allocation.

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kepoch {

// Bytes that do not have the shape a format requires. `position` is absolute in the file.
class FormatError : public std::runtime_error {
 public:
  FormatError(std::uint64_t position, const std::string& what)
      : std::runtime_error(what), position_(position) {}
  std::uint64_t position() const { return position_; }

 private:
  std::uint64_t position_;
};

class ByteReader {
 public:
  // `base_position` is the file position of data[0], for error messages.
  explicit ByteReader(std::span<const std::uint8_t> data, std::uint64_t base_position = 0)
      : data_(data), base_(base_position) {}

  std::size_t remaining() const { return data_.size() - pos_; }
  std::size_t offset() const { return pos_; }              // within this reader
  std::uint64_t position() const { return base_ + pos_; }  // in the file
  bool at_end() const { return pos_ == data_.size(); }

  std::uint8_t u8(std::string_view field) {
    if (pos_ == data_.size()) too_short(1, field);
    return data_[pos_++];
  }
  std::int8_t i8(std::string_view field) { return static_cast<std::int8_t>(u8(field)); }
  std::uint16_t u16(std::string_view field) { return static_cast<std::uint16_t>(be(2, field)); }
  std::int16_t i16(std::string_view field) { return static_cast<std::int16_t>(be(2, field)); }
  std::uint32_t u32(std::string_view field) { return static_cast<std::uint32_t>(be(4, field)); }
  std::int32_t i32(std::string_view field) { return static_cast<std::int32_t>(be(4, field)); }
  std::int64_t i64(std::string_view field) { return static_cast<std::int64_t>(be(8, field)); }

  // Kafka's zig-zag varint / varlong (ByteUtils.readVarint / readVarlong).
  std::int32_t varint(std::string_view field) {
    const std::uint32_t raw = unsigned_varint(field);
    return static_cast<std::int32_t>((raw >> 1) ^ (~(raw & 1) + 1));
  }
  std::int64_t varlong(std::string_view field) {
    const std::uint64_t raw = unsigned_varlong(field);
    return static_cast<std::int64_t>((raw >> 1) ^ (~(raw & 1) + 1));
  }
  // Unsigned varint (flexible-version protocol and metadata records).
  std::uint32_t unsigned_varint(std::string_view field) {
    return varint_bits<std::uint32_t, 5>(field);
  }

  // The next n bytes, checked against what remains.
  std::span<const std::uint8_t> bytes(std::size_t n, std::string_view field) {
    return take(n, field);
  }
  void skip(std::size_t n, std::string_view field) { take(n, field); }

  // A sub-reader over the next n bytes (positions stay absolute).
  ByteReader sub(std::size_t n, std::string_view field) {
    const std::uint64_t at = position();
    return ByteReader(take(n, field), at);
  }

  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::span<const std::uint8_t> take(std::size_t n, std::string_view field) {
    if (n > remaining()) too_short(n, field);
    auto out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  [[noreturn]] void too_short(std::size_t n, std::string_view field) const;

  std::uint64_t unsigned_varlong(std::string_view field) {
    return varint_bits<std::uint64_t, 10>(field);
  }
  // The 7-bit groups of a varint of at most `Max` bytes, low group first. Records hold
  // several varints each, read for every record of a dump: a one-byte varint (a record's last
  // field, its header count, ends where its bytes end) takes one check; while `Max` bytes
  // remain no byte can be past the end, so the bytes are read without a check each; near the
  // end (or when too long, to fail) they are read one by one, checked.
  template <class U, int Max>
  U varint_bits(std::string_view field) {
    if (pos_ < data_.size() && data_[pos_] < 0x80) return data_[pos_++];
    if (remaining() >= static_cast<std::size_t>(Max)) {
      const std::uint8_t* p = data_.data() + pos_;
      U value = 0;
      for (int i = 0; i < Max; ++i) {
        value |= static_cast<U>(p[i] & 0x7f) << (7 * i);
        if (p[i] < 0x80) {
          pos_ += static_cast<std::size_t>(i) + 1;
          return value;
        }
      }
    }
    return static_cast<U>(checked_varint_bits(Max, field));
  }
  std::uint64_t checked_varint_bits(int max_bytes, std::string_view field);
  std::uint64_t be(int n, std::string_view field) {
    const auto b = take(static_cast<std::size_t>(n), field);
    std::uint64_t v = 0;
    for (auto x : b)
      v = (v << 8) | x;
    return v;
  }

  std::span<const std::uint8_t> data_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
};

// Big-endian loads from raw memory (for hot loops that already checked bounds).
inline std::uint32_t load_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         p[3];
}
inline std::uint64_t load_be64(const std::uint8_t* p) {
  return (std::uint64_t{load_be32(p)} << 32) | load_be32(p + 4);
}

}  // namespace kepoch
