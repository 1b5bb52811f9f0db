#pragma once
// The reading helpers of Kafka's generated message classes (MessageDataGenerator) for the
// flexible-version encoding, shared by control records and metadata records:
//
//   compact array    uvarint (n + 1), then n elements; 0 = null (nullable fields only)
//   compact string   uvarint (len + 1), then UTF-8; 0 = null; len above 0x7fff rejected
//   uuid             16 bytes
//   tagged fields    uvarint count, then per field: uvarint tag, uvarint size, `size`
//                    bytes; a section closes every message and every struct
//
// A length above the bytes that remain is Kafka's "Tried to allocate a collection of size
// N, but there are only M bytes remaining." Unknown tagged fields are skipped with a note.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/uuid.hpp"

namespace kepoch {

class FlexibleReader {
 public:
  FlexibleReader(ByteReader& in, std::vector<std::string>& notes) : in_(in), notes_(notes) {}

  ByteReader& in() { return in_; }

  // Room to reserve for an array of n elements of at least min_bytes each: no more than the
  // bytes left can hold. A count is only checked against the bytes left (Kafka's check), so a
  // count that lies fails when its elements run out, never by allocating (and, with resize,
  // touching) room for all of them first: ~100 times its bytes for a struct's elements.
  std::size_t reservable(std::size_t n, std::size_t min_bytes) const {
    return std::min(n, in_.remaining() / std::max<std::size_t>(min_bytes, 1));
  }

  // A compact array's length: non-nullable (null throws) or nullable (null is nullopt).
  std::size_t array_length(std::string_view field);
  std::optional<std::size_t> nullable_array_length(std::string_view field);

  std::string string(std::string_view field);
  std::optional<std::string> nullable_string(std::string_view field);
  Uuid uuid(std::string_view field);

  std::vector<std::int32_t> int32_array(std::string_view field);
  std::optional<std::vector<std::int32_t>> nullable_int32_array(std::string_view field);
  std::vector<Uuid> uuid_array(std::string_view field);
  std::optional<std::vector<Uuid>> nullable_uuid_array(std::string_view field);

  // A tagged-field section. `known(tag, field)` reads a known tag from `field` (a reader
  // over exactly its bytes) and returns true, or returns false for an unknown tag, which is
  // skipped with a note naming `where`. Without `known`, every tag is unknown.
  using TagHandler = std::function<bool(std::uint32_t tag, FlexibleReader& field)>;
  void tagged_fields(std::string_view where, const TagHandler& known = {});
  // The same, `known` called directly (no std::function per section: a schema walk reads one
  // section per struct of every record).
  template <class Known>
  void tagged_fields_with(std::string_view where, Known&& known) {
    const std::uint32_t count = in_.unsigned_varint("tagged field count");
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t tag = in_.unsigned_varint("tag");
      const std::uint32_t size = in_.unsigned_varint("tagged field size");
      ByteReader field = in_.sub(size, "tagged field");
      FlexibleReader f(field, notes_);
      if (known(tag, f)) {
        if (!field.at_end()) note_left_unread(field.remaining(), tag, where);
        continue;
      }
      note_unknown(tag, size, where);
    }
  }

 private:
  static constexpr std::size_t kMaxNotes = 100;
  bool note_room();
  void note_left_unread(std::size_t left, std::uint32_t tag, std::string_view where);
  void note_unknown(std::uint32_t tag, std::uint32_t size, std::string_view where);

  ByteReader& in_;
  std::vector<std::string>& notes_;
};

}  // namespace kepoch
