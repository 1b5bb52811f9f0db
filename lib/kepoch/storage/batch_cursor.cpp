// Walking a replica's batches from an offset; see batch_cursor.hpp.
#include "kepoch/storage/batch_cursor.hpp"

#include "kepoch/base/error.hpp"
#include "kepoch/storage/consumer_view.hpp"
#include "kepoch/storage/segment_seek.hpp"

namespace kepoch {

BatchCursor::BatchCursor(const PartitionReplica& replica, std::int64_t from, std::int64_t until)
    : replica_(replica), from_(from), until_(until) {
  if (replica.stored)
    throw InputError(replica.dir.string(), "a replica read from a snapshot has no segments");
}

// The segments that matter: from the last one starting at or below `from` (an earlier one
// ends before it), up to the first starting at or past `until`.
bool BatchCursor::open_next_segment() {
  const auto& segments = replica_.segments;
  while (segment_ < segments.size()) {
    const std::size_t i = segment_++;
    const auto& s = segments[i];
    const bool later_starts_before =
        i + 1 < segments.size() && segments[i + 1].base_offset <= from_;
    if (later_starts_before) continue;
    if (s.base_offset >= until_) return false;
    reader_.emplace(s.file, /*load_batches=*/false);
    control_reader_.reset();
    open_ = &s;
    if (replica_.depth == LoadDepth::tail && from_ > s.base_offset)
      reader_->seek(seek_position(s.file, s.base_offset, from_));
    return true;
  }
  return false;
}

const BatchCursor::Batch* BatchCursor::next() {
  while (!done_) {
    if (!reader_ && !open_next_segment()) break;
    const auto* e = reader_->next();
    if (!e) {
      reader_.reset();
      continue;
    }
    const BatchHeader& h = e->header;
    if (h.next_offset() > replica_.log_end_offset) {  // cut by recovery
      reader_.reset();
      continue;
    }
    if (h.last_offset() < from_) continue;
    if (h.base_offset >= until_) break;
    batch_ = Batch{h.base_offset,   h.last_offset(),   h.is_v2() ? h.records_count : 1,
                   h.crc,           h.size_in_bytes(), h.is_transactional(),
                   h.is_control(),  h.producer_id,     h.producer_epoch,
                   h.max_timestamp, h.position};
    return &batch_;
  }
  done_ = true;
  reader_.reset();
  return nullptr;
}

std::optional<ControlRecordType> BatchCursor::control_marker() {
  if (!reader_ || !open_) return std::nullopt;
  if (!control_reader_) control_reader_.emplace(open_->file, /*load_batches=*/true);
  control_reader_->seek(batch_.position);
  const auto* loaded = control_reader_->next();
  if (!loaded || loaded->header.base_offset != batch_.base_offset) return std::nullopt;
  return control_marker_of(*loaded);
}

}  // namespace kepoch
