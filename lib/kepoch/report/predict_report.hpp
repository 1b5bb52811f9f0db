#pragma once
// The report shape of `predict`:
//   {"topic", "partition", "mode",
//    "leader": {"dir", "log_end_offset", "high_watermark", "log_start_offset", "epochs"},
//    "replicas": [{"dir", "log_end_offset", "high_watermark", "epochs", "outcome",
//      "first_fetch", "failure", "truncate_to",
//      "fetch_from", "truncated_fully", "removed_records", "removed_bytes", "removed_range",
//      "lost_records", "committed_lost_records", "committed_loss", "first_lost_offset",
//      "lost_unknown_records", "lost_unknown_range", "lost_aborted_records",
//      "lost_control_records", "below_leader_start_records",
//      "log_end_offset_after", "epochs_after", "note", "unanswered", "rounds": [{"step",
//      "request_epoch", "leader_epoch", "leader_end_offset", "follower_epoch",
//      "follower_end_offset", "branch", "truncate_to", "completed"}],
//      "modes"?: {"fetch": {...}, "ofle": {...}, "hw": {...}}}],
//    "assumptions": [...], "timeline": {...}}
// ("timeline", added by `predict` beside this shape: the replicas on one offset axis against
// the leader, each follower's truncate_to the main mode's; timeline.hpp)
// outcome is "follows", or "fails" when the follower's first fetch after the truncation
// lands inside one of the leader's batches and its log is not empty: Kafka's follower append
// throws UnexpectedAppendOffsetException and the partition is marked failed (null: that
// batch could not be read). first_fetch: "appends", "restarts_log" (an empty log starts over
// at the batch's base offset), "fails", or null. failure (when it fails): {"reason",
// "fetch_offset", "leader_batch": {"first", "last"}, "divergent_records" (kept records the
// leader does not hold the same, compared from "compared_from"; null when not all read),
// "divergent_range", "compared_from", "action"}.
// lost_records and committed_lost_records count the removed records known lost that a
// consumer reads as data (non-transactional, committed or open transactions);
// lost_aborted_records and lost_control_records the lost records of aborted transactions
// and the lost transaction markers (null from a snapshot, which keeps no batch attributes);
// lost_unknown_records (and its range) those whose batches at the leader were not read
// (live: past the leader's high watermark); below_leader_start_records those below the
// leader's log start (deleted there already; not lost by the truncation). committed_loss is
// true when committed records are known lost, null when unknown removed records lie below
// the high watermark (a committed loss cannot be ruled out), false otherwise. From
// snapshots, removed_records/removed_bytes are null when the snapshot did not keep the
// batch holding the truncation offset, and the lost counts when it did not keep every
// removed batch; "unanswered" says which (it is empty for replica dirs). A round's "step"
// is "truncation" (branches A-E, H), "out_of_range" (O) or "confirming_fetch" (N: the fetch
// that finds no divergence, after which nothing more is truncated).

#include <vector>

#include "kepoch/forecast/election_forecast.hpp"
#include "kepoch/report/value.hpp"
#include "kepoch/storage/replica_forecast.hpp"

namespace kepoch::report {

struct ReplicaForecasts {
  const PartitionReplica* replica;
  std::vector<ReplicaForecast> forecasts;  // one per mode asked for; the first is the main one
};

Value predict_value(const PartitionReplica& leader, const std::vector<ReplicaForecasts>& replicas,
                    std::string_view mode);

// One partition of offline `predict` (forecast/election_forecast): predict_value, with its
// timeline (timeline.hpp): the replicas on one offset axis against the leader, each cut where
// the main mode truncates it.
Value prediction_value(const forecast::PartitionPrediction& prediction, std::string_view mode);

// The parts, for reports of the same shape whose leader is not a replica on disk
// (`cluster predict`): one entry of "replicas", the assumptions a replica's loading makes,
// and the section around them.
Value replica_forecast_value(const ReplicaForecasts& rf);
// "fails" (the follower's first append throws UnexpectedAppendOffsetException), "follows",
// or null when the leader's batch at the fetch offset could not be read.
Value outcome_value(const ReplicaForecast& f);
// committed_loss's value: true, false, or null when it cannot be ruled out.
Value committed_loss_value(const ReplicaForecast& f);
// The offsets a follower's truncation removes, for its timeline (timeline.hpp "removed"):
// {"start", "end" ([start, end)), "records", "lost_records" (null: not known),
// "committed_loss" (as committed_loss_value)}; null when it removes nothing.
// `log_end_offset` is the follower's before the truncation.
Value removed_span_value(const ReplicaForecast& f, std::int64_t log_end_offset);
void add_replica_assumptions(Value& assumptions, const PartitionReplica& replica);
Value predict_section(const std::string& topic, std::int32_t partition, std::string_view mode,
                      Value leader, Value replicas, Value assumptions);
std::string_view mode_name(TruncationMode mode);
// TierOutcome by its field name (rebuilt, no_remote_segment, remote_unknown, no_epoch).
std::string_view tier_outcome_name(TierOutcome outcome);

}  // namespace kepoch::report
