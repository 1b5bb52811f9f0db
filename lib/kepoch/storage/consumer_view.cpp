#include "kepoch/storage/consumer_view.hpp"

#include <map>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/record.hpp"
#include "kepoch/storage/segment_seek.hpp"

namespace kepoch {

std::vector<RecordKind> consumer_kinds(const std::vector<TransactionBatch>& batches) {
  std::vector<RecordKind> kinds(batches.size(), RecordKind::data);
  std::map<std::int64_t, std::vector<std::size_t>> open;  // producer id -> its open batches
  for (std::size_t i = 0; i < batches.size(); ++i) {
    const TransactionBatch& b = batches[i];
    if (b.control) {
      kinds[i] = RecordKind::control;
      // EndTransactionMarker: ABORT aborts the producer's open batches, COMMIT commits them.
      // A marker that could not be read leaves them as data (it may have been a COMMIT).
      const auto it = open.find(b.producer_id);
      if (it == open.end()) continue;
      if (b.marker == ControlRecordType::abort)
        for (std::size_t j : it->second)
          kinds[j] = RecordKind::aborted;
      open.erase(it);
    } else if (b.transactional) {
      open[b.producer_id].push_back(i);
    }
  }
  return kinds;  // what stays open is data: the transaction may still commit
}

std::optional<ControlRecordType> control_marker_of(const LogSegmentReader::Entry& e) {
  // Kafka writes control batches uncompressed (MemoryRecords.withEndTransactionMarker).
  if (!e.loaded || e.header.codec() != 0 || e.bytes.size() < kBatchHeaderSize) return std::nullopt;
  std::optional<ControlRecordType> type;
  try {
    for_each_record(e.header, e.bytes.subspan(kBatchHeaderSize),
                    e.header.position + kBatchHeaderSize, [&](const Record& r) {
                      if (!type) type = parse_control_key(r.key, e.header.position).type;
                    });
  } catch (const FormatError&) {
    return type;
  }
  return type;
}

std::uint64_t tail_start_position(const PartitionReplica& replica, const SegmentSummary& segment,
                                  std::int64_t from) {
  if (segment.base_offset < from && (replica.depth == LoadDepth::tail || !replica.recovery_stop))
    return seek_position(segment.file, segment.base_offset, from);
  return 0;
}

std::optional<std::vector<TransactionBatch>> transaction_batches_from(
    const PartitionReplica& replica, std::int64_t from) {
  if (replica.stored) {
    const auto& kept = replica.stored->transactions;
    if (!kept) return std::nullopt;
    // The stored list starts at the first batch of the kept tail: complete from `from` on
    // only when the batch holding `from` ends at or above it.
    if (from < kept->from) return std::nullopt;
    std::vector<TransactionBatch> out;
    for (const auto& b : kept->batches)
      if (b.last_offset >= from) out.push_back(b);
    return out;
  }
  std::vector<TransactionBatch> out;
  // The segments walked as batches_from walks them: from the last one starting at or below
  // `from`, up to the loaded log's end.
  for (std::size_t i = 0; i < replica.segments.size(); ++i) {
    const auto& s = replica.segments[i];
    if (i + 1 < replica.segments.size() && replica.segments[i + 1].base_offset <= from) continue;
    // Headers only, entered at the offset index's entry for `from` (segment_seek.hpp) unless
    // recovery cut the log (then read as the loader did, from the segment's start); a
    // control batch's bytes (its marker) are read on their own.
    LogSegmentReader reader(s.file, /*load_batches=*/false);
    reader.seek(tail_start_position(replica, s, from));
    std::optional<LogSegmentReader> control_reader;
    while (const auto* e = reader.next()) {
      const BatchHeader& h = e->header;
      if (h.next_offset() > replica.log_end_offset) return out;  // cut by recovery
      if (h.last_offset() < from) continue;
      TransactionBatch b;
      b.base_offset = h.base_offset;
      b.last_offset = h.last_offset();
      b.records = h.is_v2() ? h.records_count : 1;
      b.transactional = h.is_transactional();
      b.control = h.is_control();
      b.producer_id = h.producer_id;
      b.producer_epoch = h.producer_epoch;
      b.max_timestamp = h.max_timestamp;
      if (b.control) {
        if (!control_reader) control_reader.emplace(s.file, /*load_batches=*/true);
        control_reader->seek(h.position);
        const auto* loaded = control_reader->next();
        if (loaded && loaded->header.base_offset == h.base_offset)
          b.marker = control_marker_of(*loaded);
      }
      out.push_back(b);
    }
  }
  return out;
}

}  // namespace kepoch
