// kepoch cluster what-if --stop BROKER[,BROKER...] [--kill]
// Planned maintenance, before it happens: what the controller (KRaft or ZooKeeper mode) would do to
// every partition of the selected topics if these brokers stopped now, one after another (new
// leaders, ISR, ELR), and which partitions would refuse acks=all writes, lose their leader,
// or be led uncleanly. The rule is live::forecast_stop; this file reads the cluster and
// checks the command line.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "group_fate_options.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/forecast/live_group_fate.hpp"
#include "kepoch/live/hidden_topics.hpp"
#include "kepoch/live/stop_forecast.hpp"
#include "kepoch/report/group_fate_report.hpp"
#include "kepoch/report/hidden_topics_report.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/report/what_if_report.hpp"

namespace kepoch::cli {
namespace {

struct WhatIfOptions {
  std::vector<std::int32_t> stop;
  bool kill = false;
  bool groups = false;
};

void check_distinct(const std::vector<std::int32_t>& stop) {
  std::set<std::int32_t> seen;
  for (auto id : stop)
    if (!seen.insert(id).second)
      throw UsageError(fmt::format("--stop: broker {} is named twice", id));
}

// Only a running broker can be stopped; name the ones that run.
void check_alive(const live::ClusterView& view, const std::vector<std::int32_t>& stop) {
  const auto missing = live::brokers_not_alive(view, stop);
  if (missing.empty()) return;
  const auto alive = view.live_broker_ids();
  throw UsageError(fmt::format(
      "--stop: broker{} {} {} not alive in the cluster (alive brokers: {})",
      missing.size() == 1 ? "" : "s", fmt::join(missing, ", "), missing.size() == 1 ? "is" : "are",
      alive.empty() ? std::string("none") : fmt::format("{}", fmt::join(alive, ", "))));
}

int run_what_if(const ConnectionOptions& c, const TopicOptions& t, const WhatIfOptions& o,
                const Globals& globals) {
  check_distinct(o.stop);
  cluster::ViewRequest request = view_request(t, /*sizes=*/false);
  request.offsets = false;
  cluster::ClusterClient client(settings_from(c));
  const live::ClusterView view = client.read_view(request);
  check_alive(view, o.stop);
  const auto kind = o.kill ? live::ShutdownKind::kill : live::ShutdownKind::controlled;
  const live::StopForecast forecast = live::forecast_stop(view, o.stop, kind);
  // Partitions of topics withheld from this principal are not in the view: their fates are
  // not known, never safe.
  const live::HiddenTopics hidden = live::read_hidden_topics(client);
  const auto topic = topic_regex(t);
  report::Value value = report::with_hidden_topics(report::what_if_value(view, forecast), hidden,
                                                   topic, "partitions' fates");
  std::string sentence = report::what_if_summary(value);
  if (const auto h = report::hidden_topics_sentence(hidden, topic, "partitions' fates"); !h.empty())
    sentence += " " + h;
  bool groups_hit = false;
  if (o.groups) {
    // Each group with an offset where the stops elect uncleanly (offsets read live, as
    // `cluster groups` reads them): unknown, the elected replica's log is not here.
    std::vector<std::string> warnings;
    const auto live = forecast::read_live_group_offsets(client, warnings);
    report::Value groups = report::Value::array();
    for (const auto& p : forecast::stop_group_fates(forecast, live))
      groups.push(report::live_group_fates_value(p, live.complete));
    report::Value list = report::Value::array();
    for (auto& w : warnings)
      list.push(std::move(w));
    const std::string g = report::live_group_fates_summary(groups);
    if (!g.empty()) sentence += " " + g;
    groups_hit = report::live_groups_affected(groups);
    value.set("consumer_groups", std::move(groups));
    value.set("group_warnings", std::move(list));
  }
  emit(report::with_summary(value, sentence), globals);
  return live::count_outcomes(forecast).findings() || groups_hit || hidden.may_withhold(topic)
             ? kFindings
             : kOk;
}

}  // namespace

void register_cluster_what_if(CLI::App* group, Globals& globals) {
  static ConnectionOptions c;
  static TopicOptions t;
  static WhatIfOptions o;
  CLI::App* cmd = group->add_subcommand(
      "what-if",
      "Before maintenance: what the controller would do to each partition if these brokers "
      "stopped now (leaders, ISR, ELR), and which would fall under min ISR, go offline or be "
      "led uncleanly");
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->add_option("--stop", o.stop,
                  "Brokers to stop, in this order, each fully handled by the controller before "
                  "the next")
      ->type_name("BROKER[,BROKER...]")
      ->delimiter(',')
      ->required()
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--kill", o.kill,
                "A crash (kill -9) instead of a controlled shutdown (kafka-server-stop, "
                "SIGTERM): the same leaders, ISR and ELR once the controller fences the "
                "broker, but only after broker.session.timeout.ms, and with ELR the broker "
                "leaves the ELR when it comes back");
  cmd->add_flag("--groups", o.groups,
                "List the consumer groups with committed offsets (read live) on each partition "
                "the stops lead uncleanly: their fate is unknown here");
  cmd->footer(
      "Examples:\n"
      "  kepoch cluster what-if -b kafka-1:9092 --stop 2  # live\n"
      "  kepoch cluster what-if -b kafka-1:9092 --stop 2,3 --groups -o json  # live\n"
      "  kepoch cluster what-if --cluster prod --stop 2,3 --topic 'orders.*' -o json  # live\n"
      "  kepoch cluster what-if -b kafka-1:9092 --stop 3 --kill  # live\n"
      "\nThe controller's own rules (KRaft: ReplicationControlManager, PartitionChangeBuilder;\n"
      "a ZooKeeper-mode cluster: KafkaController, PartitionStateMachine, ReplicaStateMachine,\n"
      "which bump the leader epoch whenever a broker leaves an ISR) on the cluster as it is\n"
      "now: the alive brokers, each partition's ISR and ELR, the topics'\n"
      "min.insync.replicas and unclean.leader.election.enable, ELR on or off (the finalized\n"
      "eligible.leader.replicas.version); assumes no reassignment in progress.\n"
      "--groups: where a partition would be led uncleanly, each group with a committed offset\n"
      "there (OffsetFetch, as `cluster groups` reads them) is listed as unknown: the elected\n"
      "replica's log is on its broker, and its fate is `cluster predict --groups`' (on that\n"
      "log dir) or `predict --offsets`'. A clean election keeps every committed record.\n"
      "Exit status: 0 no partition would be under min ISR, unavailable or led uncleanly,\n"
      "1 some would, or a consumer group's fate is unknown (--groups), or topics may be withheld\n"
      "from this principal (hidden_topics: their partitions' fates are not known), 2 usage (e.g. "
      "--stop names "
      "a broker that is not alive), 3 a settings\n"
      "file cannot be read, 4 the cluster cannot be reached or refused us.");
  cmd->callback([&globals] { globals.exit_code = run_what_if(c, t, o, globals); });
}

}  // namespace kepoch::cli
