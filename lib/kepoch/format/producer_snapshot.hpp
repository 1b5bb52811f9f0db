#pragma once
// Producer-state snapshot `<offset>.snapshot` (ProducerStateManager.readSnapshot /
// writeSnapshot, schema storage/src/main/resources/message/ProducerSnapshot.json, version 1,
// not flexible). Big-endian:
//
//   offset  size  field
//        0     2  version int16            only 1 is valid
//        2     4  crc uint32               CRC-32C of bytes [6, EOF)
//        6     4  entry count int32        (generated reader: < 0 -> "non-nullable field
//                                           producerEntries was serialized as null";
//                                           > bytes remaining -> "Tried to allocate ...")
//       10  46*n  entries:
//                   +0 producerId int64      +22 offsetDelta int32
//                   +8 epoch int16           +26 timestamp int64
//                  +10 lastSequence int32    +34 coordinatorEpoch int32
//                  +14 lastOffset int64      +38 currentTxnFirstOffset int64 (-1 = none)
//
// The file name's offset is the log offset up to which (exclusive) state was captured.
// On read, lastOffset < 0 means the producer has no batch metadata, and
// currentTxnFirstOffset < 0 means no ongoing transaction. Bytes after the declared
// entries are ignored by the reader but covered by the CRC.
//
// Kafka's reading order: version (a file under 2 bytes underflows), schema (any underflow
// is a BufferUnderflowException whose message is null), then the CRC. Every failure is a
// CorruptSnapshotException; ProducerStateManager.loadFromSnapshot logs it, DELETES the
// snapshot file and tries the next older one.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "kepoch/format/offset_index.hpp"  // IndexFinding, IndexCheckFailure

namespace kepoch {

struct ProducerSnapshotEntry {
  static constexpr std::size_t kSize = 46;

  std::int64_t producer_id = 0;
  std::int16_t epoch = 0;
  std::int32_t last_sequence = 0;
  std::int64_t last_offset = 0;
  std::int32_t offset_delta = 0;
  std::int64_t timestamp = 0;
  std::int32_t coordinator_epoch = 0;
  std::int64_t current_txn_first_offset = 0;
  std::uint64_t file_position = 0;

  bool has_batch_metadata() const { return last_offset >= 0; }
  bool has_ongoing_txn() const { return current_txn_first_offset >= 0; }
  // BatchMetadata.firstSeq (DumpLogSegments prints it): lastSeq - offsetDelta, wrapping
  // past Integer.MAX_VALUE as DefaultRecordBatch.decrementSequence does.
  std::int32_t first_sequence() const;
};

inline constexpr std::string_view kCorruptSnapshotException =
    "org.apache.kafka.storage.internals.log.CorruptSnapshotException";

struct ProducerSnapshot {
  static constexpr std::size_t kHeaderSize = 10;
  static constexpr std::size_t kCrcStart = 6;  // PRODUCER_ENTRIES_OFFSET

  std::uint64_t length = 0;
  std::optional<std::int16_t> version;
  std::optional<std::uint32_t> stored_crc;
  std::optional<std::uint32_t> computed_crc;  // over [6, EOF); set when length >= 6
  std::optional<std::int32_t> entry_count;
  std::vector<ProducerSnapshotEntry> entries;  // whole entries read (all, when valid)
  std::size_t trailing_bytes = 0;              // after the declared entries
  std::vector<IndexFinding> findings;
  // The CorruptSnapshotException readSnapshot throws; nullopt = Kafka loads the snapshot.
  std::optional<IndexCheckFailure> failure;

  bool valid() const { return !failure.has_value(); }
};

ProducerSnapshot parse_producer_snapshot(std::span<const std::uint8_t> bytes);

}  // namespace kepoch
