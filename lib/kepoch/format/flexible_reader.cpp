#include "kepoch/format/flexible_reader.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kepoch {
namespace {

constexpr std::int64_t kMaxStringLength = 0x7fff;

}  // namespace

std::optional<std::size_t> FlexibleReader::nullable_array_length(std::string_view field) {
  const std::int64_t n = static_cast<std::int64_t>(in_.unsigned_varint(field)) - 1;
  if (n < 0) return std::nullopt;
  if (static_cast<std::uint64_t>(n) > in_.remaining()) {
    in_.fail(fmt::format(
        "Tried to allocate a collection of size {}, but there are only {} bytes remaining.", n,
        in_.remaining()));
  }
  return static_cast<std::size_t>(n);
}

std::size_t FlexibleReader::array_length(std::string_view field) {
  const std::uint64_t at = in_.position();
  const auto n = nullable_array_length(field);
  if (!n) throw FormatError(at, fmt::format("non-nullable field {} was serialized as null", field));
  return *n;
}

std::optional<std::string> FlexibleReader::nullable_string(std::string_view field) {
  const std::int64_t n = static_cast<std::int64_t>(in_.unsigned_varint(field)) - 1;
  if (n < 0) return std::nullopt;
  if (n > kMaxStringLength)
    in_.fail(fmt::format("string field {} had invalid length {}", field, n));
  const auto b = in_.bytes(static_cast<std::size_t>(n), field);
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

std::string FlexibleReader::string(std::string_view field) {
  const std::uint64_t at = in_.position();
  auto s = nullable_string(field);
  if (!s) throw FormatError(at, fmt::format("non-nullable field {} was serialized as null", field));
  return std::move(*s);
}

Uuid FlexibleReader::uuid(std::string_view field) {
  Uuid u;
  const auto b = in_.bytes(16, field);
  std::copy(b.begin(), b.end(), u.bytes.begin());
  return u;
}

std::optional<std::vector<std::int32_t>> FlexibleReader::nullable_int32_array(
    std::string_view field) {
  const auto n = nullable_array_length(field);
  if (!n) return std::nullopt;
  std::vector<std::int32_t> out;
  out.reserve(reservable(*n, 4));
  for (std::size_t i = 0; i < *n; ++i)
    out.push_back(in_.i32(field));
  return out;
}

std::vector<std::int32_t> FlexibleReader::int32_array(std::string_view field) {
  const std::uint64_t at = in_.position();
  auto out = nullable_int32_array(field);
  if (!out)
    throw FormatError(at, fmt::format("non-nullable field {} was serialized as null", field));
  return std::move(*out);
}

std::optional<std::vector<Uuid>> FlexibleReader::nullable_uuid_array(std::string_view field) {
  const auto n = nullable_array_length(field);
  if (!n) return std::nullopt;
  std::vector<Uuid> out;
  out.reserve(reservable(*n, 16));
  for (std::size_t i = 0; i < *n; ++i)
    out.push_back(uuid(field));
  return out;
}

std::vector<Uuid> FlexibleReader::uuid_array(std::string_view field) {
  const std::uint64_t at = in_.position();
  auto out = nullable_uuid_array(field);
  if (!out)
    throw FormatError(at, fmt::format("non-nullable field {} was serialized as null", field));
  return std::move(*out);
}

void FlexibleReader::tagged_fields(std::string_view where, const TagHandler& known) {
  tagged_fields_with(
      where, [&known](std::uint32_t tag, FlexibleReader& f) { return known && known(tag, f); });
}

// A record's notes are capped: a tagged section of a million empty unknown fields (two bytes
// each) would otherwise hold ~40 times its bytes in notes.
bool FlexibleReader::note_room() {
  if (notes_.size() < kMaxNotes) return true;
  if (notes_.size() == kMaxNotes) notes_.push_back("further notes of this record left out");
  return false;
}

void FlexibleReader::note_left_unread(std::size_t left, std::uint32_t tag, std::string_view where) {
  if (!note_room()) return;
  notes_.push_back(fmt::format("{} bytes left unread in tagged field {} of {}", left, tag, where));
}

void FlexibleReader::note_unknown(std::uint32_t tag, std::uint32_t size, std::string_view where) {
  if (!note_room()) return;
  notes_.push_back(
      fmt::format("unknown tagged field {} ({} bytes) in {} skipped", tag, size, where));
}

}  // namespace kepoch
