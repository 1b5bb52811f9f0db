#include "kepoch/storage/segment_dump.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/compression.hpp"
#include "kepoch/format/legacy_record.hpp"

namespace kepoch {
namespace {

// The file position of bytes inside the records section, for errors: exact when the section
// is the file's own bytes, the batch's position when it was decompressed.
std::uint64_t position_in(const DumpedBatch& out, std::span<const std::uint8_t> section,
                          const std::optional<std::span<const std::uint8_t>>& bytes) {
  const std::uint64_t start = out.header.position + kBatchHeaderSize;
  if (!out.decompressed.empty() || !bytes || bytes->empty()) return out.header.position;
  return start + static_cast<std::uint64_t>(bytes->data() - section.data());
}

DumpedControl decode_control(const DumpedBatch& out, std::span<const std::uint8_t> section,
                             const Record& r) {
  DumpedControl c;
  try {
    c.control = parse_control_key(r.key, position_in(out, section, r.key));
    parse_control_value(*c.control, r.value, position_in(out, section, r.value));
  } catch (const FormatError& e) {
    c.error = fmt::format("record at offset {}: at byte {}: {}", r.offset, e.position(), e.what());
  }
  return c;
}

// `section`: the v2 records section the record is in; empty for a legacy message, whose
// errors name the entry's position (its bytes may be an inflated wrapper's).
void coordinator_failed(DumpedBatch& out, DumpedCoordinator& c, std::int64_t offset,
                        const FormatError& e) {
  c.error = fmt::format("record at offset {}: at byte {}: {}", offset, e.position(), e.what());
  if (out.coordinator_errors.size() < kMaxKeptCoordinatorErrors)
    out.coordinator_errors.push_back(*c.error);
  ++out.coordinator_error_count;
}

// Made in `c`, which the walk keeps from record to record: a record made and freed per
// record was a few percent of a dump's decode.
void decode_coordinator(DumpedBatch& out, std::span<const std::uint8_t> section, const Record& r,
                        DumpedCoordinator& c) {
  c.record.reset();
  c.error.reset();
  c.deferred = false;
  c.offset = 0;
  const bool legacy = section.empty();
  try {
    const std::uint64_t key_at = legacy ? out.header.position : position_in(out, section, r.key);
    const std::uint64_t value_at =
        legacy ? out.header.position : position_in(out, section, r.value);
    if (out.coordinator_deferred &&
        peek_coordinator_record(*out.coordinator, r.key, r.value, key_at, value_at, c.checked)) {
      c.deferred = true;
      c.offset = r.offset;
      return;
    }
    c.checked.reset();
    if (out.coordinator_checked || out.coordinator_deferred)
      c.checked = check_coordinator_record(*out.coordinator, r.key, r.value, key_at, value_at);
    else
      c.record = decode_coordinator_record(*out.coordinator, r.key, r.value, key_at, value_at);
  } catch (const FormatError& e) {
    coordinator_failed(out, c, r.offset, e);
  }
}

void read_legacy_records(DumpedBatch& out, std::span<const std::uint8_t> entry,
                         const RecordVisit& visit) {
  try {
    DumpedCoordinator c;
    out.records_notes =
        for_each_legacy_record(entry, out.header.position, kMaxDecompressedBatchBytes,
                               out.decompressed, [&](const Record& r) {
                                 if (!out.coordinator) return visit(r, nullptr, nullptr);
                                 decode_coordinator(out, {}, r, c);
                                 visit(r, nullptr, &c);
                               });
  } catch (const FormatError& e) {
    out.records_error = fmt::format("at byte {}: {}", e.position(), e.what());
  }
}

// Which decoded controls read_records keeps in DumpedBatch::controls.
enum class KeepControls { all, failed };

// Every record of the entry to `visit`, with its control decoded in a control batch.
void read_records(DumpedBatch& out, std::span<const std::uint8_t> entry, KeepControls keep,
                  const RecordVisit& visit) {
  const BatchHeader& h = out.header;
  if (!h.is_v2()) return read_legacy_records(out, entry, visit);
  const auto codec = compression_from_attributes(h.codec());
  if (!codec) {
    out.records_error = fmt::format("Unknown compression type id: {}", h.codec());
    return;
  }
  if (entry.size() < kBatchHeaderSize) {  // a batch size below the header's own (fuzzing found it)
    out.records_error =
        fmt::format("at byte {}: the batch holds {} bytes, less than its {}-byte header",
                    h.position, entry.size(), kBatchHeaderSize);
    return;
  }
  std::span<const std::uint8_t> section = entry.subspan(kBatchHeaderSize);
  try {
    if (*codec != CompressionType::none) {
      decompress_into(*codec, section, h.position + kBatchHeaderSize, kMaxDecompressedBatchBytes,
                      out.decompressed);
      section = out.decompressed;
    }
    RecordReader reader(h, section, h.position + kBatchHeaderSize);
    Record r;
    // Which decode a record gets is the batch's (control) and the segment's (coordinator)
    // to decide, once: the loop of a plain data batch, the usual one, only reads and visits.
    if (h.is_control()) {
      while (reader.next(r)) {
        const DumpedControl control = decode_control(out, section, r);
        if (keep == KeepControls::all || control.error) out.controls.push_back(control);
        visit(r, &control, nullptr);
      }
    } else if (out.coordinator) {
      DumpedCoordinator c;
      while (reader.next(r)) {
        decode_coordinator(out, section, r, c);
        visit(r, nullptr, &c);
      }
    } else {
      while (reader.next(r))
        visit(r, nullptr, nullptr);
    }
  } catch (const FormatError& e) {
    out.records_error = fmt::format("at byte {}: {}", e.position(), e.what());
  }
}

// Empties a batch for the next entry, keeping its vectors' capacity.
void reset(DumpedBatch& b) {
  b.crc_valid.reset();
  b.computed_crc = 0;
  b.invalid.reset();
  b.records.clear();
  b.controls.clear();
  b.decompressed.clear();
  b.records_error.reset();
  b.records_notes.clear();
  b.coordinator_errors.clear();
  b.coordinator_error_count = 0;
  b.unwalked.reset();
}

}  // namespace

DumpedCoordinator check_deferred_coordinator(DumpedBatch& batch,
                                             const DumpedCoordinator& deferred) {
  DumpedCoordinator c;
  if (!deferred.deferred || !deferred.checked) return deferred;
  const CheckedCoordinatorRecord& r = *deferred.checked;
  try {
    c.checked = check_coordinator_record(r.log, r.key, r.value, r.key_position, r.value_position);
  } catch (const FormatError& e) {
    coordinator_failed(batch, c, deferred.offset, e);
  }
  return c;
}

void walk_records(DumpedBatch& batch, const RecordVisit& visit) {
  if (!batch.unwalked) return;
  const auto entry = *batch.unwalked;
  batch.unwalked.reset();
  read_records(batch, entry, KeepControls::failed, visit);
}

SegmentDumpSummary dump_segment(const std::filesystem::path& path,
                                const SegmentDumpOptions& options,
                                const std::function<void(DumpedBatch&)>& visit) {
  LogSegmentReader reader(path, /*load_batches=*/true);
  if (options.read_ahead) reader.read_ahead();
  if (options.start_position > 0) reader.seek(options.start_position);
  SegmentDumpSummary summary;
  DumpedBatch batch;  // one for every visit: its buffers keep their capacity
  while (auto entry = reader.next()) {
    if (options.end_position && entry->header.position >= *options.end_position) {
      summary.stopped_at = entry->header.position;
      return summary;  // `end` stays unset: the walk did not end, it was stopped
    }
    if (options.from_offset && entry->header.last_offset() < *options.from_offset) continue;
    if (!options.time.contains(entry->header.max_timestamp)) continue;
    if (options.max_batches && summary.batches >= *options.max_batches) {
      summary.stopped_early = true;
      break;
    }
    reset(batch);
    batch.header = entry->header;
    batch.coordinator = options.coordinator;
    batch.coordinator_checked = options.coordinator_checked;
    batch.coordinator_deferred = options.coordinator_deferred;
    if (entry->loaded) {
      const std::uint64_t i = summary.batches;
      batch.computed_crc =
          i < options.known_crcs.size() && options.known_crcs[i] == batch.header.crc
              ? batch.header.crc
              : compute_batch_crc(batch.header, entry->bytes);
      batch.invalid = validate_batch(batch.header, batch.computed_crc);
      batch.crc_valid = batch.computed_crc == batch.header.crc;
      if (options.records && options.walk_records) {
        batch.unwalked = entry->bytes;
      } else if (options.records) {
        read_records(batch, entry->bytes, KeepControls::all,
                     [&batch](const Record& r, const DumpedControl*, const DumpedCoordinator*) {
                       batch.records.push_back(r);
                     });
      }
    }
    ++summary.batches;
    visit(batch);
  }
  summary.end = reader.end();
  return summary;
}

static_assert(sizeof(KeptBatches::Packed) == 64, "a kept batch is 64 bytes");

namespace {
constexpr std::uint8_t kLoaded = 1;
constexpr std::uint8_t kCrcValid = 2;
constexpr std::uint64_t kPositionBits = 48;
constexpr std::uint64_t kPositionMask = (std::uint64_t{1} << kPositionBits) - 1;
}  // namespace

bool KeptBatches::keep(const DumpedBatch& b) {
  if (refused_) return false;
  const BatchHeader& h = b.header;
  std::int64_t delta = 0;
  const bool invalid = b.crc_valid && !*b.crc_valid;
  const std::size_t more = sizeof(Packed) + (invalid ? sizeof(InvalidCrc) : 0);
  // Only a header's facts are kept: a batch whose records were read is not replayable.
  if (b.unwalked || !b.records.empty() || !b.controls.empty() || b.records_error ||
      b.coordinator_error_count || bytes() + more > max_bytes_ || h.position > kPositionMask ||
      __builtin_sub_overflow(h.base_timestamp, h.max_timestamp, &delta) ||
      delta < std::numeric_limits<std::int32_t>::min() ||
      delta > std::numeric_limits<std::int32_t>::max() ||
      // What restore() derives must be what the walk found (a loaded batch's verdict).
      (b.crc_valid && (*b.crc_valid != (b.computed_crc == h.crc))) ||
      (!b.crc_valid && (b.computed_crc != 0 || b.invalid))) {
    refused_ = true;
    return false;
  }
  if (size_ == chunks_.size() * kPerChunk)
    chunks_.emplace_back(new Packed[kPerChunk]);  // left unset: each is written when kept
  Packed& p = chunks_.back()[size_ % kPerChunk];
  p = Packed{};
  p.position_epoch =
      h.position | (std::uint64_t{static_cast<std::uint16_t>(h.producer_epoch)} << kPositionBits);
  p.base_offset = h.base_offset;
  p.max_timestamp = h.max_timestamp;
  p.producer_id = h.producer_id;
  p.base_timestamp_delta = static_cast<std::int32_t>(delta);
  p.size_field = h.size_field;
  p.partition_leader_epoch = h.partition_leader_epoch;
  p.crc = h.crc;
  p.last_offset_delta = h.last_offset_delta;
  p.base_sequence = h.base_sequence;
  p.records_count = h.records_count;
  p.magic = h.magic;
  p.flags = static_cast<std::uint8_t>((b.crc_valid ? kLoaded : 0) |
                                      (b.crc_valid && *b.crc_valid ? kCrcValid : 0));
  p.attributes = h.attributes;
  if (invalid) invalid_.push_back({size_, b.computed_crc});
  ++size_;
  return true;
}

void KeptBatches::restore(std::size_t i, DumpedBatch& out) const {
  const Packed& p = at(i);
  BatchHeader& h = out.header;
  h.position = p.position_epoch & kPositionMask;
  h.producer_epoch = static_cast<std::int16_t>(p.position_epoch >> kPositionBits);
  h.base_offset = p.base_offset;
  h.max_timestamp = p.max_timestamp;
  h.base_timestamp = p.max_timestamp + p.base_timestamp_delta;  // in range: keep() checked
  h.producer_id = p.producer_id;
  h.size_field = p.size_field;
  h.partition_leader_epoch = p.partition_leader_epoch;
  h.crc = p.crc;
  h.last_offset_delta = p.last_offset_delta;
  h.base_sequence = p.base_sequence;
  h.records_count = p.records_count;
  h.magic = p.magic;
  h.attributes = p.attributes;
  out.crc_valid.reset();
  out.computed_crc = 0;
  out.invalid.reset();
  if (p.flags & kLoaded) {
    out.crc_valid = (p.flags & kCrcValid) != 0;
    out.computed_crc = h.crc;
    if (!*out.crc_valid) {
      const auto it =
          std::lower_bound(invalid_.begin(), invalid_.end(), i,
                           [](const InvalidCrc& c, std::size_t index) { return c.index < index; });
      out.computed_crc = it->computed_crc;  // kept with it (keep())
    }
    out.invalid = validate_batch(h, out.computed_crc);
  }
}

std::uint64_t KeptBatches::next_position() const {
  if (size_ == 0) return 0;
  const Packed& p = at(size_ - 1);
  return (p.position_epoch & kPositionMask) + kLogOverhead +
         static_cast<std::uint32_t>(p.size_field);
}

SegmentDumpSummary replay_segment(const std::filesystem::path& path,
                                  const SegmentDumpOptions& options, const KeptBatches& kept,
                                  const SegmentDumpSummary& first,
                                  const std::function<void(DumpedBatch&)>& visit) {
  DumpedBatch batch;
  batch.coordinator = options.coordinator;
  batch.coordinator_checked = options.coordinator_checked;
  batch.coordinator_deferred = options.coordinator_deferred;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    kept.restore(i, batch);
    visit(batch);
  }
  if (kept.complete()) return first;
  // The rest read as the first walk read it: from just past the last kept batch, the same
  // filters, what is left of --max-batches, the CRCs the first walk computed for them
  // (options.known_crcs: those of the batches after the kept ones).
  SegmentDumpOptions rest = options;
  if (kept.size() > 0) rest.start_position = kept.next_position();
  if (rest.max_batches) rest.max_batches = *rest.max_batches - kept.size();
  SegmentDumpSummary summary = dump_segment(path, rest, visit);
  summary.batches += kept.size();
  return summary;
}

}  // namespace kepoch
