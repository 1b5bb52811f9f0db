#pragma once
// The report shape of consumer groups' fates (forecast/group_fate), `predict --offsets`'s
// "consumer_groups" member of each partition section:
//   {"offsets_partitions": [dir...], "client" (java, librdkafka-2.0), "consumed_from",
//   "divergence_offset",
//    "consumed_log_end_offset", "leader_epoch", "leader_log_start_offset",
//    "leader_log_end_offset", "latest_offset", "affected_groups", "unknown_groups",
//    "groups": [{"group", "auto_offset_reset", "action", "next_position", "consumed_lost",
//      "reread", "skipped_unseen", "exception", "divergent_offset", "committed_offset",
//      "committed_leader_epoch", "validated", "epoch_end_offset", "epoch_end_epoch",
//      "consumed_lost_from", "reread_from", "skipped_from", "rule"}]}
// One row per group and policy. action: no_change, truncation_detected (seek back to the
// divergence), validation_reset, out_of_range_reset, log_truncation_exception,
// out_of_range_exception, silent_skip, or unknown (the committed offset is not known: a
// transactional commit awaits its marker; every other field null). Counts are offsets;
// reread and skipped_unseen are null after an exception or a by_duration reset (no
// position). affected_groups counts the groups with any row other than no_change;
// unknown_groups those whose offset is unknown. Groups coordinated by __consumer_offsets
// partitions not given are not listed: the sentence says which partitions were read.

#include <string>
#include <vector>

#include "kepoch/forecast/group_fate.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

Value group_fates_value(const forecast::PartitionGroupFates& fates,
                        const std::vector<std::string>& offsets_partitions);

// Whether a consumer_groups value leaves a group affected or unknown (what the exit code
// and the sentence read).
bool groups_affected(const Value& consumer_groups);

// The consumer groups in a sentence, from the value's typed fields.
std::string group_fates_summary(const Value& consumer_groups);

// Live (`cluster predict --groups`, `cluster what-if --groups`): one partition's groups, in
// the shape above without offsets_partitions, opened by "topic" and "partition", with
// "uncertain_groups" (groups fetched at a known position whose consumed records are not
// known: no committed leader epoch, the old leader's log not given; consumed_lost, reread and
// skipped_unseen null) and "groups_complete" (false: some broker did not list its groups).
// consumed_from, divergence_offset and consumed_log_end_offset are null (the old leader's log
// is not given live), the leader_* fields too when the new leader's log is not given.
Value live_group_fates_value(const forecast::PartitionGroupFates& fates, bool complete);
// The sentence over an array of those ("" when empty).
std::string live_group_fates_summary(const Value& partitions);
// Whether any group is affected, unknown, may be affected, or groups may be missing.
bool live_groups_affected(const Value& partitions);

}  // namespace kepoch::report
