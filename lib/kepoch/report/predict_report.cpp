#include "kepoch/report/predict_report.hpp"

#include "kepoch/report/timeline.hpp"

#include "kepoch/report/common_values.hpp"

#include <fmt/format.h>

namespace kepoch::report {
namespace {

// The truncation's note, unless the first fetch after it fails: then the logs do not agree
// below the fetch offset (the follower keeps batches the leader does not hold there), and
// the note says what happens instead of "fetch from there".
std::string note_of(const ReplicaForecast& f) {
  if (!f.fails()) return f.prediction.note;
  return fmt::format(
      "the follower truncates to {}, but its first fetch from {} fails "
      "(UnexpectedAppendOffsetException): the leader's batch there begins at {}, below it, and "
      "the logs do not agree below the truncation point; the partition is marked failed",
      f.prediction.truncate_to, f.prediction.fetch_from,
      f.leader_batch ? std::to_string(f.leader_batch->first) : std::string("?"));
}

// What a round is: a truncation (branches A-E of getOffsetTruncationState, H the high
// watermark), the out-of-range handling (O), or the fetch that finds no divergence (N):
// AbstractFetcherThread's next fetch, which truncates nothing and only confirms the offset
// the rounds before reached (its truncate_to is that offset, not a new cut).
std::string_view round_step(const TruncationRound& r) {
  switch (r.branch) {
    case TruncationBranch::no_divergence:
      return "confirming_fetch";
    case TruncationBranch::out_of_range:
      return "out_of_range";
    default:
      return "truncation";
  }
}

Value round_value(const TruncationRound& r) {
  return Value::object()
      .set("step", round_step(r))
      .set("request_epoch", r.requested_epoch)
      .set("leader_epoch", r.leader_reply.epoch)
      .set("leader_end_offset", r.leader_reply.start_offset)
      .set("follower_epoch", r.follower_lookup ? Value(r.follower_lookup->epoch) : Value())
      .set("follower_end_offset",
           r.follower_lookup ? Value(r.follower_lookup->start_offset) : Value())
      .set("branch", std::string(1, branch_letter(r.branch)))
      .set("truncate_to", r.truncate_to)
      .set("completed", r.completed);
}

Value range_value(const std::optional<std::pair<std::int64_t, std::int64_t>>& range) {
  return range ? Value::object().set("first", range->first).set("last", range->second) : Value();
}

std::string_view first_append_name(FollowerAppend a) {
  switch (a) {
    case FollowerAppend::appends:
      return "appends";
    case FollowerAppend::restarts_log:
      return "restarts_log";
    case FollowerAppend::fails:
      return "fails";
  }
  return "appends";
}

// UnexpectedAppendOffsetException and what stays behind.
Value failure_value(const ReplicaForecast& f) {
  if (!f.fails()) return Value();
  const std::int64_t at = f.prediction.fetch_from;
  return Value::object()
      .set("reason", fmt::format("UnexpectedAppendOffsetException, partition marked failed: the "
                                 "leader's batch at fetch offset {} begins at {}, below the "
                                 "follower's log end; the fetcher drops the partition "
                                 "(FailedPartitions), which stays out of the ISR",
                                 at, f.leader_batch->first))
      .set("fetch_offset", at)
      .set("leader_batch", range_value(f.leader_batch))
      .set("divergent_records", f.divergent_records ? Value(*f.divergent_records) : Value())
      .set("divergent_range", range_value(f.divergent_range))
      .set("compared_from", f.divergent_compared_from)
      .set("action", f.action);
}

// The follower's path through a tiered leader's remote tier (TierStateMachine), or null.
Value tier_value(const ReplicaForecast& f) {
  if (!f.prediction.tier) return Value();
  const TierRebuild& t = *f.prediction.tier;
  Value segment;
  if (t.segment) {
    segment = Value::object()
                  .set("segment_id", t.segment->segment_id)
                  .set("start_offset", t.segment->start_offset)
                  .set("end_offset", t.segment->end_offset)
                  .set("leader_epochs", epochs_value(t.segment->leader_epochs));
  }
  return Value::object()
      .set("outcome", tier_outcome_name(t.outcome))
      .set("refused_fetch_offset", t.refused_offset)
      .set("leader_log_start_offset", t.leader_log_start)
      .set("leader_local_log_start_offset", t.leader_local_start)
      .set("local_start_epoch", t.local_start_epoch ? Value(*t.local_start_epoch) : Value())
      .set("target_epoch", t.target_epoch ? Value(*t.target_epoch) : Value())
      .set("segment", std::move(segment))
      .set("next_offset", t.next_offset ? Value(*t.next_offset) : Value())
      .set("rebuilt_epochs",
           t.outcome == TierOutcome::rebuilt ? epochs_value(t.rebuilt_cache) : Value())
      .set("remote_held_records", f.lost_counted ? Value(f.remote_held_records) : Value())
      .set("remote_missing_records", f.lost_counted ? Value(f.remote_missing_records) : Value())
      .set("note", t.note);
}

// What a tiered follower's truncation takes from remote storage (ReplicaForecast's remote_*
// fields), or null when it truncates nothing below its local log start.
Value remote_removed_value(const ReplicaForecast& f) {
  if (!f.remote_removed_range) return Value();
  const auto ranges = [](const std::vector<std::pair<std::int64_t, std::int64_t>>& rs) {
    Value out = Value::array();
    for (const auto& r : rs)
      out.push(range_value(r));
    return out;
  };
  return Value::object()
      .set("range", range_value(f.remote_removed_range))
      .set("lost_records", Value(f.remote_lost_records))
      .set("lost_ranges", ranges(f.remote_lost_ranges))
      .set("undescribed_ranges", ranges(f.remote_undescribed));
}

Value forecast_fields(const ReplicaForecast& f) {
  Value rounds = Value::array();
  for (const auto& r : f.prediction.rounds)
    rounds.push(round_value(r));
  const bool tx = f.lost_counted && f.transactions_known;
  return Value::object()
      .set("outcome", outcome_value(f))
      .set("first_fetch", f.first_append_known ? Value(first_append_name(f.first_append)) : Value())
      .set("failure", failure_value(f))
      .set("truncate_to", f.prediction.truncate_to)
      .set("fetch_from", f.prediction.fetch_from)
      .set("truncated_fully", f.prediction.truncated_fully)
      .set("removed_records", f.removed_known ? Value(f.removed_records) : Value())
      .set("removed_bytes", f.removed_known ? Value(f.removed_bytes) : Value())
      .set("removed_range", range_value(f.removed_range))
      .set("lost_records", f.lost_counted ? Value(f.lost_records) : Value())
      .set("committed_lost_records", f.lost_counted ? Value(f.committed_lost_records) : Value())
      .set("committed_loss", committed_loss_value(f))
      .set("first_lost_offset", f.first_lost_offset ? Value(*f.first_lost_offset) : Value())
      .set("lost_unknown_records", f.lost_counted ? Value(f.lost_unknown_records) : Value())
      .set("lost_unknown_range", range_value(f.lost_unknown_range))
      .set("lost_aborted_records", tx ? Value(f.lost_aborted_records) : Value())
      .set("lost_control_records", tx ? Value(f.lost_control_records) : Value())
      .set("below_leader_start_records",
           f.lost_counted ? Value(f.below_leader_start_records) : Value())
      .set("unanswered", strings_value(f.unanswered))
      .set("kept_divergent_range", range_value(f.kept_divergent_range))
      .set("log_end_offset_after", f.prediction.after.log_end_offset)
      .set("note", note_of(f))
      .set("rounds", std::move(rounds))
      .set("epochs_after", epochs_value(f.prediction.after.cache.entries()))
      .set("remote_tier", tier_value(f))
      .set("remote_removed", remote_removed_value(f));
}

}  // namespace

std::string_view tier_outcome_name(TierOutcome o) {
  switch (o) {
    case TierOutcome::rebuilt:
      return "rebuilt";
    case TierOutcome::no_remote_segment:
      return "no_remote_segment";
    case TierOutcome::remote_unknown:
      return "remote_unknown";
    case TierOutcome::no_epoch:
      return "no_epoch";
  }
  return "remote_unknown";
}

Value outcome_value(const ReplicaForecast& f) {
  if (f.fails()) return Value("fails");
  if (!f.first_append_known) return Value();
  return Value("follows");
}

Value removed_span_value(const ReplicaForecast& f, std::int64_t log_end_offset) {
  // Where the batches were read, the removed range says exactly which offsets go; where a
  // snapshot did not keep them, the cut and the log end do (and the counts are unknown).
  const std::int64_t start = f.removed_range ? f.removed_range->first : f.prediction.truncate_to;
  const std::int64_t end = f.removed_range ? f.removed_range->second + 1 : log_end_offset;
  if (end <= start) return Value();
  return Value::object()
      .set("start", start)
      .set("end", end)
      .set("records", f.removed_known ? Value(f.removed_records) : Value())
      .set("lost_records", f.lost_counted ? Value(f.lost_records) : Value())
      .set("committed_loss", committed_loss_value(f));
}

Value committed_loss_value(const ReplicaForecast& f) {
  if (f.committed_loss()) return Value(true);
  if (f.committed_loss_unknown) return Value();
  return Value(false);
}

Value replica_forecast_value(const ReplicaForecasts& rf) {
  const PartitionReplica& r = *rf.replica;
  Value v = Value::object()
                .set("dir", r.dir.string())
                .set("log_end_offset", r.loaded.log_end_offset)
                .set("high_watermark", r.loaded.high_watermark)
                .set("epochs", epochs_value(r.loaded.cache.entries()));
  const Value main = forecast_fields(rf.forecasts.front());
  for (const auto& [k, x] : main.as_object())
    v.set(k, x);
  if (rf.forecasts.size() > 1) {
    Value modes = Value::object();
    for (const auto& f : rf.forecasts)
      modes.set(std::string(mode_name(f.mode)), forecast_fields(f));
    v.set("modes", std::move(modes));
  }
  return v;
}

void add_replica_assumptions(Value& assumptions, const PartitionReplica& r) {
  assumptions.push(fmt::format(
      "{}: {}{}", r.dir.string(),
      r.clean_shutdown ? "clean shutdown: segments are loaded without recovery"
                       : "no clean-shutdown marker: Kafka recovers the segments "
                         "from the recovery point on",
      r.recovery_stop ? fmt::format(", recovery cuts the log at byte {}", r.recovery_stop->position)
                      : ""));
  for (const auto& n : r.notes)
    assumptions.push(fmt::format("{}: {}", r.dir.string(), n));
}

Value predict_section(const std::string& topic, std::int32_t partition, std::string_view mode,
                      Value leader, Value replicas, Value assumptions) {
  return Value::object()
      .set("topic", topic)
      .set("partition", partition)
      .set("mode", mode)
      .set("leader", std::move(leader))
      .set("replicas", std::move(replicas))
      .set("assumptions", std::move(assumptions));
}

std::string_view mode_name(TruncationMode mode) {
  switch (mode) {
    case TruncationMode::fetch:
      return "fetch";
    case TruncationMode::ofle:
      return "ofle";
    case TruncationMode::hw:
      return "hw";
  }
  return "fetch";
}

Value predict_value(const PartitionReplica& leader, const std::vector<ReplicaForecasts>& replicas,
                    std::string_view mode) {
  Value assumptions = Value::array();
  add_replica_assumptions(assumptions, leader);
  Value list = Value::array();
  for (const auto& rf : replicas) {
    add_replica_assumptions(assumptions, *rf.replica);
    list.push(replica_forecast_value(rf));
  }
  return predict_section(leader.topic, leader.partition, mode,
                         Value::object()
                             .set("dir", leader.dir.string())
                             .set("log_end_offset", leader.loaded.log_end_offset)
                             .set("high_watermark", leader.loaded.high_watermark)
                             .set("log_start_offset", leader.loaded.log_start_offset)
                             .set("epochs", epochs_value(leader.as_leader.cache.entries())),
                         std::move(list), std::move(assumptions));
}

Value prediction_value(const forecast::PartitionPrediction& p, std::string_view mode) {
  std::vector<ReplicaForecasts> forecasts;
  std::vector<ReplicaComparison> comparisons;
  for (const auto& f : p.followers) {
    forecasts.push_back({&p.replicas[f.replica], f.forecasts});
    comparisons.push_back(f.comparison);
  }
  Value value = predict_value(p.replicas.front(), forecasts, mode);
  std::vector<Value> removed(p.replicas.size());
  for (const auto& f : p.followers)
    if (!f.forecasts.empty() && f.replica < removed.size())
      removed[f.replica] =
          removed_span_value(f.forecasts.front(), p.replicas[f.replica].log_end_offset);
  value.set("timeline", timeline_value(p.replicas, 0, comparisons, &p.truncate_to, &removed));
  return value;
}

}  // namespace kepoch::report
