#pragma once
// A record of __remote_log_metadata as `segment dump --records` (and `logdir scan`) show it
// (format/remote_log_metadata.hpp decodes it):
//   {"type" (REMOTE_LOG_SEGMENT_METADATA_RECORD, ...), "api_key", "version", "topic",
//    "topic_id", "partition", "segment_id" (not for a partition delete), "state" (Kafka's
//    RemoteLogSegmentState or RemotePartitionDeleteState name), "state_id", "broker_id",
//    "event_timestamp_ms", segments and snapshots also: "start_offset", "end_offset",
//    "max_timestamp_ms", "segment_size_in_bytes", "segment_leader_epochs": [{"leader_epoch",
//    "offset"}] (as written), "txn_index_empty" (null when not written: 3.x),
//    "custom_metadata" (bool: the RSM's opaque bytes are there), "notes"?}
// A record that does not decode: {"error"} (Kafka's message).

#include <cstdint>
#include <span>

#include "kepoch/forecast/live_remote_log_metadata.hpp"
#include "kepoch/format/remote_log_metadata.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

Value remote_log_metadata_value(const RemoteLogMetadataRecord& record);

// `cluster remote-log-metadata`: the topic read live,
//   {"complete", "unknown_reason"?, "partitions_read": [N], "record_count", "errors",
//    "records": [{"partition", "offset", "remote_log_metadata": remote_log_metadata_value}
//                or {"partition", "offset", "error"}], "warnings"}
// and its verdict sentence (read whole and every record decoded, or what is missing).
Value live_remote_log_metadata_value(const forecast::LiveRemoteLogMetadata& live);
std::string live_remote_log_metadata_summary(const forecast::LiveRemoteLogMetadata& live);

}  // namespace kepoch::report
