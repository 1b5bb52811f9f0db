#pragma once
// Records inside a v2 batch (DefaultRecord), after decompression:
//
//   length varint            bytes after this field
//   attributes int8          unused
//   timestampDelta varlong   timestamp = baseTimestamp + delta (LogAppendTime: maxTimestamp)
//   offsetDelta varint       offset = baseOffset + delta
//   keyLength varint, key    negative: null
//   valueLength varint, value
//   headersCount varint      then per header: keyLength varint (>= 0), key (UTF-8),
//                            valueLength varint (negative: null), value
//
// DefaultRecord.readFrom checks: the record's bytes are all there; it consumes exactly
// `length` bytes; DefaultRecordBatch: exactly recordsCount records, nothing left over.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/record_batch.hpp"

namespace kepoch {

struct RecordHeader {
  std::string_view key;
  std::optional<std::span<const std::uint8_t>> value;
};

struct Record {
  std::int64_t offset = 0;
  std::int64_t timestamp = -1;
  std::int32_t sequence = -1;
  std::int32_t size_in_bytes = 0;  // the length varint's value plus its own size
  std::optional<std::span<const std::uint8_t>> key;
  std::optional<std::span<const std::uint8_t>> value;
  std::vector<RecordHeader> headers;
  // Legacy (v0/v1) messages only (LegacyRecord): the magic, the message's own CRC-32 with
  // the one computed, and the timestamp type (v0: none; inner messages: the wrapper's).
  std::int8_t magic = 2;
  std::uint32_t crc = 0;
  std::uint32_t computed_crc = 0;
  std::string_view timestamp_type;  // legacy: "no-timestamp", "create-time", "log-append-time"
};

// The records of a v2 batch read one at a time from its (decompressed) records section:
// for_each_record without a call through std::function per record, and one Record (its
// header list's room kept) filled again for each. `position` is the file position of
// section[0] for errors (for compressed data: the batch's position). Throws FormatError with
// Kafka's message on invalid records, and already on construction for a negative count.
class RecordReader {
 public:
  RecordReader(const BatchHeader& batch, std::span<const std::uint8_t> section,
               std::uint64_t position);
  // Reads the next record into `record`; its spans point into the section. After the last
  // record: false, once the section is checked to hold nothing more.
  bool next(Record& record);

 private:
  const BatchHeader& batch_;
  ByteReader in_;
  std::int32_t read_ = 0;
};

// Parses the records of a v2 batch from its (decompressed) records section. `position` is
// the file position of section[0] for errors (for compressed data: the batch's position).
// Calls `visit` for each record; the spans point into `section`. Throws FormatError with
// Kafka's message on invalid records.
void for_each_record(const BatchHeader& batch, std::span<const std::uint8_t> section,
                     std::uint64_t position, const std::function<void(const Record&)>& visit);

}  // namespace kepoch
