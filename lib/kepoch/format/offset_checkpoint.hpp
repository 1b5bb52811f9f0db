#pragma once
// Offset checkpoints (OffsetCheckpointFile.java), version 0: the log dir's
// recovery-point-offset-checkpoint, log-start-offset-checkpoint,
// replication-offset-checkpoint (high watermarks) and cleaner-offset-checkpoint.
//
//   0                 version
//   2                 entry count
//   orders 0 1500     <topic> <partition> <offset>: split on \s+, exactly 3 fields,
//   orders 1 1320     Integer.parseInt(partition), Long.parseLong(offset)
//
// Entry order is a hash map's (unspecified). Kafka reads into a map: the last duplicate wins.

#include <string>
#include <string_view>

#include "kepoch/format/checkpoint_file.hpp"

namespace kepoch {

inline constexpr std::int32_t kOffsetCheckpointVersion = 0;

struct TopicPartitionOffset {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
};

using OffsetCheckpoint = CheckpointContent<TopicPartitionOffset>;

EntryParse<TopicPartitionOffset> parse_topic_partition_offset(std::string_view line);
OffsetCheckpoint read_offset_checkpoint(std::string_view text, std::string_view path);

}  // namespace kepoch
