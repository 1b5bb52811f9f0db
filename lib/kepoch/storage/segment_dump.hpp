#pragma once
// Walking one .log segment for `segment dump`: every entry's header, its CRC checked as
// Kafka's ensureValid does, and optionally its records: v2 records (DefaultRecord), the
// records of control batches decoded into their types (ControlRecordType), legacy v0/v1
// messages and the inner messages of legacy wrappers (DeepRecordsIterator). Batches are handed to a
// visitor one at a time, so memory stays bounded by the largest batch.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kepoch/base/time_text.hpp"
#include "kepoch/format/control_record.hpp"
#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/format/record.hpp"
#include "kepoch/storage/log_segment_reader.hpp"

namespace kepoch {

// A compressed batch may not inflate beyond this (bounded memory whatever the input).
inline constexpr std::size_t kMaxDecompressedBatchBytes = 256u << 20;

struct SegmentDumpOptions {
  bool records = false;  // iterate records (decompressing)
  // With records: leave them to walk_records during the visit instead of collecting them,
  // so a batch of millions of records costs its bytes, not a Record (~128 bytes) each.
  bool walk_records = false;
  std::optional<std::uint64_t> max_batches;  // stop after this many batches
  std::optional<std::int64_t> from_offset;   // skip batches that end before this offset
  // Start the walk at this byte position instead of the file's start: an entry's position,
  // such as seek_position's answer (segment_seek.hpp) for from_offset.
  std::uint64_t start_position = 0;
  // Only batches whose max_timestamp is in this range: as Kafka's time index and
  // LogSegment.findOffsetByTimestamp judge a batch, by its largest timestamp. A batch without
  // one (NO_TIMESTAMP: legacy magic 0) is in no range.
  TimeRange time;
  // With records: each data record decoded as a record of this coordinator log
  // (format/coordinator_record.hpp), as DumpLogSegments' --offsets-decoder and
  // --transaction-log-decoder decode them.
  std::optional<CoordinatorLog> coordinator;
  // With coordinator: each record only checked (DumpedCoordinator::checked), not decoded into
  // a tree, for a caller that writes it from its bytes (segment dump's reports).
  bool coordinator_checked = false;
  // Read the file on a second thread while the batches are visited
  // (LogSegmentReader::read_ahead): for a caller that dumps one file at a time.
  bool read_ahead = false;
  // The CRCs a previous walk of the same file with the same selection computed, in walk
  // order (DumpedBatch::computed_crc). A loaded batch whose stored CRC equals its entry is
  // taken as checked without computing it again: the entry equals the stored CRC only when
  // that walk found it valid, and a batch rewritten between the walks (another stored CRC)
  // is computed as usual.
  std::span<const std::uint32_t> known_crcs;
};

// A control batch's record decoded (format/control_record.hpp): its key when readable, and
// Kafka's message when the key or value is not.
struct DumpedControl {
  std::optional<ControlRecord> control;
  std::optional<std::string> error;
};

// A data record of a coordinator log decoded: the record (or with
// SegmentDumpOptions::coordinator_checked, the record checked and kept as its bytes), or what
// failed and where.
struct DumpedCoordinator {
  std::optional<CoordinatorRecord> record;
  std::optional<CheckedCoordinatorRecord> checked;
  std::optional<std::string> error;  // "record at offset N: at byte P: what"
};

// At most this many failed coordinator records are kept per batch (the rest are counted).
inline constexpr std::size_t kMaxKeptCoordinatorErrors = 10;

struct DumpedBatch {
  BatchHeader header;
  std::optional<bool> crc_valid;  // nullopt when the batch was too large to load
  std::uint32_t computed_crc = 0;
  std::optional<std::string> invalid;      // Kafka's ensureValid message
  std::vector<Record> records;             // with options.records; spans valid during the visit
  std::vector<DumpedControl> controls;     // control batches: one per record, in order
                                           // (walk_records: only those that failed)
  std::vector<std::uint8_t> decompressed;  // the records section of a compressed batch
  std::optional<std::string> records_error;
  std::vector<std::string> records_notes;       // what Kafka reads past (legacy wrappers)
  std::optional<CoordinatorLog> coordinator;    // options.coordinator
  bool coordinator_checked = false;             // options.coordinator_checked
  std::vector<std::string> coordinator_errors;  // the first kMaxKeptCoordinatorErrors failures
  std::uint64_t coordinator_error_count = 0;    // all of them
  // options.walk_records: the entry's bytes (valid during the visit), not yet walked.
  std::optional<std::span<const std::uint8_t>> unwalked;
};

// With options.walk_records, during the visit: each record of the batch in order, with its
// decoded control for a control batch (nullptr otherwise), and with options.coordinator its
// decoded coordinator record for a data record (nullptr otherwise); then records_error,
// records_notes and the coordinator errors are set as collecting them would have. Once per
// batch.
using RecordVisit =
    std::function<void(const Record&, const DumpedControl*, const DumpedCoordinator*)>;
void walk_records(DumpedBatch& batch, const RecordVisit& visit);

struct SegmentDumpSummary {
  LogEnd end;
  std::uint64_t batches = 0;
  bool stopped_early = false;  // max_batches reached
};

// Throws InputError when the file cannot be opened.
SegmentDumpSummary dump_segment(const std::filesystem::path& path,
                                const SegmentDumpOptions& options,
                                const std::function<void(DumpedBatch&)>& visit);

}  // namespace kepoch
