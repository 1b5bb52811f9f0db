#pragma once
// One entry of a .log file: a v2 record batch (DefaultRecordBatch) or a legacy v0/v1
// message (LegacyRecord), told apart by the magic byte at entry offset 16.
//
// v2 batch header (61 bytes, big-endian):
//    0 baseOffset int64        8 batchLength int32 (bytes after this field)
//   12 partitionLeaderEpoch int32 (not covered by the CRC)
//   16 magic int8 (2)         17 crc uint32: CRC-32C over [21, 12 + batchLength)
//   21 attributes int16: low byte bits 0-2 codec, 3 timestamp type, 4 transactional,
//      5 control, 6 delete horizon
//   23 lastOffsetDelta int32  27 baseTimestamp int64   35 maxTimestamp int64
//   43 producerId int64       51 producerEpoch int16   53 baseSequence int32
//   57 recordsCount int32     61 records (compressed as one stream when codec != none)
//
// Legacy entry: 0 offset int64, 8 size int32, then the message: 12 crc uint32 (CRC-32 over
// [16, 12 + size)), 16 magic (0|1), 17 attributes (bits 0-2 codec, 3 timestamp type),
// v1: 18 timestamp int64; then keyLength int32, key, valueLength int32, value.
// A compressed legacy message is a wrapper whose value holds inner entries.

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace kepoch {

inline constexpr std::size_t kLogOverhead = 12;          // offset + size
inline constexpr std::size_t kBatchHeaderSize = 61;      // RECORD_BATCH_OVERHEAD
inline constexpr std::size_t kHeaderSizeUpToMagic = 17;  // LOG_OVERHEAD + 5
inline constexpr std::int32_t kMinRecordOverhead = 14;   // LegacyRecord.RECORD_OVERHEAD_V0

// Java's long addition, which wraps (damaged offsets must not overflow in C++).
inline std::int64_t wrapping_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

struct BatchHeader {
  std::uint64_t position = 0;    // of the entry in the file
  std::int64_t base_offset = 0;  // v2: baseOffset; legacy: the entry offset
  std::int32_t size_field = 0;   // batchLength (v2) / message size (legacy)
  std::int8_t magic = 2;
  std::int32_t partition_leader_epoch = -1;  // -1 for legacy
  std::uint32_t crc = 0;
  std::int16_t attributes = 0;
  std::int32_t last_offset_delta = 0;
  std::int64_t base_timestamp = -1;
  std::int64_t max_timestamp = -1;
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;
  std::int32_t base_sequence = -1;
  std::int32_t records_count = 1;

  bool is_v2() const { return magic >= 2; }
  std::uint64_t size_in_bytes() const {
    return kLogOverhead + static_cast<std::uint32_t>(size_field);
  }
  // v2: baseOffset + lastOffsetDelta; legacy: the entry offset (a wrapper's is its last inner).
  std::int64_t last_offset() const {
    return is_v2() ? wrapping_add(base_offset, last_offset_delta) : base_offset;
  }
  std::int64_t next_offset() const { return wrapping_add(last_offset(), 1); }
  int codec() const { return attributes & 0x07; }
  bool log_append_time() const { return (attributes & 0x08) != 0; }
  bool is_transactional() const { return is_v2() && (attributes & 0x10) != 0; }
  bool is_control() const { return is_v2() && (attributes & 0x20) != 0; }
  bool has_delete_horizon() const { return is_v2() && (attributes & 0x40) != 0; }
};

// Reads the header of the entry at the start of `entry` (which holds at least
// kHeaderSizeUpToMagic bytes, and the whole entry when available). For a v2 batch shorter
// than 61 bytes only the fields present are read. Never throws.
BatchHeader read_batch_header(std::span<const std::uint8_t> entry, std::uint64_t position);

// Kafka's ensureValid: v2 "Record batch is corrupt (the size N is smaller than the minimum
// allowed overhead 61)" / "Record is corrupt (stored crc = A, computed crc = B)"; legacy
// the same over CRC-32. `entry` is the whole entry (kLogOverhead + size_field bytes).
// Returns nullopt when valid, else Kafka's message.
std::optional<std::string> validate_batch(const BatchHeader& header,
                                          std::span<const std::uint8_t> entry);
// The same given the entry's computed checksum (compute_batch_crc), for callers that keep it.
std::optional<std::string> validate_batch(const BatchHeader& header, std::uint32_t computed_crc);
// The checksum Kafka computes for the entry (CRC-32C for v2, CRC-32 for legacy).
std::uint32_t compute_batch_crc(const BatchHeader& header, std::span<const std::uint8_t> entry);

}  // namespace kepoch
