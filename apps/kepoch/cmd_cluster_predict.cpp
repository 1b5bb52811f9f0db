// kepoch cluster predict --log-dir DIR
// A stopped broker's log dir against the live cluster: for each of its replicas, what the
// restart does (stray, follows a leader, leads, stays leaderless) and, for a follower, where
// it truncates against its live leader's answers, with `predict`'s engine and counts.

#include <fmt/format.h>

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "group_fate_options.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/forecast/live_group_fate.hpp"
#include "kepoch/forecast/restart_forecast.hpp"
#include "kepoch/forecast/salvage.hpp"
#include "kepoch/report/group_fate_report.hpp"
#include "kepoch/report/restart_report.hpp"
#include "kepoch/report/summary.hpp"

namespace kepoch::cli {
namespace {

struct PredictOptions {
  std::string log_dir;
  std::optional<std::int32_t> broker;
  bool details = false;
  bool groups = false;
  GroupFateOptions fate;
};

int run(const ConnectionOptions& c, const TopicOptions& t, const PredictOptions& o,
        const Globals& globals) {
  const forecast::RestartScope scope{topic_regex(t), t.exclude_internal};
  cluster::ClusterClient client(settings_from(c));
  forecast::RestartForecast f = forecast::forecast_restart(o.log_dir, o.broker, client, scope);
  // The partitions this broker leads when it returns: consumers meet its log (the rules are
  // forecast/consumer_fate's, the offsets read live as `cluster groups` reads them).
  std::optional<report::Value> groups;
  if (o.groups) {
    const auto live = forecast::read_live_group_offsets(client, f.warnings);
    groups = report::Value::array();
    for (const auto& p :
         forecast::restart_group_fates(f, live, o.fate.policies(), o.fate.consumer_client()))
      groups->push(report::live_group_fates_value(p, live.complete));
  }
  report::Value value = report::restart_value(f, o.details);
  if (groups) value.set("consumer_groups", *groups);
  // Records will be lost: the command that keeps them first, on this very forecast.
  if (forecast::restart_loses_records(f))
    value.set("salvage", "kepoch salvage --archive salvage.jsonl --log-dir " + o.log_dir +
                             (o.broker ? " --broker " + std::to_string(*o.broker) : "") +
                             " (with this command's connection options)");
  std::string sentence = report::restart_summary(value);
  if (groups) {
    const std::string g = report::live_group_fates_summary(*groups);
    if (!g.empty()) sentence += " " + g;
  }
  emit(report::with_summary(value, sentence), globals);
  const bool groups_hit = groups && report::live_groups_affected(*groups);
  return report::committed_loss_possible(f) || groups_hit ? kFindings : kOk;
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
  cmd->add_flag("--groups", o.groups,
                "Forecast each consumer group's next fetch on the partitions this broker will "
                "lead: committed offsets and leader epochs read live (OffsetFetch), judged "
                "against this replica's log");
  add_group_policy_options(cmd, o.fate);
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->footer(
      "Examples:\n"
      "  kepoch cluster predict -b kafka-1:9092 --log-dir /var/lib/kafka/data  # live\n"
      "  kepoch cluster predict --cluster prod --log-dir /mnt/broker-3/data --details -o json  # "
      "live\n"
      "  kepoch cluster predict -b kafka-1:9092 --log-dir /var/lib/kafka/data --topic 'orders.*'  "
      "# live\n"
      "  kepoch cluster predict -b kafka-1:9092 --log-dir /var/lib/kafka/data --groups  # live\n"
      "\nRun it while the broker is stopped, on its log dir (read-only). For every replica in\n"
      "it: stray (the cluster deleted or moved the partition: Kafka deletes the replica),\n"
      "follows (truncates against the live leader, which kepoch asks with\n"
      "OffsetForLeaderEpoch, the lookup a follower's fetch runs), leads (no live leader and\n"
      "the controller elects this broker when it returns), fails (truncates, then its first\n"
      "fetch throws UnexpectedAppendOffsetException and Kafka marks the partition failed),\n"
      "leaderless, or unanswered.\n"
      "--groups: where this broker leads, consumers meet its log. Each group's committed\n"
      "offset and leader epoch (read live, as `cluster groups` reads them) is judged as\n"
      "`predict --offsets` judges it: KIP-320's validation against this replica's epoch\n"
      "history, OFFSET_OUT_OF_RANGE and auto.offset.reset. The old leader's log is not here:\n"
      "without a committed epoch, what a group consumed (lost, re-read, skipped) is unknown.\n"
      "A group whose offsets could not be read is unknown. A follower's restart changes\n"
      "nothing consumers see.\n"
      "Exit status: 0 no committed record would be lost, 1 some would, a replica fails, a\n"
      "consumer group is (or may be) affected, or\n"
      "kepoch cannot rule these out (records it could not read at the leader, a leader it\n"
      "could not ask), 2 usage,\n"
      "3 the log dir or a settings file cannot be read, 4 the cluster cannot be reached or\n"
      "refused us.");
  cmd->callback([&globals] { globals.exit_code = run(c, t, o, globals); });
}

}  // namespace kepoch::cli
