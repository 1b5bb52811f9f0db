#pragma once
// The report shape of the controller's view of one partition, next to replicas' leader-epoch
// caches: `diff --metadata` (controller_epochs) and `partition inspect --metadata`
// (controller). From the partition's metadata history (metadata/partition_history.hpp):
//   {"topic_id", "offset" (of the last step; null: as of the snapshot), "snapshot",
//    "leader", "leader_epoch", "partition_epoch", "leader_recovery_state", "replicas", "isr",
//    "elr", "last_known_elr", "last_led_epoch",
//    "issued": [{"epoch", "leader", "metadata_offset", "snapshot"}] (the leader epochs the
//    controller issued: epoch_agreement.hpp), "findings": [{"replica", "message"}]}
// With no timeline for the partition: the same fields null, "issued" null, "findings" [],
// and a "note".

#include <optional>
#include <string>
#include <vector>

#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/report/value.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch::report {

// The timeline of a replica's partition: by topic id when the replica knows it
// (partition.metadata), else by topic name.
const PartitionTimeline* find_timeline(const PartitionHistory& history,
                                       const PartitionReplica& replica);

// Sets `findings` when a replica's cache holds an epoch the controller did not issue with a
// leader (check_epoch_cache).
Value controller_view_value(const PartitionTimeline* timeline,
                            const std::vector<const PartitionReplica*>& replicas, bool& findings);

}  // namespace kepoch::report
