#pragma once
// RemoteLogSegmentState (KIP-405), by the ids __remote_log_metadata records carry: shared by
// the record decoder (format/remote_log_metadata) and the metadata cache replay
// (epoch/tiered_fetch).

#include <cstdint>

namespace kepoch {

enum class RemoteSegmentState : std::int8_t {
  copy_segment_started = 0,
  copy_segment_finished = 1,
  delete_segment_started = 2,
  delete_segment_finished = 3
};

}  // namespace kepoch
