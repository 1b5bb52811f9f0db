#pragma once
// Two replica dirs' batches compared side by side, in constant memory: each batch of `mine`
// (last offset >= from, base offset < end) is looked up in `theirs` by its base offset, as
// replica_diff's comparison by offset does, walking both logs once with a BatchCursor each.
// The walk relies on base offsets increasing in both logs (Kafka's append rule); when one
// does not, it says so and the caller compares by a lookup table instead.
//
// Anchored: the first batch of `mine` must be held identically by `theirs` (the caller
// skipped the batches before it because the epoch caches agree there; a difference at the
// anchor says they do not hold the same data there after all, and the caller reads from the
// start instead).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/replica_diff.hpp"

namespace kepoch {

enum class MergeOutcome { compared, anchor_differs, not_increasing };

struct MergeResult {
  MergeOutcome outcome = MergeOutcome::compared;
  std::optional<std::int64_t> first_difference;  // base offset of mine's first differing batch
  std::vector<DifferingBatch> differing;         // in order, up to max_listed
};

MergeResult merge_batches(const PartitionReplica& mine, const PartitionReplica& theirs,
                          std::int64_t from, std::int64_t end, bool anchored,
                          std::size_t max_listed);

}  // namespace kepoch
