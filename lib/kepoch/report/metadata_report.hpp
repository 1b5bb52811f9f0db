#pragma once
// The report shapes of `metadata dump` and `metadata history`.
//
// dump (one item per target, records streamed):
//   {"target", "files", "records": [{"offset", "timestamp", "leader_epoch" (the batch's
//    Raft epoch), "type" (PARTITION_CHANGE_RECORD, ..., UNKNOWN(n), or control:<type>),
//    "api_key"?, "version", "fields" (the schema's fields in snake_case, null when not
//    decoded), "notes"?, "error"?}], "record_count", "problems"}
// history:
//   {"target", "files", "partitions": [{"topic", "topic_id", "partition", "last_led_epoch" (the
//    latest epoch that had a leader: where the replicas' epoch caches should end), "steps":
//    [{"offset", "timestamp", "record", "causes", "leader", "leader_epoch",
//    "partition_epoch", "isr", "elr", "last_known_elr", "replicas", "adding_replicas",
//    "removing_replicas", "leader_recovery_state", "directories"}]}], "brokers":
//    [{"offset", "timestamp", "broker_id", "broker_epoch", "event", "fenced"?}],
//    "problems"}

#include <string>
#include <vector>

#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/report/value.hpp"
#include "kepoch/storage/metadata_log.hpp"

namespace kepoch::report {

// The decoded fields of a metadata record, or null.
Value metadata_fields(const MetadataRecord& record);
Value metadata_entry_value(const MetadataLogEntry& entry);
std::vector<std::string> metadata_entry_table_columns();

Value partition_timeline_value(const PartitionTimeline& timeline);
Value broker_event_value(const BrokerEvent& event);
std::vector<std::string> partition_step_table_columns();

// {"severity": "error", "message"} for each.
Value metadata_problems(const std::vector<std::string>& messages);

}  // namespace kepoch::report
