#pragma once
// The report shape of `partition inspect`:
//   {"dir", "topic", "partition", "topic_id", "log_start_offset", "log_end_offset",
//    "high_watermark", "recovery_point", "clean_shutdown",
//    "segments": [{"file", "base_offset", "next_offset", "batches", "size"}],
//    "epoch_checkpoint": [{"epoch", "start_offset"}], "rebuilt_epoch_cache": [...],
//    "loaded_epoch_cache": [...],
//    "checkpoint_vs_rebuilt": {"equal", "only_in_checkpoint", "only_in_rebuilt"},
//    "notes": [...]}

#include "kepoch/report/value.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch::report {

Value partition_value(const PartitionReplica& replica);

}  // namespace kepoch::report
