// Time index parser; the layout and Kafka's rules are in time_index.hpp.
#include "kepoch/format/time_index.hpp"

#include <fmt/format.h>

#include "kepoch/base/byte_reader.hpp"

namespace kepoch {

std::int64_t TimeIndex::last_timestamp() const {
  return entries.empty() ? -1 : entries.back().timestamp;  // RecordBatch.NO_TIMESTAMP
}

std::int64_t TimeIndex::last_offset() const {
  return entries.empty() ? base_offset : entries.back().offset;
}

std::optional<IndexCheckFailure> TimeIndex::sanity_check(std::string_view path) const {
  // TimeIndex.sanityCheck: timestamps, then offsets, then the length.
  if (!entries.empty() && last_timestamp() < entries.front().timestamp) {
    return IndexCheckFailure{
        std::string(kCorruptIndexException),
        fmt::format("Corrupt time index found, time index file ({}) has non-zero size but the "
                    "last timestamp is {} which is less than the first timestamp {}",
                    path, last_timestamp(), entries.front().timestamp),
        entries.back().file_position};
  }
  if (!entries.empty() && last_offset() < base_offset) {
    return IndexCheckFailure{
        std::string(kCorruptIndexException),
        fmt::format("Corrupt time index found, time index file ({}) has non-zero size but the "
                    "last offset is {} which is less than the first offset {}",
                    path, last_offset(), base_offset),
        entries.back().file_position + 8};
  }
  if (length % kEntrySize != 0) {
    return IndexCheckFailure{
        std::string(kCorruptIndexException),
        fmt::format("Time index file {} is corrupt, found {} bytes which is neither positive nor "
                    "a multiple of {}",
                    path, length, kEntrySize),
        length - trailing_bytes};
  }
  return std::nullopt;
}

TimeIndex parse_time_index(std::span<const std::uint8_t> bytes, std::int64_t base_offset) {
  TimeIndex idx;
  idx.base_offset = base_offset;
  idx.length = bytes.size();
  const std::size_t count = bytes.size() / TimeIndex::kEntrySize;
  idx.trailing_bytes = bytes.size() % TimeIndex::kEntrySize;
  idx.entries.reserve(count);

  ByteReader r(bytes.first(count * TimeIndex::kEntrySize));
  for (std::size_t i = 0; i < count; ++i) {
    TimeIndexEntry e;
    e.file_position = r.position();
    e.timestamp = r.i64("timestamp");
    e.relative_offset = r.i32("relative offset");
    e.offset = base_offset + e.relative_offset;
    idx.entries.push_back(e);
  }

  std::size_t padding = 0;
  while (padding < count) {
    const auto& e = idx.entries[count - 1 - padding];
    if (e.timestamp != 0 || e.relative_offset != 0) break;
    ++padding;
  }
  idx.zero_padding_entries = padding;

  using Sev = IndexFinding::Severity;
  std::size_t valid = 0;
  for (; valid < count - padding; ++valid) {
    if (valid == 0) continue;
    const auto& e = idx.entries[valid];
    const auto& prev = idx.entries[valid - 1];
    if (e.timestamp <= prev.timestamp || e.offset < prev.offset) break;
  }
  idx.valid_entries = valid;

  for (std::size_t i = 0; i < valid; ++i) {
    const auto& e = idx.entries[i];
    if (e.relative_offset < 0)
      idx.findings.push_back(
          {Sev::error, e.file_position + 8,
           fmt::format("entry {}: relative offset {} is negative (offset {} is below the "
                       "segment base offset {})",
                       i, e.relative_offset, e.offset, base_offset)});
    if (e.timestamp < 0)
      idx.findings.push_back(
          {Sev::error, e.file_position,
           fmt::format("entry {}: timestamp {} is negative (TimeIndex.maybeAppend only "
                       "writes timestamps greater than -1)",
                       i, e.timestamp)});
  }
  if (valid < count - padding) {
    const auto& e = idx.entries[valid];
    const auto& prev = idx.entries[valid - 1];
    const bool ts = e.timestamp <= prev.timestamp;
    idx.findings.push_back(
        {Sev::error, ts ? e.file_position : e.file_position + 8,
         ts ? fmt::format("entry {}: timestamp {} is not greater than the previous entry's "
                          "timestamp {} (TimeIndex.maybeAppend never writes that); the {} "
                          "entries from here on are not a valid index",
                          valid, e.timestamp, prev.timestamp, count - valid)
            : fmt::format("entry {}: offset {} is less than the previous entry's offset {} "
                          "(TimeIndex.maybeAppend refuses that); the {} entries from here on "
                          "are not a valid index",
                          valid, e.offset, prev.offset, count - valid)});
  }
  if (padding > 0) {
    idx.findings.push_back(
        {Sev::info, (count - padding) * TimeIndex::kEntrySize,
         fmt::format("{} zero entries of preallocated space: the time index was not trimmed "
                     "(the active segment of a running broker or of one that did not shut "
                     "down cleanly); TimeIndex.sanityCheck fails on such a file",
                     padding)});
  }
  if (idx.trailing_bytes != 0) {
    idx.findings.push_back(
        {Sev::error, count * TimeIndex::kEntrySize,
         fmt::format("{} bytes after the last whole 12-byte entry: Kafka ignores them when "
                     "counting entries; sanityCheck fails on the length",
                     idx.trailing_bytes)});
  }
  return idx;
}

}  // namespace kepoch
