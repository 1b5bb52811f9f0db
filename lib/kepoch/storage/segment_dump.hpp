#pragma once
// Walking one .log segment for `segment dump`: every entry's header, its CRC checked as
// Kafka's ensureValid does, and optionally its records: v2 records (DefaultRecord), the
// records of control batches decoded into their types (ControlRecordType), legacy v0/v1
// messages and the inner messages of legacy wrappers (DeepRecordsIterator). Batches are handed to a
// visitor one at a time, so memory stays bounded by the largest batch.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
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
  // Stop before the first entry that starts at or past this byte position (not visited,
  // whatever the filters): a walk of the file's first part, another walk taking the rest
  // from there. SegmentDumpSummary::stopped_at says where it stopped.
  std::optional<std::uint64_t> end_position;
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
  // With coordinator: each record only peeked (its type and value version read:
  // DumpedCoordinator::deferred), its fields left for a writer that checks them as it writes
  // them (segment dump's reports: each record's bytes read once), and that calls
  // check_deferred_coordinator when they do not write. A record that does not peek is
  // checked here, as with coordinator_checked.
  bool coordinator_deferred = false;
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
  // SegmentDumpOptions::coordinator_deferred: `checked` only peeked
  // (peek_coordinator_record), its fields not yet read; the record's offset, for the error.
  bool deferred = false;
  std::int64_t offset = 0;
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
  bool coordinator_deferred = false;            // options.coordinator_deferred
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

// The check a deferred record (DumpedCoordinator::deferred) was left without: what
// coordinator_checked makes of it (the record checked, with its notes, or its error), the
// error counted in `batch` as the walk counts one. For the writer of a batch being walked,
// during the record's visit (so that the batch's errors stay in record order). A record not
// deferred is returned as it is.
DumpedCoordinator check_deferred_coordinator(DumpedBatch& batch, const DumpedCoordinator& deferred);

struct SegmentDumpSummary {
  LogEnd end;
  std::uint64_t batches = 0;
  bool stopped_early = false;  // max_batches reached
  // options.end_position: the position of the entry the walk stopped before (at or past
  // end_position); nullopt when the file's walk ended first.
  std::optional<std::uint64_t> stopped_at;
};

// The batches a headers-only walk (SegmentDumpOptions::records unset) visited, kept
// compactly by that walk so that a second walk of the same file with the same options is
// replayed from memory instead of reading the file again (`segment dump` checks every batch
// for the verdict that opens its report, then prints the rows). Each batch costs 64 bytes
// (its header, its CRC verdict; an invalid batch's computed CRC 16 more) up to a byte budget:
// beyond it, or at a batch whose fields do not fit the compact form (a position past 2^48,
// timestamps more than 2^31 ms apart), keeping stops and the replay reads the rest of the
// file from there, so memory stays bounded whatever the file's size (the budget rounded up
// to the 2 MiB chunks it is kept in).
class KeptBatches {
 public:
  // 512 Ki batches (half a GiB of 1 KiB batches): with the reader's own ~20 MiB a dump stays
  // under the 64 MiB of resident memory bench/run holds every kepoch run to.
  static constexpr std::size_t kDefaultMaxBytes = 32u << 20;
  explicit KeptBatches(std::size_t max_bytes = kDefaultMaxBytes) : max_bytes_(max_bytes) {}

  // Keeps the next visited batch; once one is refused (budget, form) none is kept after it.
  // Returns whether it was kept.
  bool keep(const DumpedBatch& batch);
  std::size_t size() const { return size_; }
  // Every batch offered was kept (the replay needs no read).
  bool complete() const { return !refused_; }
  std::size_t bytes() const {
    return size_ * sizeof(Packed) + invalid_.size() * sizeof(InvalidCrc);
  }
  // Batch i as the walk visited it: header, crc_valid, computed_crc, invalid; the rest empty.
  void restore(std::size_t i, DumpedBatch& out) const;
  // The file position just past the last kept batch (0 when none is kept).
  std::uint64_t next_position() const;

  struct Packed {
    std::uint64_t position_epoch;  // position (low 48 bits), producer_epoch (high 16)
    std::int64_t base_offset;
    std::int64_t max_timestamp;
    std::int64_t producer_id;
    std::int32_t base_timestamp_delta;  // base_timestamp - max_timestamp
    std::int32_t size_field;
    std::int32_t partition_leader_epoch;
    std::uint32_t crc;
    std::int32_t last_offset_delta;
    std::int32_t base_sequence;
    std::int32_t records_count;
    std::int8_t magic;
    std::uint8_t flags;  // kLoaded, kCrcValid
    std::int16_t attributes;
  };

 private:
  struct InvalidCrc {
    std::uint64_t index;
    std::uint32_t computed_crc;
  };
  // The batches in chunks of 2 MiB, never moved or copied as they grow (a vector grown by
  // doubling copies up to 32 MiB and faults its pages in twice). Asking for huge pages
  // (madvise) saved the page faults but not the time on the VM measured: the kernel zeroes
  // the same bytes either way.
  static constexpr std::size_t kChunkBytes = 2u << 20;
  static constexpr std::size_t kPerChunk = kChunkBytes / sizeof(Packed);
  const Packed& at(std::size_t i) const { return chunks_[i / kPerChunk][i % kPerChunk]; }
  std::size_t max_bytes_;
  bool refused_ = false;
  std::size_t size_ = 0;
  std::vector<std::unique_ptr<Packed[]>> chunks_;
  std::vector<InvalidCrc> invalid_;  // in index order
};

// What dump_segment(path, options, visit) would visit and return, for a file a walk with the
// same options (headers only) already visited, keeping `kept` and returning `first`: the kept
// batches from memory, and the rest (when `kept` is not complete) read from the file after
// the last kept one, options.known_crcs then being the CRCs of the batches after the kept
// ones (in walk order).
SegmentDumpSummary replay_segment(const std::filesystem::path& path,
                                  const SegmentDumpOptions& options, const KeptBatches& kept,
                                  const SegmentDumpSummary& first,
                                  const std::function<void(DumpedBatch&)>& visit);

// Throws InputError when the file cannot be opened.
SegmentDumpSummary dump_segment(const std::filesystem::path& path,
                                const SegmentDumpOptions& options,
                                const std::function<void(DumpedBatch&)>& visit);

}  // namespace kepoch
