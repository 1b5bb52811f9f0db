#pragma once
// The report shapes of `metadata dump` and `metadata history`.
//
// dump (one item per target, records streamed):
//   {"target", "files", "records": [{"offset", "timestamp", "leader_epoch" (the batch's
//    Raft epoch), "type" (PARTITION_CHANGE_RECORD, ..., UNKNOWN(n), or control:<type>),
//    "api_key"?, "version", "fields" (the schema's fields in snake_case, null when not
//    decoded), "summary" (the key fields on one line), "notes"?, "error"?}], "record_count",
//    "problems"}
// history:
//   {"target", "files", "start": {"rule", "snapshot": {"file", "id", "end_offset", "epoch",
//    "last_contained_log_timestamp"} | null, "log_start_offset", "log_end_offset",
//    "replayed_from_offset", "first_log_offset", "notes"},
//    "partitions": [{"topic", "topic_id", "partition", "last_led_epoch" (the
//    latest epoch that had a leader: where the replicas' epoch caches should end), "steps":
//    [{"offset" (null: as of the snapshot), "timestamp", "snapshot" ("646-2" | null),
//    "record", "causes", "leader", "leader_epoch",
//    "partition_epoch", "isr", "elr", "last_known_elr", "replicas", "adding_replicas",
//    "removing_replicas", "leader_recovery_state", "directories"}]}], "brokers":
//    [{"offset", "timestamp", "snapshot", "broker_id", "broker_epoch", "event", "fenced"?}],
//    "problems"}

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/base/time_text.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/report/value.hpp"
#include "kepoch/storage/metadata_log.hpp"
#include "kepoch/storage/metadata_replay.hpp"

namespace kepoch::report {

// A record read by a schema table (metadata or coordinator records): its fields as Kafka's
// JsonConverter writes them, in snake_case.
Value schema_value(const SchemaValue& s);

// Topic id text -> name, from the TopicRecords read so far.
using TopicNames = std::map<std::string, std::string>;

// The decoded fields of a metadata record, or null.
Value metadata_fields(const MetadataRecord& record);
// One line of the key fields: "topic=t partition=0 leader=2 leader_epoch=5 ... isr=[1,2]";
// "error: ..." for a record that cannot be decoded; "" for types without fields.
std::string metadata_summary(const MetadataLogEntry& entry, const TopicNames& names);
Value metadata_entry_value(const MetadataLogEntry& entry, const TopicNames& names = {});
std::vector<std::string> metadata_entry_table_columns();  // offset, timestamp, type, summary
// The longest type name a record can have (the table's type column).
std::size_t metadata_type_width();

// Where a step or event was read: the log offset (null for a snapshot's), the snapshot id.
Value position_offset(const MetadataPosition& at);
Value position_snapshot(const MetadataPosition& at);

// The "start" of a history: the rule that chose it, the snapshot, the log's bounds.
Value metadata_start_value(const MetadataReplayPlan& plan, const MetadataReplaySummary& summary);

// Its steps in `time` (all by default).
Value partition_timeline_value(const PartitionTimeline& timeline, const TimeRange& time = {});
// A timeline's members before its steps, and one step: the parts of
// partition_timeline_value, for a history written step by step (document_stream.hpp).
Value partition_timeline_leading(const PartitionTimeline& timeline,
                                 std::optional<std::int32_t> last_led_epoch);
Value partition_step_value(const PartitionStep& step);
Value broker_event_value(const BrokerEvent& event);
std::vector<std::string> partition_step_table_columns();

// {"severity": "error", "message"} for each.
Value metadata_problems(const std::vector<std::string>& messages);

}  // namespace kepoch::report
