#pragma once
// Where to start reading a segment for an offset, as Kafka seeks: OffsetIndex.lookup gives
// the largest offset-index entry whose offset is <= the target (else the segment's start),
// and the .log is scanned from that entry's position (LogSegment.translateOffset, and
// LogSegment.readNextOffset with the last entry). So a reader of the log's tail costs the
// tail, not the segment.
//
// The offset index `<base offset>.index` (format/offset_index.hpp):
//   entry = relativeOffset int32, position int32   (8 bytes, big-endian, no header)
//   an entry maps the LAST offset of an append to the START position of that append;
//   offsets strictly increase; after a crash the file ends in zero entries (0, 0).
//
// kepoch does not trust the index further than it can check it, so the answer never depends
// on the index being right: the entry is looked up by binary search over its entries read
// one by one (pread, never the whole file), and it is used only when the entry at its
// position in the .log is a whole batch that passes its CRC, lies in the segment (base
// offset >= the segment's) and ends at or below the entry's offset. Then, in a log whose
// offsets increase (Kafka's append rule), every batch before that position ends below the
// entry's offset, so a reader skipping them misses no batch ending at or after the target.
// Any doubt (no index, a short or damaged one, a position past the end) answers 0: the
// segment is read from its start, as without an index.

#include <cstdint>
#include <filesystem>

namespace kepoch {

// The .index beside a segment's .log (`00000000000000000042.log` ->
// `00000000000000000042.index`).
std::filesystem::path offset_index_path(const std::filesystem::path& log_file);

// The byte position in `log_file` (a segment whose base offset is `base_offset`) from which
// a walk finds every batch whose last offset is >= `target`: an entry position checked as
// above, or 0. Reads a few entries of the .index and one batch of the .log; never throws for
// a missing or damaged index (the answer is then 0).
std::uint64_t seek_position(const std::filesystem::path& log_file, std::int64_t base_offset,
                            std::int64_t target);

}  // namespace kepoch
