#pragma once
// Transaction index `<base offset>.txnindex` (TransactionIndex.java, AbortedTxn.java).
//
//   file    = entry*            no header, no checksum, no preallocation; big-endian
//   entry   = version          int16  (written as 0; see below)          offset  0
//             producerId       int64                                     offset  2
//             firstOffset      int64  (first offset of the aborted txn)  offset 10
//             lastOffset       int64  (offset of its ABORT marker)       offset 18
//             lastStableOffset int64  (LSO when the marker was written)  offset 26
//             = 34 bytes (AbortedTxn.TOTAL_SIZE)
//
// One entry per aborted transaction whose ABORT marker lies in this segment; firstOffset
// may lie in an earlier segment. TransactionIndex.append requires lastOffset to increase
// strictly. The LSO is the first offset of another producer's still-open transaction, or
// lastOffset + 1 when there is none (ProducerStateManager.lastStableOffset).
//
// Reading (TransactionIndex iterator): entries are read while at least 34 bytes remain, so
// a partial tail is ignored. The version is read as ONE signed byte at entry offset 0 (the
// high byte of the int16): the low byte is never looked at, and a byte > 0 throws
// KafkaException "Unexpected aborted transaction version ..." (a negative byte passes).
// TransactionIndex.sanityCheck, which LogLoader runs for every segment it loads, clean
// shutdown or not, throws CorruptIndexException for an entry whose lastOffset is below the
// segment base offset: the segment is recovered and its indexes rebuilt. The version
// KafkaException is not a CorruptIndexException, so it escapes LogLoader: LogManager fails
// ("Error starting LogManager") and the broker process exits. Both seen on Kafka 4.1.1.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/format/offset_index.hpp"  // IndexFinding, IndexCheckFailure

namespace kepoch {

struct AbortedTxnEntry {
  std::int8_t version = 0;         // AbortedTxn.version(): the first byte, signed
  std::int16_t version_field = 0;  // the whole int16 as written
  std::int64_t producer_id = 0;
  std::int64_t first_offset = 0;
  std::int64_t last_offset = 0;
  std::int64_t last_stable_offset = 0;
  std::uint64_t file_position = 0;

  // AbortedTxn.toString, as Kafka prints it in messages.
  std::string to_string() const;
};

struct TransactionIndex {
  static constexpr std::size_t kEntrySize = 34;

  std::int64_t start_offset = 0;  // the segment base offset
  std::uint64_t length = 0;
  std::vector<AbortedTxnEntry> entries;  // every whole entry
  std::size_t trailing_bytes = 0;        // length % 34, ignored by Kafka
  std::vector<IndexFinding> findings;

  // What iterating the index throws in Kafka: the first entry whose version byte is > 0.
  std::optional<IndexCheckFailure> read_failure(std::string_view path) const;
  // TransactionIndex.sanityCheck: iterates (so a version failure comes first, entry by
  // entry), then lastOffset < start offset -> CorruptIndexException.
  std::optional<IndexCheckFailure> sanity_check(std::string_view path) const;
};

inline constexpr std::string_view kKafkaException = "org.apache.kafka.common.KafkaException";

TransactionIndex parse_transaction_index(std::span<const std::uint8_t> bytes,
                                         std::int64_t start_offset);

}  // namespace kepoch
