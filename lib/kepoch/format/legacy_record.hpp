#pragma once
// The records of a legacy (magic v0/v1) log entry: LegacyRecord, and the deep iteration of
// a compressed wrapper (AbstractLegacyRecordBatch.DeepRecordsIterator).
//
// Entry: 0 offset int64, 8 size int32, 12 message of `size` bytes:
//   message  0 crc uint32 (CRC-32 over [4, size))   4 magic int8 (0|1)
//            5 attributes int8: bits 0-2 codec (none, gzip, snappy, lz4; zstd invalid),
//              bit 3 timestamp type (v1)
//            v1: 6 timestamp int64
//            6|14 keyLength int32 (negative: null), key, valueLength int32, value
//
// An uncompressed message is one record at the entry's offset. A compressed message is a
// wrapper: its value, decompressed, is a sequence of inner entries of the same shape
// (DataLogInputStream: an inner size below 14 is corrupt; a partial inner entry at the end
// ends the sequence). All inner entries are read first, then offsets are made absolute:
//   v1 wrapper: base = wrapper offset - last inner offset (wrapper offset 0: base 0; a
//               wrapper offset below the last inner offset is invalid); absolute = base + inner
//   v0 wrapper: inner offsets are absolute already
// Inner messages other than v0 take the wrapper's timestamp type (a v0 wrapper's: none),
// and its timestamp when that is LogAppendTime. No inner message may be compressed; there must be
// at least one; the wrapper value may not be null.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "kepoch/format/record.hpp"

namespace kepoch {

inline constexpr std::size_t kLegacyHeaderSizeV0 = 14;  // LegacyRecord.RECORD_OVERHEAD_V0
inline constexpr std::size_t kLegacyHeaderSizeV1 = 22;  // LegacyRecord.RECORD_OVERHEAD_V1

// Reads the legacy entry that fills `entry` (kLogOverhead + size bytes) as one record,
// without decompressing: the wrapper itself when compressed. `position` is the file
// position of entry[0]. Throws FormatError when the message is shorter than its fields.
Record read_legacy_message(std::span<const std::uint8_t> entry, std::uint64_t position);

// Calls `visit` for each record of the legacy entry in `entry`, in offset order: itself
// when uncompressed, else its inner messages with absolute offsets. The decompressed value
// is kept in `buffer` (at most `max_output` bytes); the records' spans point into `entry`
// or `buffer`. Throws FormatError with Kafka's message on what Kafka rejects (records
// visited before the failure stay visited). Returns notes on what Kafka reads past.
std::vector<std::string> for_each_legacy_record(std::span<const std::uint8_t> entry,
                                                std::uint64_t position, std::size_t max_output,
                                                std::vector<std::uint8_t>& buffer,
                                                const std::function<void(const Record&)>& visit);

}  // namespace kepoch
