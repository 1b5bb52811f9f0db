// Offset index parser; the layout and Kafka's rules are in offset_index.hpp.
#include "kepoch/format/offset_index.hpp"

#include <fmt/format.h>

#include "kepoch/base/byte_reader.hpp"

namespace kepoch {

namespace {

bool all_zero(std::span<const std::uint8_t> b) {
  for (auto x : b)
    if (x != 0) return false;
  return true;
}

}  // namespace

std::int64_t OffsetIndex::last_offset() const {
  return entries.empty() ? base_offset : entries.back().offset;
}

std::optional<IndexCheckFailure> OffsetIndex::sanity_check(std::string_view path) const {
  // OffsetIndex.sanityCheck: the last-offset check first, then the length check.
  if (!entries.empty() && last_offset() < base_offset) {
    return IndexCheckFailure{
        std::string(kCorruptIndexException),
        fmt::format("Corrupt index found, index file {} has non-zero size but the last offset "
                    "is {} which is less than the base offset {}",
                    path, last_offset(), base_offset),
        entries.back().file_position};
  }
  if (length % kEntrySize != 0) {
    return IndexCheckFailure{
        std::string(kCorruptIndexException),
        fmt::format("Index file {} is corrupt, found {} bytes which is neither positive nor a "
                    "multiple of {}",
                    path, length, kEntrySize),
        length - trailing_bytes};
  }
  return std::nullopt;
}

OffsetIndex parse_offset_index(std::span<const std::uint8_t> bytes, std::int64_t base_offset) {
  OffsetIndex idx;
  idx.base_offset = base_offset;
  idx.length = bytes.size();
  const std::size_t count = bytes.size() / OffsetIndex::kEntrySize;
  idx.trailing_bytes = bytes.size() % OffsetIndex::kEntrySize;
  idx.entries.reserve(count);

  ByteReader r(bytes.first(count * OffsetIndex::kEntrySize));
  for (std::size_t i = 0; i < count; ++i) {
    OffsetIndexEntry e;
    e.file_position = r.position();
    e.relative_offset = r.i32("relative offset");
    e.position = r.i32("position");
    e.offset = base_offset + e.relative_offset;
    idx.entries.push_back(e);
  }

  // Zero padding: the all-zero tail of whole entries.
  std::size_t padding = 0;
  while (padding < count) {
    const std::size_t i = count - 1 - padding;
    if (!all_zero(bytes.subspan(i * OffsetIndex::kEntrySize, OffsetIndex::kEntrySize))) break;
    ++padding;
  }
  idx.zero_padding_entries = padding;

  // Valid prefix: offsets strictly increase (OffsetIndex.append) and no legitimate entry is
  // all zero (the first append of a segment never gets an entry, so position 0 never
  // appears).
  std::size_t valid = 0;
  for (; valid < count - padding; ++valid) {
    const auto& e = idx.entries[valid];
    if (valid > 0 && e.offset <= idx.entries[valid - 1].offset) break;
  }
  idx.valid_entries = valid;

  using Sev = IndexFinding::Severity;
  for (std::size_t i = 0; i < valid; ++i) {
    const auto& e = idx.entries[i];
    if (e.relative_offset < 0)
      idx.findings.push_back(
          {Sev::error, e.file_position,
           fmt::format("entry {}: relative offset {} is negative (offset {} is below the "
                       "segment base offset {})",
                       i, e.relative_offset, e.offset, base_offset)});
    if (e.position < 0) {
      idx.findings.push_back({Sev::error, e.file_position + 4,
                              fmt::format("entry {}: position {} is negative", i, e.position)});
    } else if (e.position == 0) {
      idx.findings.push_back(
          {Sev::warning, e.file_position + 4,
           fmt::format("entry {}: position 0 (Kafka never indexes the first append of a "
                       "segment)",
                       i)});
    }
    if (i > 0 && e.position <= idx.entries[i - 1].position)
      idx.findings.push_back(
          {Sev::error, e.file_position + 4,
           fmt::format("entry {}: position {} is not after the previous entry's position {} "
                       "although its offset {} is larger",
                       i, e.position, idx.entries[i - 1].position, e.offset)});
  }
  if (valid < count - padding) {
    const auto& e = idx.entries[valid];
    idx.findings.push_back(
        {Sev::error, e.file_position,
         fmt::format("entry {}: offset {} is not greater than the previous entry's offset {} "
                     "(OffsetIndex.append refuses that); the {} entries from here on are not "
                     "a valid index",
                     valid, e.offset, idx.entries[valid - 1].offset, count - valid)});
  }
  if (padding > 0) {
    idx.findings.push_back(
        {Sev::info, (count - padding) * OffsetIndex::kEntrySize,
         fmt::format("{} zero entries of preallocated space: the index was not trimmed (the "
                     "active segment of a running broker or of one that did not shut down "
                     "cleanly); Kafka counts them as entries until the segment is recovered",
                     padding)});
  }
  if (idx.trailing_bytes != 0) {
    idx.findings.push_back(
        {Sev::error, count * OffsetIndex::kEntrySize,
         fmt::format("{} bytes after the last whole 8-byte entry: Kafka ignores them when "
                     "counting entries; sanityCheck fails on the length",
                     idx.trailing_bytes)});
  }
  return idx;
}

bool fits_relative_offset(std::int64_t segment_base_offset, std::int64_t offset) {
  if (offset < segment_base_offset) return false;
  // offset >= base, so the unsigned difference is exact even across the whole long range.
  const auto relative =
      static_cast<std::uint64_t>(offset) - static_cast<std::uint64_t>(segment_base_offset);
  return relative <= static_cast<std::uint64_t>(INT32_MAX);
}

}  // namespace kepoch
