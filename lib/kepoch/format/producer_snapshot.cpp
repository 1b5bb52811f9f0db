// Producer snapshot parser; the layout and Kafka's rules are in producer_snapshot.hpp.
#include "kepoch/format/producer_snapshot.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <unordered_map>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/crc32c.hpp"

namespace kepoch {

std::int32_t ProducerSnapshotEntry::first_sequence() const {
  // DefaultRecordBatch.decrementSequence, in 64-bit to avoid signed overflow.
  const std::int64_t seq = last_sequence, dec = offset_delta;
  const std::int64_t v = seq < dec ? std::int64_t{INT32_MAX} - (dec - seq) + 1 : seq - dec;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
}

namespace {

// readSnapshot wraps every schema failure as "Snapshot failed schema validation: <msg>";
// a ByteBuffer underflow has a null message, printed as "null".
IndexCheckFailure schema_failure(std::uint64_t position, const std::string& java_message) {
  return IndexCheckFailure{std::string(kCorruptSnapshotException),
                           "Snapshot failed schema validation: " + java_message, position};
}

}  // namespace

ProducerSnapshot parse_producer_snapshot(std::span<const std::uint8_t> bytes) {
  ProducerSnapshot s;
  s.length = bytes.size();
  using Sev = IndexFinding::Severity;
  if (bytes.size() >= ProducerSnapshot::kCrcStart)
    s.computed_crc = crc32c(bytes.subspan(ProducerSnapshot::kCrcStart));

  ByteReader r(bytes);
  if (r.remaining() < 2) {
    s.failure = schema_failure(0, "null");
    s.findings.push_back(
        {Sev::error, 0, fmt::format("{} bytes: too short for the 2-byte version", bytes.size())});
    return s;
  }
  s.version = r.i16("version");
  if (*s.version != 1) {
    s.failure =
        schema_failure(0, fmt::format("Snapshot contained an unknown file version {}", *s.version));
    s.findings.push_back(
        {Sev::error, 0,
         fmt::format("version {} is not 1, the only version Kafka reads", *s.version)});
    return s;
  }
  if (r.remaining() < 4) {
    s.failure = schema_failure(r.position(), "null");
    s.findings.push_back({Sev::error, r.position(), "file ends inside the 4-byte crc"});
    return s;
  }
  s.stored_crc = r.u32("crc");
  if (r.remaining() < 4) {
    s.failure = schema_failure(r.position(), "null");
    s.findings.push_back({Sev::error, r.position(), "file ends inside the 4-byte entry count"});
    return s;
  }
  const std::uint64_t count_position = r.position();
  s.entry_count = r.i32("entry count");
  const std::int32_t count = *s.entry_count;
  if (count < 0) {
    s.failure =
        schema_failure(count_position, "non-nullable field producerEntries was serialized as null");
    s.findings.push_back(
        {Sev::error, count_position, fmt::format("entry count {} is negative", count)});
    return s;
  }
  if (static_cast<std::size_t>(count) > r.remaining()) {
    s.failure = schema_failure(
        count_position, fmt::format("Tried to allocate a collection of size {}, but there are "
                                    "only {} bytes remaining.",
                                    count, r.remaining()));
    s.findings.push_back(
        {Sev::error, count_position,
         fmt::format("entry count {} exceeds the {} bytes that follow", count, r.remaining())});
    return s;
  }
  s.entries.reserve(  // no more than the bytes that follow hold: a lying count fails below
      std::min(static_cast<std::size_t>(count), r.remaining() / ProducerSnapshotEntry::kSize));
  for (std::int32_t i = 0; i < count; ++i) {
    if (r.remaining() < ProducerSnapshotEntry::kSize) {
      // Kafka fails at the first field that does not fit; kepoch names the entry's start.
      s.failure = schema_failure(r.position(), "null");
      s.findings.push_back({Sev::error, r.position(),
                            fmt::format("entry {} of {} is cut off: {} bytes left of {}", i, count,
                                        r.remaining(), ProducerSnapshotEntry::kSize)});
      return s;
    }
    ProducerSnapshotEntry e;
    e.file_position = r.position();
    e.producer_id = r.i64("producerId");
    e.epoch = r.i16("epoch");
    e.last_sequence = r.i32("lastSequence");
    e.last_offset = r.i64("lastOffset");
    e.offset_delta = r.i32("offsetDelta");
    e.timestamp = r.i64("timestamp");
    e.coordinator_epoch = r.i32("coordinatorEpoch");
    e.current_txn_first_offset = r.i64("currentTxnFirstOffset");
    s.entries.push_back(e);
  }
  s.trailing_bytes = r.remaining();

  if (*s.stored_crc != *s.computed_crc) {
    s.failure = IndexCheckFailure{
        std::string(kCorruptSnapshotException),
        fmt::format("Snapshot is corrupt (CRC is no longer valid). Stored crc: {}. Computed "
                    "crc: {}",
                    *s.stored_crc, *s.computed_crc),
        2};
    s.findings.push_back({Sev::error, 2,
                          fmt::format("stored CRC-32C 0x{:08x} does not match 0x{:08x} computed "
                                      "over bytes [6, {})",
                                      *s.stored_crc, *s.computed_crc, bytes.size())});
  }
  if (s.trailing_bytes != 0)
    s.findings.push_back(
        {Sev::warning, bytes.size() - s.trailing_bytes,
         fmt::format("{} bytes after the {} declared entries: covered by the CRC but ignored "
                     "by Kafka's reader",
                     s.trailing_bytes, count)});

  std::unordered_map<std::int64_t, std::size_t> seen;
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    const auto& e = s.entries[i];
    if (auto [it, fresh] = seen.emplace(e.producer_id, i); !fresh)
      s.findings.push_back(
          {Sev::warning, e.file_position,
           fmt::format("entry {}: producer id {} already appears in entry {}; Kafka keeps the "
                       "later one",
                       i, e.producer_id, it->second)});
  }
  return s;
}

}  // namespace kepoch
