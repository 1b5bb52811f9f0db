// kepoch cluster describe|watch|audit (predict and what-if: cmd_cluster_predict.cpp,
// cmd_cluster_what_if.cpp)
// The live cluster as Kafka's own clients reach it (bootstrap, -X librdkafka properties,
// the Java client's --command-config, named profiles): leaders with their epochs, ISR, ELR,
// offsets and replica sizes; the changes of leadership and ISR as they happen; and the
// durability risks of each topic.

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <regex>

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/live/cluster_events.hpp"
#include "kepoch/live/durability_audit.hpp"
#include "kepoch/live/hidden_topics.hpp"
#include "kepoch/report/cluster_report.hpp"
#include "kepoch/report/event_stream.hpp"
#include "kepoch/report/hidden_topics_report.hpp"

namespace kepoch::cli {
namespace {

struct DescribeOptions {
  report::PartitionSelection selection;
  bool no_sizes = false;
};

struct WatchOptions {
  double interval_seconds = 1;
  std::optional<double> duration_seconds;
  std::optional<int> count;
};

// The report with "profile" after "metadata_from": which named profile reached the
// cluster and what chose it (--cluster, KEPOCH_CLUSTER, the config file's current_profile),
// or null when none did (-b, --command-config).
report::Value with_profile(const report::Value& value, const cluster::ConnectionSettings& s) {
  report::Value profile;
  if (!s.profile.empty())
    profile = report::Value::object().set("name", s.profile).set("chosen_by", s.profile_chosen_by);
  report::Value out = report::Value::object();
  for (const auto& [k, v] : value.as_object()) {
    out.set(k, v);
    if (k == "metadata_from") out.set("profile", profile);
  }
  return out;
}

int run_describe(const ConnectionOptions& c, const TopicOptions& t, const DescribeOptions& o,
                 const Globals& globals) {
  const cluster::ConnectionSettings settings = settings_from(c);
  cluster::ClusterClient client(settings);
  const live::ClusterView view = client.read_view(view_request(t, !o.no_sizes));
  const live::HiddenTopics hidden = live::read_hidden_topics(client);
  const auto topic = topic_regex(t);
  const report::Value value =
      with_profile(report::with_hidden_topics(report::cluster_describe_value(view, o.selection),
                                              hidden, topic, "partitions"),
                   settings);
  emit(value, globals);
  // With a report flag, a listed partition is the finding (scripts: `|| page-oncall`), and so
  // are partitions withheld from this principal: they may be the ones the flag selects.
  if (!o.selection.any()) return kOk;
  return !value.find("partitions")->as_array().empty() || hidden.may_withhold(topic) ? kFindings
                                                                                     : kOk;
}

int run_audit(const ConnectionOptions& c, const TopicOptions& t, const Globals& globals) {
  cluster::ClusterClient client(settings_from(c));
  cluster::ViewRequest request = view_request(t, false);
  request.offsets = false;
  const live::ClusterView view = client.read_view(request);
  const auto findings = live::audit_cluster(view);
  // Topics withheld from this principal are not in the view: their risks are not known.
  const live::HiddenTopics hidden = live::read_hidden_topics(client);
  const auto topic = topic_regex(t);
  emit(report::with_hidden_topics(report::cluster_audit_value(view, findings), hidden, topic,
                                  "settings and partition risks"),
       globals);
  if (hidden.may_withhold(topic)) return kFindings;
  for (const auto& f : findings)
    if (f.severity == live::Severity::risk) return kFindings;
  return kOk;
}

// ---- watch ---------------------------------------------------------------------------------

volatile sig_atomic_t g_interrupted = 0;

void on_interrupt(int) {
  g_interrupted = 1;
}

// Ctrl-C (and SIGTERM) end the watch after the current poll, with the summary.
void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Sleeps up to `ms`, waking early on a signal.
void pause_ms(std::int64_t ms) {
  if (ms > 0 && !g_interrupted) ::poll(nullptr, 0, static_cast<int>(ms));
}

int run_watch(const ConnectionOptions& c, const TopicOptions& t, const WatchOptions& o,
              const Globals& globals) {
  if (o.interval_seconds <= 0) throw UsageError("--interval must be above 0 seconds");
  install_interrupt_handlers();
  cluster::ClusterClient client(settings_from(c));
  cluster::ViewRequest request = view_request(t, false);
  request.offsets = false;
  request.configs = false;

  const auto format = globals.render_format();
  report::EventStream events(format, std::cout);
  const std::int64_t started = now_ms();
  const std::int64_t interval = to_ms(o.interval_seconds).count();
  std::optional<std::int64_t> deadline;
  if (o.duration_seconds) deadline = started + to_ms(*o.duration_seconds).count();

  live::ClusterView previous = client.read_view(request);
  std::map<std::string, int> counts;
  int total = 0, polls = 1;
  const auto done = [&] {
    return g_interrupted || (o.count && total >= *o.count) || (deadline && now_ms() >= *deadline);
  };
  while (!done()) {
    std::int64_t next = now_ms() + interval;
    pause_ms(deadline ? std::min(next, *deadline) - now_ms() : next - now_ms());
    if (done()) break;
    live::ClusterView current = client.read_view(request);
    ++polls;
    const std::int64_t seen = now_ms();
    for (const auto& e : live::events_between(previous, current)) {
      events.write(report::cluster_event_value(e, seen));
      ++counts[std::string(live::event_kind_name(e.kind))];
      ++total;
      if (o.count && total >= *o.count) break;
    }
    previous = std::move(current);
  }
  report::Value by_kind = report::Value::object();
  for (const auto& [kind, n] : counts)
    by_kind.set(kind, n);
  events.write_summary(report::Value::object().set(
      "summary", report::Value::object()
                     .set("seconds", static_cast<double>(now_ms() - started) / 1000.0)
                     .set("polls", polls)
                     .set("events", total)
                     .set("by_event", std::move(by_kind))
                     .set("interrupted", g_interrupted != 0)));
  return kOk;
}

// ---- flags ---------------------------------------------------------------------------------

void register_describe(CLI::App* group, Globals& globals) {
  static ConnectionOptions c;
  static TopicOptions t;
  static DescribeOptions o;
  CLI::App* cmd = group->add_subcommand(
      "describe",
      "Per partition: leader, leader epoch, replicas, ISR, ELR, log start, high watermark, "
      "replica sizes and lag");
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  auto& s = o.selection;
  cmd->add_flag("--under-replicated-partitions", s.under_replicated,
                "Only partitions whose ISR is smaller than their replica set");
  cmd->add_flag("--under-min-isr-partitions", s.under_min_isr,
                "Only partitions without a leader or with fewer in ISR than min.insync.replicas");
  cmd->add_flag("--at-min-isr-partitions", s.at_min_isr,
                "Only partitions whose ISR size equals min.insync.replicas");
  cmd->add_flag("--unavailable-partitions", s.unavailable,
                "Only partitions without a leader or whose leader is not a live broker");
  cmd->add_flag("--leader-not-preferred", s.leader_not_preferred,
                "Only partitions led by a replica other than the first of the assignment");
  cmd->add_flag(
      "--no-sizes", o.no_sizes,
      "Skip DescribeLogDirs and each replica's ListOffsets (replica sizes, lag and log end "
      "offsets) for a faster answer");
  cmd->footer(
      "Examples:\n"
      "  kepoch cluster describe -b kafka-1:9092 --topic 'orders.*'  # live\n"
      "  kepoch cluster describe --cluster prod --under-min-isr-partitions -o json  # live\n"
      "  kepoch cluster describe -b kafka-1:9093 --command-config admin.properties  # live\n"
      "  kepoch profile use prod && kepoch cluster describe  # live\n"
      "\nWithout -b, --cluster or --command-config, the profile `kepoch profile use` made\n"
      "current is used; `profile` in the report says which profile was used and what chose it.\n"
      "The report flags select like kafka-topics --describe (a partition shows when it\n"
      "matches any flag given); the summary counts every partition of the selected topics.\n"
      "With an authorizer, Metadata leaves out without a word the topics this principal may\n"
      "not Describe: unless the broker has no authorizer (DescribeAcls), each broker is asked for\n"
      "the topics it holds (DescribeLogDirs, even with --no-sizes) and the ones Metadata\n"
      "withholds are named (hidden_topics, a warning each); their partitions are not known.\n"
      "Exit status: 0 ok, 1 a report flag was given and partitions match it or topics may be\n"
      "withheld, 2 usage,\n"
      "3 a settings file cannot be read, 4 the cluster cannot be reached or refused us.");
  cmd->callback([&globals] { globals.exit_code = run_describe(c, t, o, globals); });
}

void register_watch(CLI::App* group, Globals& globals) {
  static ConnectionOptions c;
  static TopicOptions t;
  static WatchOptions o;
  CLI::App* cmd = group->add_subcommand(
      "watch",
      "Poll the cluster and print an event per change: leader (with its epoch), ISR shrink "
      "or expand, ELR, replicas, partitions offline or back, brokers gone or back");
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->add_option("--interval", o.interval_seconds, "Seconds between polls")
      ->type_name("SECONDS")
      ->default_str("1")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--duration", o.duration_seconds, "Stop after this many seconds")
      ->type_name("SECONDS")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--count", o.count, "Stop after this many events")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  cmd->footer(
      "Examples:\n"
      "  kepoch cluster watch -b kafka-1:9092 --topic orders  # live\n"
      "  kepoch cluster watch --cluster prod -o json --duration 600 > events.ndjson  # live\n"
      "\nOne line per event (-o json: one JSON object per line); Ctrl-C, --duration or\n"
      "--count end it with a summary of what was seen.\n"
      "Exit status: 0 ended, 2 usage, 3 a settings file cannot be read, 4 the cluster cannot\n"
      "be reached (at the start, or no broker answers within --timeout later).");
  cmd->callback([&globals] { globals.exit_code = run_watch(c, t, o, globals); });
}

void register_audit(CLI::App* group, Globals& globals) {
  static ConnectionOptions c;
  static TopicOptions t;
  CLI::App* cmd = group->add_subcommand(
      "audit",
      "Durability risks per topic: replication factor below 3, min.insync.replicas of 1 or "
      "not below the replication factor, unclean election, partitions at or under min ISR");
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->footer(
      "Examples:\n"
      "  kepoch cluster audit -b kafka-1:9092  # live\n"
      "  kepoch cluster audit --cluster prod --exclude-internal -o json  # live\n"
      "\nRisks (exit 1): replication_factor_below_3, min_isr_one, min_isr_not_below_rf,\n"
      "unclean_election_enabled, configs_unknown (the settings these are judged by could not\n"
      "be read), under_min_isr, unavailable. Warnings (listed, exit 0):\n"
      "at_min_isr, leader_not_preferred.\n"
      "Topics withheld from this principal (an authorizer: Metadata leaves them out) are\n"
      "named in hidden_topics; their risks are not known.\n"
      "Exit status: 0 no risk, 1 risks found or topics may be withheld, 2 usage, 3 a settings\n"
      "file cannot be read, 4 the cluster cannot be reached or refused us.");
  cmd->callback([&globals] { globals.exit_code = run_audit(c, t, globals); });
}

}  // namespace

void register_cluster(CLI::App& app, Globals& globals) {
  CLI::App* group = app.add_subcommand(
      "cluster", "Ask a live cluster: leaders, epochs and ISR, their changes, durability risks");
  group->require_subcommand(1);
  register_describe(group, globals);
  register_watch(group, globals);
  register_audit(group, globals);
  register_cluster_predict(group, globals);
  register_cluster_what_if(group, globals);
  register_cluster_hanging(group, globals);
  register_cluster_groups(group, globals);
  register_cluster_remote_log_metadata(group, globals);
  group->footer(
      "Examples:\n"
      "  kepoch cluster describe -b kafka-1:9092  # live\n"
      "  kepoch cluster watch -b kafka-1:9092 --topic orders  # live\n"
      "  kepoch cluster audit --cluster prod  # live\n"
      "  kepoch cluster predict -b kafka-1:9092 --log-dir /var/lib/kafka/data  # live\n"
      "  kepoch cluster what-if -b kafka-1:9092 --stop 2  # live\n"
      "  kepoch cluster hanging -b kafka-1:9092 --topic orders  # live\n"
      "  kepoch cluster groups -b kafka-1:9092 --topic orders  # live\n"
      "\nExit status: 0 ok, 1 findings, 2 usage error, 3 unreadable settings file, 4 cluster\n"
      "error.");
}

}  // namespace kepoch::cli
