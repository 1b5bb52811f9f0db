#pragma once
// Offset index `<base offset>.index` (OffsetIndex.java over AbstractIndex.java).
//
//   file    = entry*            no header, no checksum; big-endian
//   entry   = relativeOffset int32  (offset - segment base offset)
//             position       int32  (byte position of a batch in the sibling .log)
//
// An entry maps the LAST offset of an append (a batch during recovery, a produce or fetch
// chunk otherwise) to the START position of that append in the .log.
//
// How Kafka opens an existing index (AbstractIndex.createMappedBuffer): it assumes the file
// is valid and counts entries = floor(length / 8); nothing in between is checked. A new
// (active) index is preallocated to segment.index.bytes rounded down to a multiple of 8 and
// filled with zeros; it is trimmed to 8 x entries only when the segment rolls or the broker
// shuts down cleanly. So after a crash the active segment's .index ends in zero entries
// (relative offset 0, position 0), which Kafka counts as entries until it rebuilds the
// index. OffsetIndex.sanityCheck (only DumpLogSegments --index-sanity-check and the remote
// index cache call it; LogLoader skips it, see LogSegment.sanityCheck) checks two things
// only, and a zero-padded index passes both: its last "offset" is then the base offset.
//
// Append rule (OffsetIndex.append): an offset must be strictly greater than the previous
// entry's, else InvalidOffsetException. kepoch uses that rule to find where the real
// entries end (`valid_entries`), as DumpLogSegments stops at the first entry after slot 0
// whose offset equals the base offset.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kepoch {

// Something kepoch noticed in an index or snapshot file, at a byte position of that file.
struct IndexFinding {
  enum class Severity { error, warning, info };
  Severity severity = Severity::warning;
  std::uint64_t position = 0;  // byte in the file the finding is about
  std::string message;         // kepoch's words
};

// What a Kafka check would throw: the Java exception and Kafka's own message text, with
// the path as kepoch was given it (Kafka prints the absolute path).
struct IndexCheckFailure {
  std::string exception;      // e.g. "org.apache.kafka.storage.internals.log.CorruptIndexException"
  std::string kafka_message;  // Kafka's text
  std::uint64_t position = 0;  // byte in the file that makes the check fail
};

inline constexpr std::string_view kCorruptIndexException =
    "org.apache.kafka.storage.internals.log.CorruptIndexException";

struct OffsetIndexEntry {
  std::int32_t relative_offset = 0;
  std::int32_t position = 0;        // in the .log
  std::int64_t offset = 0;          // base_offset + relative_offset, as Kafka computes it (long)
  std::uint64_t file_position = 0;  // of this entry in the .index
};

struct OffsetIndex {
  static constexpr std::size_t kEntrySize = 8;

  std::int64_t base_offset = 0;
  std::uint64_t length = 0;               // file length
  std::vector<OffsetIndexEntry> entries;  // all floor(length/8) entries, as Kafka counts them
  std::size_t trailing_bytes = 0;         // length % 8 (Kafka ignores them when counting)
  // Entries before the first one whose offset is not greater than its predecessor's (the
  // append rule); the rest is zero padding after a crash, or damage.
  std::size_t valid_entries = 0;
  // Entries from the end that are all-zero (preallocated padding), counted back from the
  // last entry; 0 for a trimmed index.
  std::size_t zero_padding_entries = 0;
  std::vector<IndexFinding> findings;

  // OffsetIndex.lastOffset as Kafka holds it after open: last counted entry's offset, or the
  // base offset when there are no entries.
  std::int64_t last_offset() const;

  // OffsetIndex.sanityCheck, with Kafka's message text. `path` stands in for the absolute
  // path Kafka prints. nullopt = passes.
  std::optional<IndexCheckFailure> sanity_check(std::string_view path) const;
};

// Parses every whole entry of an offset index belonging to the segment at `base_offset`,
// and notes findings (trailing bytes, zero padding, offsets or positions that do not
// increase, relative offsets < 0). Never throws for content: every byte string is an index
// to Kafka.
OffsetIndex parse_offset_index(std::span<const std::uint8_t> bytes, std::int64_t base_offset);

// AbstractIndex.canConvertToRelativeOffset: an offset fits a segment's indexes when
// offset - base is in [0, Integer.MAX_VALUE]; LogSegment.append and recover throw
// LogSegmentOffsetOverflowException otherwise.
bool fits_relative_offset(std::int64_t segment_base_offset, std::int64_t offset);

}  // namespace kepoch
