#pragma once
// leader-epoch-checkpoint (LeaderEpochCheckpointFile.java), version 0:
//
//   0                 version
//   3                 entry count
//   0 0               <epoch> <start offset>: Integer.parseInt, Long.parseLong
//   2 1               fields split on \s+; exactly 2 fields, else "Malformed line"
//   4 2               (a leading blank makes an empty first field: malformed)
//
// Reading does not check signs or order; the cache built from the entries does
// (epoch/leader_epoch_cache.hpp).

#include <string_view>

#include "kepoch/epoch/epoch_entry.hpp"
#include "kepoch/format/checkpoint_file.hpp"

namespace kepoch {

inline constexpr std::string_view kLeaderEpochCheckpointName = "leader-epoch-checkpoint";
inline constexpr std::int32_t kLeaderEpochCheckpointVersion = 0;

using LeaderEpochCheckpoint = CheckpointContent<EpochEntry>;

EntryParse<EpochEntry> parse_epoch_entry(std::string_view line);
LeaderEpochCheckpoint read_leader_epoch_checkpoint(std::string_view text, std::string_view path);

}  // namespace kepoch
