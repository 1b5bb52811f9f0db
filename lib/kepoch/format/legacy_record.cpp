#include "kepoch/format/legacy_record.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/compression.hpp"
#include "kepoch/format/record_batch.hpp"

namespace kepoch {
namespace {

constexpr std::size_t kMagicOffset = 4;  // within the message
constexpr std::uint8_t kCodecMask = 0x07;
constexpr std::uint8_t kTimestampTypeMask = 0x08;

std::uint32_t crc32_of(std::span<const std::uint8_t> b) {
  return static_cast<std::uint32_t>(::crc32(0, b.data(), static_cast<uInt>(b.size())));
}

// Utils.sizeDelimited: int32 length (negative: null), then the bytes.
std::optional<std::span<const std::uint8_t>> size_delimited(ByteReader& r, std::string_view field) {
  const std::int32_t n = r.i32(field);
  if (n < 0) return std::nullopt;
  return r.bytes(static_cast<std::size_t>(n), field);
}

struct Inner {
  Record record;
  int codec = 0;
};

// One message (offset and size already read); `message` holds exactly `size` bytes.
Inner read_message(std::int64_t offset, std::span<const std::uint8_t> message,
                   std::uint64_t position) {
  ByteReader r(message, position);
  Inner out;
  Record& rec = out.record;
  rec.offset = offset;
  rec.size_in_bytes = static_cast<std::int32_t>(kLogOverhead + message.size());
  rec.crc = r.u32("crc");
  rec.magic = r.i8("magic");
  const std::uint8_t attributes = r.u8("attributes");
  out.codec = attributes & kCodecMask;
  rec.computed_crc = crc32_of(message.subspan(kMagicOffset));
  // LegacyRecord reads every magic other than 0 with the v1 layout.
  if (rec.magic == 0) {
    rec.timestamp_type = "no-timestamp";
  } else {
    rec.timestamp = r.i64("timestamp");
    rec.timestamp_type = (attributes & kTimestampTypeMask) ? "log-append-time" : "create-time";
  }
  rec.key = size_delimited(r, "key");
  rec.value = size_delimited(r, "value");
  return out;
}

Inner read_entry(std::span<const std::uint8_t> entry, std::uint64_t position) {
  ByteReader r(entry, position);
  const std::int64_t offset = r.i64("offset");
  const std::int32_t size = r.i32("size");
  if (size < 0 || static_cast<std::size_t>(size) != r.remaining()) {
    r.fail(fmt::format("legacy entry size {} does not match the {} bytes after it", size,
                       r.remaining()));
  }
  return read_message(offset, entry.subspan(kLogOverhead), position + kLogOverhead);
}

// DataLogInputStream over the decompressed wrapper value: every complete inner entry.
std::vector<Inner> read_inner_entries(std::span<const std::uint8_t> data, std::uint64_t position,
                                      std::vector<std::string>& notes) {
  std::vector<Inner> out;
  ByteReader r(data, position);
  while (r.remaining() >= kLogOverhead) {
    const std::size_t at = r.offset();
    const std::int64_t offset = r.i64("inner offset");
    const std::int32_t size = r.i32("inner size");
    if (size < static_cast<std::int32_t>(kLegacyHeaderSizeV0)) {
      throw FormatError(position, fmt::format("Record size is less than the minimum record "
                                              "overhead ({}) (inner message at byte {} of the "
                                              "decompressed value: size {})",
                                              kLegacyHeaderSizeV0, at, size));
    }
    if (static_cast<std::size_t>(size) > r.remaining()) {
      notes.push_back(
          fmt::format("a partial inner message at byte {} of the decompressed value "
                      "ends the set (Kafka stops there too)",
                      at));
      return out;
    }
    try {
      out.push_back(
          read_message(offset, r.bytes(static_cast<std::size_t>(size), "inner message"), position));
    } catch (const FormatError& e) {
      throw FormatError(position, fmt::format("inner message at byte {} of the decompressed "
                                              "value: {}",
                                              at, e.what()));
    }
  }
  if (!r.at_end()) {
    notes.push_back(
        fmt::format("{} bytes after the last inner message, which Kafka ignores", r.remaining()));
  }
  return out;
}

// DeepRecordsIterator: the absolute base of a v1 wrapper's relative offsets.
std::int64_t v1_base_offset(std::int64_t wrapper_offset, std::int64_t last_inner,
                            std::uint64_t position) {
  if (wrapper_offset == 0) return 0;  // produced by certain versions of librdkafka
  if (wrapper_offset < last_inner) {
    throw FormatError(position, fmt::format("Found invalid wrapper offset in compressed v1 "
                                            "message set, wrapper offset '{}' is less than the "
                                            "last inner message offset '{}' and it is not zero.",
                                            wrapper_offset, last_inner));
  }
  return wrapper_offset - last_inner;
}

void check_offsets(const std::vector<Inner>& inner, std::int64_t wrapper_offset, int magic,
                   std::vector<std::string>& notes) {
  for (std::size_t i = 1; i < inner.size(); ++i) {
    if (inner[i].record.offset != inner[i - 1].record.offset + 1) {
      notes.push_back(fmt::format("inner offsets not consecutive: {} then {}",
                                  inner[i - 1].record.offset, inner[i].record.offset));
      break;
    }
  }
  if (magic == 0 && inner.back().record.offset != wrapper_offset) {
    notes.push_back(fmt::format("wrapper offset {} is not its last inner offset {}", wrapper_offset,
                                inner.back().record.offset));
  }
}

std::vector<std::string> deep_iterate(const Inner& wrapper, std::uint64_t position,
                                      std::size_t max_output, std::vector<std::uint8_t>& buffer,
                                      const std::function<void(const Record&)>& visit) {
  const Record& w = wrapper.record;
  const auto codec = compression_from_attributes(wrapper.codec);
  if (!codec)
    throw FormatError(position, fmt::format("Unknown compression type id: {}", wrapper.codec));
  if (*codec == CompressionType::zstd) {
    throw FormatError(position, fmt::format("Invalid wrapper compressionType found in legacy "
                                            "deep record iterator {}",
                                            w.magic));
  }
  if (!w.value) {
    throw FormatError(position, fmt::format("Found invalid compressed record set with null value "
                                            "(magic = {})",
                                            w.magic));
  }
  buffer = decompress(*codec, *w.value, position, max_output,
                      w.magic == 0 ? LegacyLz4::yes : LegacyLz4::no);
  std::vector<std::string> notes;
  std::vector<Inner> inner = read_inner_entries(buffer, position, notes);
  if (inner.empty())
    throw FormatError(position, "Found invalid compressed record set with no inner records");
  const std::int64_t base =
      w.magic == 1 ? v1_base_offset(w.offset, inner.back().record.offset, position) : 0;
  for (auto& i : inner) {
    Record& r = i.record;
    if (w.magic == 1) r.offset += base;
    // Every non-v0 inner message is rebuilt with the wrapper's timestamp and type
    // (LegacyRecord.timestampType: the wrapper's, even "no-timestamp" from a v0 wrapper).
    if (r.magic != 0) {
      r.timestamp_type = w.timestamp_type;
      if (w.timestamp_type == "log-append-time") r.timestamp = w.timestamp;
    }
  }
  check_offsets(inner, w.offset, w.magic, notes);
  for (const auto& i : inner) {
    if (i.codec != 0) {
      throw FormatError(position, fmt::format("Inner messages must not be compressed (inner "
                                              "offset {})",
                                              i.record.offset));
    }
    visit(i.record);
  }
  return notes;
}

}  // namespace

Record read_legacy_message(std::span<const std::uint8_t> entry, std::uint64_t position) {
  return read_entry(entry, position).record;
}

std::vector<std::string> for_each_legacy_record(std::span<const std::uint8_t> entry,
                                                std::uint64_t position, std::size_t max_output,
                                                std::vector<std::uint8_t>& buffer,
                                                const std::function<void(const Record&)>& visit) {
  const Inner outer = read_entry(entry, position);
  if (outer.codec == 0) {
    visit(outer.record);
    return {};
  }
  return deep_iterate(outer, position, max_output, buffer, visit);
}

}  // namespace kepoch
