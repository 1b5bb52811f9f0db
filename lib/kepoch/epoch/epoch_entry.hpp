#pragma once

#include <cstdint>

namespace kepoch {

// Kafka's RecordBatch.NO_PARTITION_LEADER_EPOCH: the "undefined" epoch and offset.
inline constexpr std::int32_t kUndefinedEpoch = -1;
inline constexpr std::int64_t kUndefinedEpochOffset = -1;

// One line of a leader-epoch-checkpoint: the first offset written in a leader epoch
// (org.apache.kafka.storage.internals.log.EpochEntry).
struct EpochEntry {
  std::int32_t epoch = 0;
  std::int64_t start_offset = 0;
  friend bool operator==(const EpochEntry&, const EpochEntry&) = default;
};

}  // namespace kepoch
