#pragma once
// The record data of one partition in a Fetch answer, read batch by batch as the consumer
// reads it (ByteBufferLogInputStream.nextBatch), headers only: nothing is decompressed.
// Layout: a run of log entries, each
//    0 baseOffset int64   8 batchLength int32 (bytes after this field)   16 magic int8
// then the rest of the batch (format/record_batch.hpp has the whole v2 header). A leader
// cuts its answer at the size limit wherever that falls, so the last entry may be short:
// reading stops there, and the next Fetch starts from that entry's base offset.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kepoch/format/record_batch.hpp"

namespace kepoch::cluster {

struct FetchedBatches {
  // Why reading stopped where it did.
  enum class Stop {
    kEnd,      // every byte read
    kPartial,  // the last entry is cut short (normal in a Fetch answer)
    kLegacy,   // a v0/v1 message set entry (magic 0 or 1): not a v2 batch
    kCorrupt,  // a size below the minimum or a CRC that does not match
  };

  std::vector<BatchHeader> batches;  // whole, valid v2 batches in order; position: byte offset
  Stop stop = Stop::kEnd;
  // The base offset of the entry reading stopped at; -1 at the end, or when fewer than 8
  // bytes of it came.
  std::int64_t stop_offset = -1;
  std::int8_t stop_magic = -1;  // kLegacy: the entry's magic
  std::string damage;           // kCorrupt: Kafka's CorruptRecordException message
};

// Never throws: whatever the bytes, the batches before the first bad entry are returned.
FetchedBatches read_fetched_batches(std::span<const std::uint8_t> records);

}  // namespace kepoch::cluster
