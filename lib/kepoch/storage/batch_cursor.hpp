#pragma once
// The batches of a partition replica's loaded log from an offset on, one at a time: what
// batches_from lists (partition_replica.hpp), without holding them, so a comparison of two
// replicas can walk both side by side in constant memory.
//
// A replica loaded to its tail (LoadDepth::tail) is read as Kafka reads a log from an offset:
// the segment holding the offset is entered at the offset index's entry for it
// (segment_seek.hpp), the batches before it are never read. A replica loaded whole is read
// from the start of that segment, as before.

#include <cstdint>
#include <optional>

#include "kepoch/format/control_record.hpp"
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

class BatchCursor {
 public:
  struct Batch {
    std::int64_t base_offset = 0;
    std::int64_t last_offset = 0;
    std::int32_t records = 0;  // 1 for a legacy entry
    std::uint32_t crc = 0;
    std::uint64_t size = 0;  // bytes, log overhead included
    // The transaction attributes (record_batch.hpp), for a pass that also decides what a
    // consumer reads (consumer_view.hpp) without a second walk.
    bool transactional = false;
    bool control = false;
    std::int64_t producer_id = -1;
    std::int16_t producer_epoch = -1;
    std::int64_t max_timestamp = -1;
    std::uint64_t position = 0;  // in its segment file
  };

  // The batches whose last offset is >= from and whose base offset is < until, in log order,
  // up to the log end offset (a batch past it was cut by recovery). Throws InputError for a
  // replica read from a snapshot (it has no segment files) and when a segment cannot be
  // opened.
  BatchCursor(const PartitionReplica& replica, std::int64_t from, std::int64_t until = INT64_MAX);

  // The next batch, or nullptr at the end. The batch is the cursor's own: valid until the
  // next call.
  const Batch* next();

  // The current batch's transaction marker (a control batch's first record key), read from
  // its bytes on their own (the walk reads headers only); nullopt when it cannot be read.
  std::optional<ControlRecordType> control_marker();

 private:
  bool open_next_segment();

  const PartitionReplica& replica_;
  std::int64_t from_;
  std::int64_t until_;
  std::size_t segment_ = 0;  // the next segment to open
  std::optional<LogSegmentReader> reader_;
  std::optional<LogSegmentReader> control_reader_;  // control_marker's, on the same segment
  const SegmentSummary* open_ = nullptr;            // the segment reader_ walks
  bool done_ = false;
  Batch batch_;
};

}  // namespace kepoch
