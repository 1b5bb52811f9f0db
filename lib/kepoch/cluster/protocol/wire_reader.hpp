#pragma once
// The bounded reader under the protocol decoder: Kafka's Readable (ByteBufferAccessor) over
// one frame, big-endian as Java's ByteBuffer, with the unsigned varint of the flexible
// versions (ByteUtils.readUnsignedVarint). Every read checks what remains first; a failure
// throws ProtocolError naming the message, the current field path and the byte offset in
// the frame, so a lying length is a one-line error and never an over-read or a huge
// allocation.

#include <cstdint>
#include <span>
#include <string>

#include "kepoch/base/uuid.hpp"
#include "kepoch/cluster/protocol/field_path.hpp"

namespace kepoch::cluster::protocol {

class WireReader {
 public:
  // `message` names what is read ("MetadataResponse v12"), for errors.
  WireReader(std::span<const std::uint8_t> frame, std::string message)
      : data_(frame), end_(frame.size()), message_(std::move(message)) {}

  std::size_t offset() const { return pos_; }  // from the start of the frame
  std::size_t remaining() const { return end_ - pos_; }
  bool at_end() const { return pos_ == end_; }

  std::int8_t i8() { return static_cast<std::int8_t>(take(1)[0]); }
  std::int16_t i16() { return static_cast<std::int16_t>(be(2)); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(be(2)); }
  std::int32_t i32() { return static_cast<std::int32_t>(be(4)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(be(4)); }
  std::int64_t i64() { return static_cast<std::int64_t>(be(8)); }
  double f64();
  Uuid uuid();
  // At most 5 bytes, the value within 32 bits (Kafka throws "Varint is too long").
  std::uint32_t unsigned_varint();
  std::span<const std::uint8_t> bytes(std::size_t n) { return take(n); }

  // Narrows the readable end to the next n bytes (a tagged field's declared size) and
  // returns the previous end, for restore().
  std::size_t limit(std::size_t n);
  void restore(std::size_t previous_end) { end_ = previous_end; }

  FieldPath& path() { return path_; }
  const std::string& message() const { return message_; }
  void set_message(std::string message) { message_ = std::move(message); }

  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_at(std::size_t offset, const std::string& what) const;

 private:
  std::span<const std::uint8_t> take(std::size_t n);
  std::uint64_t be(std::size_t n) {
    std::uint64_t v = 0;
    for (auto b : take(n))
      v = (v << 8) | b;
    return v;
  }

  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
  std::size_t end_;
  std::string message_;
  FieldPath path_;
};

}  // namespace kepoch::cluster::protocol
