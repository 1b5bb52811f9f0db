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
//      compacted log)], "read_whole" (only when more than the divergent tail was read: why)}],
//    "timeline": {"from", "to", "fork", "reference", "replicas": [{"dir", "relation",
//      "log_start_offset", "log_end_offset", "hw", "recovery_point", "truncate_to",
//      "spans": [{"epoch", "start", "end"}]}]}}
// The timeline (timeline.hpp) puts every replica on one offset axis; the table draws it.

#include <vector>

#include "kepoch/report/value.hpp"
#include "kepoch/storage/replica_diff.hpp"

namespace kepoch::report {

Value diff_value(const std::vector<PartitionReplica>& replicas, std::size_t reference,
                 const std::vector<ReplicaComparison>& comparisons);

}  // namespace kepoch::report
