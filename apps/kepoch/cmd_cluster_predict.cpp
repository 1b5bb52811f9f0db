// kepoch cluster predict --log-dir DIR
// A stopped broker's log dir against the live cluster: for each of its replicas, what the
// restart does (stray, follows a leader, leads, stays leaderless) and, for a follower, where
// it truncates against its live leader's answers, with `predict`'s engine and counts.

#include <fmt/format.h>

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/forecast/restart_forecast.hpp"
#include "kepoch/forecast/salvage.hpp"
#include "kepoch/report/restart_report.hpp"
#include "kepoch/report/summary.hpp"

namespace kepoch::cli {
namespace {

struct PredictOptions {
  std::string log_dir;
  std::optional<std::int32_t> broker;
  bool details = false;
};

int run(const ConnectionOptions& c, const TopicOptions& t, const PredictOptions& o,
        const Globals& globals) {
  const forecast::RestartScope scope{topic_regex(t), t.exclude_internal};
  cluster::ClusterClient client(settings_from(c));
  const forecast::RestartForecast f =
      forecast::forecast_restart(o.log_dir, o.broker, client, scope);
  report::Value value = report::restart_value(f, o.details);
  // Records will be lost: the command that keeps them first, on this very forecast.
  if (forecast::restart_loses_records(f))
    value.set("salvage", "kepoch salvage --archive salvage.jsonl --log-dir " + o.log_dir +
                             (o.broker ? " --broker " + std::to_string(*o.broker) : "") +
                             " (with this command's connection options)");
  emit(report::with_summary(value, report::restart_summary(value)), globals);
  return report::committed_loss_possible(f) ? kFindings : kOk;
}

}  // namespace

void register_cluster_predict(CLI::App* group, Globals& globals) {
  static ConnectionOptions c;
  static TopicOptions t;
  static PredictOptions o;
  CLI::App* cmd = group->add_subcommand(
      "predict",
      "Where a stopped broker's replicas truncate when it starts again, against the live "
      "leaders; which would lose committed records");
  cmd->add_option("--log-dir", o.log_dir, "The stopped broker's log dir (log.dirs)")
      ->required()
      ->type_name("DIR");
  cmd->add_option("--broker", o.broker,
                  "The stopped broker's id (default: node.id in the log dir's meta.properties)")
      ->type_name("ID");
  cmd->add_flag("--details", o.details,
                "Add each follower's forecast in `kepoch predict`'s shape: the leader's "
                "answers, the rounds, the epochs after");
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->footer(
      "Examples:\n"
      "  kepoch cluster predict -b kafka-1:9092 --log-dir /var/lib/kafka/data  # live\n"
      "  kepoch cluster predict --cluster prod --log-dir /mnt/broker-3/data --details -o json  # "
      "live\n"
      "  kepoch cluster predict -b kafka-1:9092 --log-dir /var/lib/kafka/data --topic 'orders.*'  "
      "# live\n"
      "\nRun it while the broker is stopped, on its log dir (read-only). For every replica in\n"
      "it: stray (the cluster deleted or moved the partition: Kafka deletes the replica),\n"
      "follows (truncates against the live leader, which kepoch asks with\n"
      "OffsetForLeaderEpoch, the lookup a follower's fetch runs), leads (no live leader and\n"
      "the controller elects this broker when it returns), fails (truncates, then its first\n"
      "fetch throws UnexpectedAppendOffsetException and Kafka marks the partition failed),\n"
      "leaderless, or unanswered.\n"
      "Exit status: 0 no committed record would be lost, 1 some would, a replica fails, or\n"
      "kepoch cannot rule these out (records it could not read at the leader, a leader it\n"
      "could not ask), 2 usage,\n"
      "3 the log dir or a settings file cannot be read, 4 the cluster cannot be reached or\n"
      "refused us.");
  cmd->callback([&globals] { globals.exit_code = run(c, t, o, globals); });
}

}  // namespace kepoch::cli
