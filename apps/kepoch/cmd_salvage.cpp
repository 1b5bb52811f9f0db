// kepoch salvage --archive FILE --leader REPLICA REPLICA...
// Before a broker restarts: every record the forecast truncation removes from its replica,
// written to an archive outside any log dir, for `kepoch replay` to produce back.

#include <fmt/format.h>

#include "bulk_output.hpp"
#include "cluster_options.hpp"
#include "election_options.hpp"
#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/forecast/election_forecast.hpp"
#include "kepoch/forecast/restart_forecast.hpp"
#include "kepoch/forecast/salvage.hpp"
#include "kepoch/forecast/salvage_archive.hpp"
#include "kepoch/report/salvage_report.hpp"
#include "kepoch/report/summary.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "replica_arguments.hpp"

namespace kepoch::cli {
namespace {

struct SalvageOptions {
  std::string archive;
  std::string log_dir;  // a stopped broker's, against the live cluster
  std::optional<std::int32_t> broker;
  std::string leader;
  std::vector<std::string> followers;
  bool elect = false;
  forecast::ElectionSetting election;
};

// The archive of `result`, written as `salvage` reads: header, records, end.
void archive_and_report(const SalvageOptions& o, const std::vector<std::string>& inputs,
                        const std::function<forecast::SalvageResult(
                            const std::function<void(const forecast::SalvagedRecord&)>&)>& salvage,
                        forecast::SalvageResult& result) {
  write_output_bulk("--archive", o.archive, OutputKind::salvage_archive, inputs, "salvage archive",
                    [&](BulkFileWriter& out) {
                      out.write(forecast::archive_header_line("kepoch " KEPOCH_VERSION));
                      // Each line written in place into the writer's chunk (no string of
                      // its own); a second thread writes the full chunks.
                      result = salvage([&](const forecast::SalvagedRecord& r) {
                        char* at = out.room(forecast::archive_record_max_size(r));
                        out.advance(forecast::write_archive_line(at, r));
                      });
                      out.write(forecast::archive_end_line(result.totals.records));
                    });
}

int finish(const SalvageOptions& o, const forecast::SalvageResult& result, const Globals& globals) {
  report::Value value = report::with_summary(report::salvage_value(result, o.archive),
                                             report::salvage_summary(result, o.archive));
  emit(value, globals);
  return report::salvage_needs_replay(result) ? kFindings : kOk;
}

// A stopped broker's log dir against the live cluster: the restart forecast of
// `cluster predict`, and what it removes from each replica that follows a live leader.
int run_live(const ConnectionOptions& c, const TopicOptions& t, const SalvageOptions& o,
             const Globals& globals) {
  if (!o.followers.empty() || !o.leader.empty() || o.elect)
    throw UsageError(
        "--log-dir salvages a stopped broker against the live cluster: give no "
        "REPLICA, --leader or --elect with it");
  const std::vector<std::string> inputs{o.log_dir};
  check_output("--archive", o.archive, OutputKind::salvage_archive, inputs);
  const forecast::RestartScope scope{topic_regex(t), t.exclude_internal};
  cluster::ClusterClient client(settings_from(c));
  StepProgress progress(globals, "salvage");
  progress.step(0, 0, "forecasting the restart");
  const forecast::RestartForecast f =
      forecast::forecast_restart(o.log_dir, o.broker, client, scope);
  progress.step(0, 0, "reading the removed records");
  forecast::SalvageResult result;
  archive_and_report(
      o, inputs, [&f](const auto& visit) { return forecast::salvage_restart(f, visit); }, result);
  progress.done();
  return finish(o, result, globals);
}

int run(const ConnectionOptions& c, const TopicOptions& t, SalvageOptions o,
        const Globals& globals) {
  if (!o.log_dir.empty()) return run_live(c, t, o, globals);
  if (o.followers.empty())
    throw UsageError(
        "give the replicas that will truncate (and --leader or --elect), or "
        "--log-dir with a cluster to reach");
  std::vector<std::string> inputs = o.followers;
  if (!o.leader.empty()) inputs.push_back(o.leader);
  // Refused before anything is read: never an input, inside a log dir or a dir the run reads.
  check_output("--archive", o.archive, OutputKind::salvage_archive, inputs);
  std::optional<forecast::Election> election;
  if (o.elect) {
    election = forecast::elect_among(o.followers, o.election);
    if (!election->leader_argument)
      throw UsageError(
          fmt::format("no replica can lead ({}): nothing is truncated until one does; "
                      "give the state of an election that elects one",
                      election->change.election.branch));
  }
  const std::vector<std::string> arguments = leader_first(o.leader, o.followers, election);
  StepProgress progress(globals, "salvage");
  PairedPartitions paired =
      read_paired_replicas(arguments, LoadDepth::tail, /*first_required=*/true, progress);
  progress.step(0, 0, "forecasting the truncations");
  std::vector<std::vector<PartitionReplica>> groups;
  for (auto& g : paired.groups)
    groups.push_back(std::move(g.replicas));
  // The forecast predict makes (fetch mode: every KRaft broker), so the archive holds what
  // predict says is removed.
  // The leaders' tails are read once, for the forecast and for what each leader holds; the
  // followers' removed tails once, by the archive's walk, which counts the removed records
  // the report gives (RemovedTailRead::deferred: the forecast reads each tail's first batch).
  // The followers' comparisons with the leader (predict's timeline, and the kept divergent
  // batches below the truncation offset) are not made: nothing salvage writes or reports
  // depends on them, and for a long divergent tail they read both tails' batch headers again.
  // The groups are kept for a failure's sake (below).
  const std::vector<std::vector<PartitionReplica>> kept_groups = groups;
  const std::optional<forecast::Election> kept_election = election;
  // The result points into the predictions (their replicas): both live to the report.
  std::optional<forecast::TruncationPredictions> predictions;
  forecast::SalvageResult result;
  try {
    forecast::LeaderTails tails;
    predictions = forecast::predict_truncations(
        std::move(groups), {TruncationMode::fetch}, election ? &*election : nullptr,
        [&tails](const PartitionReplica& leader, std::int64_t from, std::int64_t until) {
          return tails.batches(leader, from, until);
        },
        RemovedTailRead::deferred, forecast::ReplicaComparisons::skipped);
    progress.step(0, 0, "reading the removed records");
    const bool clean = election && election->clean();
    archive_and_report(
        o, inputs,
        [&](const auto& visit) {
          return forecast::salvage_removed(*predictions, clean, visit, &tails);
        },
        result);
  } catch (...) {
    // The error a run reports is the first the reads meet in their order: the forecast's
    // walks of every follower's removed tail (and of the leaders' tails it asks), before the
    // archive is begun, then the archive's walks. This run read less before the archive and
    // counted in the archive's walk, and made no comparison: a failure is checked against the
    // counted forecast with its comparisons, whose error, if it meets one, is the one to
    // report (the archive is gone either way).
    const std::exception_ptr failed = std::current_exception();
    std::optional<forecast::Election> again = kept_election;
    forecast::LeaderTails tails;
    forecast::predict_truncations(
        kept_groups, {TruncationMode::fetch}, again ? &*again : nullptr,
        [&tails](const PartitionReplica& leader, std::int64_t from, std::int64_t until) {
          return tails.batches(leader, from, until);
        });
    std::rethrow_exception(failed);
  }
  progress.done();
  return finish(o, result, globals);
}

}  // namespace

void register_salvage(CLI::App& app, Globals& globals) {
  static ConnectionOptions c;
  static TopicOptions t;
  static SalvageOptions o;
  CLI::App* cmd = app.add_subcommand(
      "salvage",
      "Keep the records a follower's truncation will remove, in an archive for `kepoch replay`");
  cmd->add_option("--archive", o.archive,
                  "The archive to write (JSON Lines, docs/salvage-archive.md); never inside a "
                  "log dir or a dir kepoch reads")
      ->required()
      ->type_name("FILE");
  CLI::Option* leader = cmd->add_option("--leader", o.leader,
                                        "The new leader's replica: a replica dir, a log dir, a "
                                        "snapshot file or SNAPSHOT:TOPIC-PARTITION")
                            ->type_name("REPLICA");
  cmd->add_option("followers", o.followers,
                  "The replicas that will truncate: replica dirs or log dirs (their records are "
                  "read; with --elect: every replica)")
      ->type_name("REPLICA");
  CLI::Option* elect = cmd->add_flag(
      "--elect", o.elect,
      "Choose the leader among the DIRs as the KRaft controller would (PartitionChangeBuilder)");
  elect->excludes(leader);
  add_election_options(cmd, elect, o.election);
  CLI::Option* log_dir = cmd->add_option("--log-dir", o.log_dir,
                                         "A stopped broker's log dir, against the live cluster "
                                         "(as `cluster predict`): give the connection options")
                             ->type_name("DIR");
  cmd->add_option("--broker", o.broker,
                  "With --log-dir: the stopped broker's id (default: node.id in meta.properties)")
      ->needs(log_dir)
      ->type_name("ID");
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->footer(
      "Examples:\n"
      "  kepoch salvage --archive /root/orders-0.salvage.jsonl --leader b2/orders-0 b1/orders-0\n"
      "  kepoch salvage --archive lost.jsonl --elect --ids 1,2,3 --isr 1 --alive 2,3 --unclean "
      "b1/orders-0 b2/orders-0 b3/orders-0\n"
      "  kepoch salvage --archive lost.jsonl -b kafka-1:9092 --log-dir /var/lib/kafka/data  # "
      "live\n"
      "  jq -c 'select(.class==\"data\") | {offset, key: (.key|@base64d)}' lost.jsonl\n"
      "\nRun it on the host of the replica that will truncate, before its broker starts: the\n"
      "forecast is predict's (fetch mode), or with --log-dir `cluster predict`'s against the\n"
      "live leaders, and every record it removes from each follower is\n"
      "written to the archive with its offset, leader epoch, timestamp, key, value and headers\n"
      "(base64), producer id/epoch/sequence, its class (data, committed_transaction, aborted,\n"
      "open, control), whether it was committed, and whether the new leader holds it already\n"
      "(same batch or producer sequence: certain; same key, value and headers: likely).\n"
      "Replay with `kepoch replay ARCHIVE`. Exit status: 0 nothing a consumer reads is lost\n"
      "(every removed data record is on the new leader already, or nothing is removed), 1\n"
      "records to replay are in the archive, 2 usage, 3 unreadable input (the archive is then\n"
      "not written).");
  cmd->callback([&globals] { globals.exit_code = run(c, t, o, globals); });
}

}  // namespace kepoch::cli
