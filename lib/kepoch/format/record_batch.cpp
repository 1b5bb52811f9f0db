#include "kepoch/format/record_batch.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/crc32c.hpp"

namespace kepoch {
namespace {

constexpr std::size_t kCrcOffset = 17;
constexpr std::size_t kAttributesOffset = 21;
constexpr std::size_t kLegacyMagicOffset = 16;

std::int16_t load_i16(const std::uint8_t* p) {
  return static_cast<std::int16_t>((p[0] << 8) | p[1]);
}
std::int32_t load_i32(const std::uint8_t* p) {
  return static_cast<std::int32_t>(load_be32(p));
}
std::int64_t load_i64(const std::uint8_t* p) {
  return static_cast<std::int64_t>(load_be64(p));
}

void read_v2(BatchHeader& h, std::span<const std::uint8_t> e) {
  const std::uint8_t* p = e.data();
  h.partition_leader_epoch = load_i32(p + 12);
  if (e.size() < kBatchHeaderSize) return;
  h.crc = load_be32(p + kCrcOffset);
  h.attributes = load_i16(p + kAttributesOffset);
  h.last_offset_delta = load_i32(p + 23);
  h.base_timestamp = load_i64(p + 27);
  h.max_timestamp = load_i64(p + 35);
  h.producer_id = load_i64(p + 43);
  h.producer_epoch = load_i16(p + 51);
  h.base_sequence = load_i32(p + 53);
  h.records_count = load_i32(p + 57);
}

void read_legacy(BatchHeader& h, std::span<const std::uint8_t> e) {
  const std::uint8_t* p = e.data();
  h.crc = load_be32(p + 12);
  if (e.size() < 18) return;
  h.attributes = p[17];
  if (h.magic == 1 && e.size() >= 26) {
    h.base_timestamp = load_i64(p + 18);
    h.max_timestamp = h.base_timestamp;
  }
}

}  // namespace

BatchHeader read_batch_header(std::span<const std::uint8_t> entry, std::uint64_t position) {
  BatchHeader h;
  h.position = position;
  if (entry.size() < kHeaderSizeUpToMagic) return h;
  const std::uint8_t* p = entry.data();
  h.base_offset = load_i64(p);
  h.size_field = load_i32(p + 8);
  h.magic = static_cast<std::int8_t>(p[kLegacyMagicOffset]);
  if (h.is_v2()) {
    read_v2(h, entry);
  } else {
    read_legacy(h, entry);
  }
  return h;
}

std::uint32_t compute_batch_crc(const BatchHeader& header, std::span<const std::uint8_t> entry) {
  if (header.is_v2()) {
    if (entry.size() < kAttributesOffset) return 0;
    return crc32c(entry.subspan(kAttributesOffset));
  }
  if (entry.size() < kLegacyMagicOffset) return 0;
  const auto covered = entry.subspan(kLegacyMagicOffset);
  return static_cast<std::uint32_t>(::crc32(0, covered.data(), static_cast<uInt>(covered.size())));
}

namespace {

std::optional<std::string> size_error(const BatchHeader& header) {
  if (header.is_v2() && header.size_in_bytes() < kBatchHeaderSize) {
    return fmt::format(
        "Record batch is corrupt (the size {} is smaller than the minimum allowed "
        "overhead {})",
        header.size_in_bytes(), kBatchHeaderSize);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> validate_batch(const BatchHeader& header,
                                          std::span<const std::uint8_t> entry) {
  if (auto error = size_error(header)) return error;
  return validate_batch(header, compute_batch_crc(header, entry));
}

std::optional<std::string> validate_batch(const BatchHeader& header, std::uint32_t computed) {
  if (auto error = size_error(header)) return error;
  if (computed != header.crc) {
    return fmt::format("Record is corrupt (stored crc = {}, computed crc = {})", header.crc,
                       computed);
  }
  return std::nullopt;
}

}  // namespace kepoch
