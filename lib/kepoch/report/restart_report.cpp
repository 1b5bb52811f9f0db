#include "kepoch/report/restart_report.hpp"

#include <fmt/format.h>

#include <map>

#include "kepoch/report/common_values.hpp"
#include "kepoch/report/predict_report.hpp"

namespace kepoch::report {
namespace {

using forecast::PartitionRestart;
using forecast::RestartOutcome;

std::string name_of(const PartitionRestart& r) {
  return fmt::format("{}-{}", r.replica.topic, r.replica.partition);
}

// A follower whose first fetch after the truncation fails (UnexpectedAppendOffsetException,
// FailedPartitions) is reported as "fails", not "follows": it never follows.
bool fails(const PartitionRestart& r) {
  return r.outcome == RestartOutcome::follows && r.forecast && r.forecast->fails();
}

std::string_view outcome_of(const PartitionRestart& r) {
  return fails(r) ? "fails" : outcome_name(r.outcome);
}

std::string reason_of(const PartitionRestart& r) {
  if (!r.lead_risk.empty())
    return r.reason + "; a committed loss cannot be ruled out: " + r.lead_risk;
  if (!fails(r)) return r.reason;
  const ReplicaForecast& f = *r.forecast;
  return fmt::format(
      "follows leader broker {} at epoch {}, truncates to {}, then fails: "
      "UnexpectedAppendOffsetException, partition marked failed (the leader's batch {}-{} holds "
      "the fetch offset {} but begins below it); it stays out of the ISR keeping {} record(s) "
      "the leader does not hold. Action: {}",
      r.live->leader, r.live->leader_epoch, f.prediction.truncate_to, f.leader_batch->first,
      f.leader_batch->second, f.prediction.fetch_from,
      f.divergent_records ? fmt::format("{}", *f.divergent_records) : std::string("unknown"),
      f.action);
}

Value row_value(const PartitionRestart& r) {
  const ReplicaForecast* f = r.forecast ? &*r.forecast : nullptr;
  const bool follows = r.outcome == RestartOutcome::follows && r.live;
  Value row = Value::object()
                  .set("topic", r.replica.topic)
                  .set("partition", r.replica.partition)
                  .set("outcome", outcome_of(r))
                  .set("leader", r.live && r.live->has_leader() ? Value(r.live->leader) : Value())
                  .set("leader_epoch", r.live ? Value(r.live->leader_epoch) : Value())
                  .set("isr", r.live ? ids_value(r.live->isr) : Value())
                  .set("elr", r.live ? optional_ids_value(r.live->elr) : Value())
                  .set("log_end_offset", r.replica.loaded.log_end_offset)
                  .set("high_watermark", r.replica.loaded.high_watermark);
  if (f && follows) {
    row.set("truncate_to", f->prediction.truncate_to)
        .set("removed_records", f->removed_known ? Value(f->removed_records) : Value())
        .set("lost_records", f->lost_counted ? Value(f->lost_records) : Value())
        .set("committed_lost_records", f->lost_counted ? Value(f->committed_lost_records) : Value())
        .set("committed_loss", committed_loss_value(*f))
        .set("lost_unknown_records", f->lost_counted ? Value(f->lost_unknown_records) : Value())
        .set("lost_aborted_records",
             f->lost_counted && f->transactions_known ? Value(f->lost_aborted_records) : Value())
        .set("lost_control_records",
             f->lost_counted && f->transactions_known ? Value(f->lost_control_records) : Value())
        .set("divergent_records", f->divergent_records ? Value(*f->divergent_records) : Value());
  } else {
    row.set("truncate_to", Value())
        .set("removed_records", Value())
        .set("lost_records", Value())
        .set("committed_lost_records", Value())
        .set("committed_loss", Value())
        .set("lost_unknown_records", Value())
        .set("lost_aborted_records", Value())
        .set("lost_control_records", Value())
        .set("divergent_records", Value());
  }
  return row.set("reason", reason_of(r));
}

Value leader_value(const PartitionRestart& r) {
  Value answers = Value::array();
  for (const auto& [asked, e] : r.answers.end_offsets)
    answers.push(Value::object()
                     .set("epoch_asked", asked)
                     .set("epoch", e.epoch)
                     .set("end_offset", e.start_offset));
  Value leader = Value::object()
                     .set("broker", r.live->leader)
                     .set("leader_epoch", r.live->leader_epoch)
                     .set("log_end_offset", r.answers.log_end_offset)
                     .set("high_watermark", optional_value(r.live->high_watermark))
                     .set("log_start_offset", optional_value(r.live->log_start_offset))
                     .set("answers", std::move(answers));
  // Tiered storage: the boundary as kafka-get-offsets --time -4/-5 gives it, and the source
  // of the remote segments the forecast read.
  if (r.tier) {
    Value unknown = Value::array();
    for (const auto& u : r.tier->unknown)
      unknown.push(u);
    leader.set("tier",
               Value::object()
                   .set("local_log_start_offset", optional_value(r.tier->local_log_start_offset))
                   .set("local_log_start_epoch", optional_value(r.tier->local_log_start_epoch))
                   .set("latest_tiered_offset", optional_value(r.tier->latest_tiered_offset))
                   .set("tiered", r.tier->tiered)
                   .set("remote_log_metadata",
                        r.tier->metadata.empty() ? Value() : Value(r.tier->metadata))
                   .set("unknown", std::move(unknown)));
  }
  return leader;
}

// The replica's forecast in `predict`'s section shape, the live leader in place of a dir.
Value forecast_section(const PartitionRestart& r) {
  const ReplicaForecasts rf{&r.replica, {*r.forecast}};
  Value replicas = Value::array();
  replicas.push(replica_forecast_value(rf));
  Value assumptions = Value::array();
  add_replica_assumptions(assumptions, r.replica);
  assumptions.push(fmt::format(
      "leader broker {} answers as it did at leader epoch {}; a leader change before the "
      "restart changes the answer",
      r.live->leader, r.live->leader_epoch));
  return predict_section(r.replica.topic, r.replica.partition, mode_name(r.forecast->mode),
                         leader_value(r), std::move(replicas), std::move(assumptions));
}

Value summary_value(const forecast::RestartForecast& f) {
  std::map<RestartOutcome, int> outcomes;
  int truncates = 0, loss_partitions = 0, loss_unknown_partitions = 0, lost_unknown = 0;
  int failing = 0;
  std::uint64_t removed = 0, lost = 0, committed = 0, unknown = 0, aborted = 0, control = 0;
  Value at_risk = Value::array();
  for (const auto& r : f.partitions) {
    if (fails(r))
      ++failing;
    else
      ++outcomes[r.outcome];
    if (r.outcome == RestartOutcome::leads && !r.lead_risk.empty()) at_risk.push(name_of(r));
    if (!r.forecast) continue;
    const ReplicaForecast& x = *r.forecast;
    if (x.prediction.truncate_to < r.replica.loaded.log_end_offset || x.prediction.truncated_fully)
      ++truncates;
    removed += x.removed_records;
    // The known part counts even when some removed records are unknown.
    if (x.lost_counted) {
      lost += x.lost_records;
      committed += x.committed_lost_records;
      unknown += x.lost_unknown_records;
      aborted += x.lost_aborted_records;
      control += x.lost_control_records;
    }
    if (!x.lost_known) ++lost_unknown;
    if (x.committed_loss())
      ++loss_partitions;
    else if (x.committed_loss_possible())
      ++loss_unknown_partitions;
    if (x.committed_loss_possible() || x.fails_possible()) at_risk.push(name_of(r));
  }
  return Value::object()
      .set("partitions", static_cast<std::int64_t>(f.partitions.size()))
      .set("follows", outcomes[RestartOutcome::follows])
      .set("truncates", truncates)
      .set("removed_records", removed)
      .set("lost_records", lost)
      .set("committed_lost_records", committed)
      .set("lost_unknown_records", unknown)
      .set("lost_unknown_partitions", lost_unknown)
      .set("lost_aborted_records", aborted)
      .set("lost_control_records", control)
      .set("fails", failing)
      .set("committed_loss_partitions", loss_partitions)
      .set("committed_loss_unknown_partitions", loss_unknown_partitions)
      .set("leads", outcomes[RestartOutcome::leads])
      .set("leaderless", outcomes[RestartOutcome::leaderless])
      .set("stray", outcomes[RestartOutcome::stray])
      .set("unanswered", outcomes[RestartOutcome::unanswered])
      .set("at_risk", std::move(at_risk))
      // What decides the exit code (committed_loss_possible below): the sentence reads it.
      .set("committed_loss_possible", committed_loss_possible(f));
}

Value assumptions_value(const forecast::RestartForecast& f) {
  Value a = Value::array();
  a.push(fmt::format("brokers alive in the cluster: {}",
                     f.alive.empty() ? "none" : fmt::format("{}", fmt::join(f.alive, ","))));
  a.push(fmt::format("controller: {} ({})", live::controller_mode_text(f.controller),
                     f.controller.basis));
  a.push(fmt::format("eligible leader replicas (KIP-966) {}: {}", f.elr.enabled ? "on" : "off",
                     f.elr.basis));
  a.push(fmt::format("broker {} starts from {} as it is now ({})", f.broker, f.log_dir.string(),
                     f.clean_shutdown ? "clean shutdown: no recovery"
                                      : "no clean-shutdown marker: Kafka recovers the segments "
                                        "from the recovery point on"));
  // ZooKeeper-mode brokers fetch with LastFetchedEpoch too once their
  // inter.broker.protocol.version is 2.7 or later (ReplicaFetcherThread's
  // isTruncationOnFetchSupported).
  a.push(fmt::format(
      "each follower fetches with its latest epoch (Fetch divergence: {}); the leaders' answers "
      "are OffsetForLeaderEpoch's, the same lookup",
      f.controller.kind == live::ControllerKind::zookeeper
          ? "ZooKeeper-mode brokers from inter.broker.protocol.version 2.7 on"
          : "every KRaft broker"));
  a.push(
      "lost records: removed batches the leader does not hold with the same offsets and CRC; "
      "committed: below the high watermark this broker had checkpointed; without a clean "
      "shutdown that checkpoint may lag the high watermark it held (written every "
      "replica.high.watermark.checkpoint.interval.ms), so a loss above it is not ruled out");
  if (!f.remote_metadata.empty()) a.push(f.remote_metadata);
  for (const auto& n : f.notes)
    a.push(n);
  return a;
}

Value restart_problems(const forecast::RestartForecast& f) {
  Value problems = Value::array();
  auto add = [&](std::string_view severity, const std::string& message) {
    problems.push(Value::object().set("severity", severity).set("message", message));
  };
  if (f.alive.count(f.broker))
    add("warning", fmt::format("broker {} is alive in the cluster: its files change while kepoch "
                               "reads them; stop it first",
                               f.broker));
  for (const auto& w : f.warnings)
    add("warning", w);
  for (const auto& r : f.partitions)
    if (r.outcome == RestartOutcome::unanswered)
      add("warning", fmt::format("{}: {}", name_of(r), r.reason));
  return problems;
}

}  // namespace

bool committed_loss(const forecast::RestartForecast& f) {
  for (const auto& r : f.partitions)
    if (r.forecast && r.forecast->committed_loss()) return true;
  return false;
}

bool committed_loss_possible(const forecast::RestartForecast& f) {
  for (const auto& r : f.partitions) {
    if (r.forecast && (r.forecast->committed_loss_possible() || r.forecast->fails_possible()))
      return true;
    // Not predicted (the leader could not be asked, or is not leading yet): whatever the
    // replica holds may be truncated, and nothing rules a committed loss out.
    if (r.outcome == RestartOutcome::unanswered &&
        r.replica.loaded.log_end_offset > r.replica.loaded.log_start_offset)
      return true;
    if (r.outcome == RestartOutcome::leads && !r.lead_risk.empty()) return true;
  }
  return false;
}

Value restart_value(const forecast::RestartForecast& f, bool details) {
  Value rows = Value::array();
  Value sections = Value::array();
  for (const auto& r : f.partitions) {
    rows.push(row_value(r));
    if (details && r.forecast) sections.push(forecast_section(r));
  }
  Value out = Value::object()
                  .set("broker", f.broker)
                  .set("log_dir", f.log_dir.string())
                  .set("clean_shutdown", f.clean_shutdown)
                  .set("alive_brokers",
                       ids_value(std::vector<std::int32_t>(f.alive.begin(), f.alive.end())))
                  .set("summary", summary_value(f))
                  .set("partitions", std::move(rows));
  if (details) out.set("forecasts", std::move(sections));
  return out.set("assumptions", assumptions_value(f)).set("problems", restart_problems(f));
}

}  // namespace kepoch::report
