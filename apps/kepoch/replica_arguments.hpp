#pragma once
// The replicas diff and predict compare, read from their arguments: replica dirs, log dirs,
// snapshot files or SNAPSHOT:TOPIC-PARTITION (storage/replica_sources.hpp).

#include <string>
#include <vector>

#include "kepoch/storage/replica_sources.hpp"
#include "progress.hpp"

namespace kepoch::cli {

// Reads each argument (one step of `progress` each), refuses two that name the same replica
// once all are read (refuse_same_replica: unreadable input says so first), and pairs the
// replicas by partition, two at least. first_required: every pair holds the first
// argument's replica (predict's leader).
PairedPartitions read_paired_replicas(const std::vector<std::string>& arguments, LoadDepth depth,
                                      bool first_required, StepProgress& progress);

}  // namespace kepoch::cli
