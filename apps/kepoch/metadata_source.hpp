#pragma once
// The controller's metadata log as the metadata history, diff --metadata and partition
// inspect --metadata read it: where the replay starts (a snapshot, then the log:
// storage/metadata_replay.hpp), replayed into each partition's history, with a progress line
// on a terminal.

#include <string>

#include "globals.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/storage/metadata_replay.hpp"

namespace kepoch::cli {

struct LoadedMetadata {
  MetadataReplayPlan plan;
  MetadataReplaySummary summary;
  PartitionHistory history;
};

// Throws InputError for an unreadable target or a damaged snapshot.
LoadedMetadata load_metadata_history(const std::string& target,
                                     const MetadataReplayOptions& options,
                                     PartitionHistoryFilter filter, const Globals& globals);

// history.orphans() and the replay's problems, in one list.
std::vector<std::string> metadata_problems(const LoadedMetadata& loaded);

}  // namespace kepoch::cli
