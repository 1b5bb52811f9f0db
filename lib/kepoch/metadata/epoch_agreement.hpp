#pragma once
// A replica's leader-epoch cache held against the leader epochs the controller issued for
// its partition (partition_history.hpp): the PartitionRecord's LeaderEpoch, then one more
// for each PartitionChangeRecord with a Leader field (PartitionRegistration.merge).
//
// A replica caches an epoch when it leads in it (UnifiedLog.maybeAssignEpochStartOffset on
// becoming leader) or fetches records written in it, so every cached epoch must be one the
// controller issued with a leader (not -1). Epochs issued but absent from a cache are
// normal (a leader that wrote nothing the replica fetched). Epochs below the first one the
// metadata log shows (a log that starts at a snapshot: the first issued epoch is the one the
// snapshot restates) are not judged.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/epoch/epoch_entry.hpp"
#include "kepoch/metadata/partition_history.hpp"

namespace kepoch {

struct IssuedEpoch {
  std::int32_t epoch = -1;
  std::int32_t leader = -1;  // -1: no leader in this epoch
  std::int64_t offset = -1;  // of the metadata record that issued it (-1: a snapshot's)
  std::int64_t timestamp = -1;
  std::optional<SnapshotId> snapshot;  // the epoch as a snapshot restates it
};

std::vector<IssuedEpoch> issued_epochs(const PartitionTimeline& timeline);

// Sentences, one per cached epoch the controller did not issue with a leader.
std::vector<std::string> check_epoch_cache(const std::vector<IssuedEpoch>& issued,
                                           const std::vector<EpochEntry>& cache);

}  // namespace kepoch
