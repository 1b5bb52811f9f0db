#pragma once
// The report shape of `diff`:
//   {"topic", "partition", "reference",
//    "replicas": [{"dir", "log_start_offset", "log_end_offset", "high_watermark", "epochs"}],
//    "comparisons": [{"dir", "against", "identical", "fork_offset_by_epochs",
//      "fork_offset_by_batches", "differing_batches": [{"base_offset", "last_offset", "crc",
//      "other_crc"}], "only_here": {"first", "last"}|null, "only_there": ...,
//      "unanswered": [sentences: what a snapshot's batch windows leave open],
//      "batches_compared_from" (batches below it are not compared: the log cleaner rewrote
//      them), "notes": [sentences: comparisons left out and why (an empty epoch cache, a
//      compacted log)]}],
//    "timeline": ["<dir>  |000001111222|  leo N", ..., "  ^ fork at N"]}
// The timeline draws every replica on one offset axis, one character per column: the leader
// epoch (0-9, then a-z) of the offsets it covers, blank where the replica holds nothing.

#include <vector>

#include "kepoch/report/value.hpp"
#include "kepoch/storage/replica_diff.hpp"

namespace kepoch::report {

Value diff_value(const std::vector<PartitionReplica>& replicas, std::size_t reference,
                 const std::vector<ReplicaComparison>& comparisons);

}  // namespace kepoch::report
