// Fixtures of the tiered-storage forecast tests (storage/replica_forecast with a remote tier:
// test_tiered_forecast, test_tiered_follower_loss): remote segments of one epoch, the metadata
// index a broker's RemoteLogMetadataCache would hold with every one of them finished, and a
// replica's stored batches of one record each.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kepoch/storage/replica_forecast.hpp"

namespace test {

// A remote segment `start`..`end` whose leader epochs are only `epoch` from `start`.
inline kepoch::RemoteSegment segment(const std::string& id, std::int64_t start, std::int64_t end,
                                     std::int32_t epoch) {
  kepoch::RemoteSegment s;
  s.segment_id = id;
  s.start_offset = start;
  s.end_offset = end;
  s.leader_epochs = {{epoch, start}};
  return s;
}

// The metadata index with each of `segments` copied (COPY_SEGMENT_STARTED, then FINISHED).
inline std::shared_ptr<kepoch::RemoteLogIndex> index_of(
    const std::vector<kepoch::RemoteSegment>& segments) {
  auto index = std::make_shared<kepoch::RemoteLogIndex>();
  for (const auto& s : segments) {
    index->add_copy_started(s);
    index->update(s.segment_id, kepoch::RemoteSegmentState::copy_segment_finished);
  }
  return index;
}

// Single-record batches at offsets `first`..`end`-1 (80 bytes each, CRC the offset), each of
// the leader epoch `epoch_of(offset)`, ordinals from 0, every one kept.
inline kepoch::StoredBatches single_record_batches(
    std::int64_t first, std::int64_t end,
    const std::function<std::int32_t(std::int64_t)>& epoch_of) {
  kepoch::StoredBatches s;
  for (std::int64_t o = first; o < end; ++o) {
    kepoch::BatchSummary b;
    b.ordinal = static_cast<std::uint64_t>(o - first);
    b.base_offset = b.last_offset = o;
    b.records = 1;
    b.size = 80;
    b.crc = static_cast<std::uint32_t>(o);
    b.epoch = epoch_of(o);
    b.records_before = s.records;
    b.bytes_before = s.bytes;
    s.records += 1;
    s.bytes += 80;
    s.batches.push_back(b);
  }
  s.batch_count = s.batches.size();
  return s;
}

}  // namespace test
