#pragma once
// The report shapes of the live-cluster commands.
//
// cluster describe:
// (No controller id: a KRaft broker answers Metadata with a random alive broker there.)
//   {"cluster_id", "brokers": [{"id", "host", "port", "rack"}],
//    "partitions": [{"topic", "partition", "leader" (null: none), "leader_epoch", "replicas",
//                    "isr", "elr" (null: not reported), "last_known_elr", "offline_replicas",
//                    "log_start_offset", "high_watermark", "flags": [health names]}],
//    "replica_logs": [{"topic", "partition", "broker", "log_dir", "size_bytes",
//                      "offset_lag", "log_end_offset" (null: not answered)}] (the listed
//                      partitions' replicas, DescribeLogDirs and ListOffsets on each broker),
//    "summary": {"topics", "partitions", "under_replicated", "under_min_isr", "at_min_isr",
//                "unavailable", "leader_not_preferred"},
//    "problems": [{"severity": "warning", "message"}] (what could not be read)}
// cluster watch, one per event:
//   {"time" (ISO 8601 UTC), "event", "description" (a sentence), "topic", "partition", "broker",
//   "old_leader",
//    "new_leader", "old_epoch", "new_epoch", "before", "after", "changed"} (only the
//   members the event has)
// cluster audit:
//   {"findings": [{"topic", "partition" (null: topic-wide), "risk", "severity", "reason"}],
//    "summary": {"topics", "partitions", "risks", "warnings"}, "problems": [...]}

#include <cstdint>
#include <optional>

#include "kepoch/live/cluster_events.hpp"
#include "kepoch/live/durability_audit.hpp"
#include "kepoch/live/partition_health.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

// Which partitions `cluster describe` lists: kafka-topics --describe's report flags (a
// partition shows when it matches any flag given; all show when none is given).
struct PartitionSelection {
  bool under_replicated = false;
  bool under_min_isr = false;
  bool at_min_isr = false;
  bool unavailable = false;
  bool leader_not_preferred = false;

  bool any() const {
    return under_replicated || under_min_isr || at_min_isr || unavailable || leader_not_preferred;
  }
};

Value cluster_describe_value(const live::ClusterView& view, const PartitionSelection& selection);

// One sentence: "orders-0 leader 1 -> 2, epoch 4 -> 5".
std::string event_description(const live::ClusterEvent& event);

// time_ms: milliseconds since the Unix epoch when the change was seen.
Value cluster_event_value(const live::ClusterEvent& event, std::int64_t time_ms);

Value cluster_audit_value(const live::ClusterView& view,
                          const std::vector<live::AuditFinding>& findings);

// "2026-11-29T14:03:07.123Z"
std::string iso_time(std::int64_t time_ms);

}  // namespace kepoch::report
