#pragma once
// Time index `<base offset>.timeindex` (TimeIndex.java over AbstractIndex.java).
//
//   file    = entry*            no header, no checksum; big-endian
//   entry   = timestamp      int64  (max timestamp of the segment so far)
//             relativeOffset int32  (offset of the batch that carried it - base offset)
//
// TimeIndex.maybeAppend: an offset below the previous entry's is an InvalidOffsetException,
// a timestamp below it an IllegalStateException, and an entry is only written when its
// timestamp is greater than the previous one. So real entries have strictly increasing
// timestamps and non-decreasing offsets. Entries are written beside offset-index entries
// and once more when the segment rolls or closes.
//
// Opening, preallocation (segment.index.bytes rounded down to a multiple of 12) and
// trimming work as for the offset index (see offset_index.hpp): after a crash the active
// segment's .timeindex ends in zero entries (timestamp 0, relative offset 0). Unlike the
// offset index, such a file FAILS TimeIndex.sanityCheck: its last timestamp (0) is less
// than its first. LogLoader does not call that check (LogSegment.sanityCheck skips it), but
// DumpLogSegments --index-sanity-check and the remote index cache do.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "kepoch/format/offset_index.hpp"  // IndexFinding, IndexCheckFailure

namespace kepoch {

struct TimeIndexEntry {
  std::int64_t timestamp = 0;
  std::int32_t relative_offset = 0;
  std::int64_t offset = 0;          // base_offset + relative_offset
  std::uint64_t file_position = 0;  // of this entry in the .timeindex
};

struct TimeIndex {
  static constexpr std::size_t kEntrySize = 12;

  std::int64_t base_offset = 0;
  std::uint64_t length = 0;
  std::vector<TimeIndexEntry> entries;  // all floor(length/12) entries, as Kafka counts them
  std::size_t trailing_bytes = 0;       // length % 12
  // Entries before the first one that breaks TimeIndex.maybeAppend's rules (timestamp not
  // greater, or offset smaller, than the previous entry's) or starts the zero padding.
  std::size_t valid_entries = 0;
  std::size_t zero_padding_entries = 0;  // all-zero entries at the end
  std::vector<IndexFinding> findings;

  // TimeIndex.lastEntry after open: the last counted entry, or (-1, base offset) if none.
  std::int64_t last_timestamp() const;
  std::int64_t last_offset() const;

  // TimeIndex.sanityCheck with Kafka's message text (`path` stands in for the absolute path).
  std::optional<IndexCheckFailure> sanity_check(std::string_view path) const;
};

TimeIndex parse_time_index(std::span<const std::uint8_t> bytes, std::int64_t base_offset);

}  // namespace kepoch
