// kepoch cluster hanging
// The live cluster's hanging transactions, found as `kafka-transactions.sh find-hanging`
// finds them (forecast/live_hanging), each with the abort command that ends it.

#include <fmt/format.h>

#include <chrono>

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/forecast/live_hanging.hpp"
#include "kepoch/live/hidden_topics.hpp"
#include "kepoch/report/hidden_topics_report.hpp"
#include "kepoch/report/live_hanging_report.hpp"

namespace kepoch::cli {
namespace {

struct HangingOptions {
  std::optional<std::int32_t> partition;
  std::optional<std::int32_t> broker;
  std::int32_t max_transaction_timeout_minutes = 15;
};

int run(const ConnectionOptions& c, const TopicOptions& t, const HangingOptions& o,
        const Globals& globals) {
  if (o.partition && !t.topic)
    throw UsageError("--partition needs --topic (as find-hanging's --partition does)");
  const cluster::ConnectionSettings settings = settings_from(c);
  cluster::ClusterClient client(settings);
  cluster::ViewRequest request = view_request(t, false);
  request.configs = false;
  request.offsets = false;
  request.log_dirs = false;
  const live::ClusterView view = client.read_view(request);
  forecast::LiveHangingScope scope;
  for (const auto& topic : view.topics)
    scope.topics.push_back(topic.name);
  scope.partition = o.partition;
  scope.broker = o.broker;
  scope.max_transaction_timeout_ms =
      static_cast<std::int64_t>(o.max_transaction_timeout_minutes) * 60 * 1000;
  std::string bootstrap;
  for (const auto& b : settings.bootstrap)
    bootstrap += (bootstrap.empty() ? "" : ",") + b.to_string();
  const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  const auto search = forecast::find_hanging_live(client, view, scope, now, bootstrap);
  // Partitions of topics withheld from this principal are not searched: not ruled out.
  const live::HiddenTopics hidden = live::read_hidden_topics(client);
  const auto topic = topic_regex(t);
  emit(report::with_hidden_topics(report::live_hanging_value(search), hidden, topic,
                                  "open transactions"),
       globals);
  return search.hanging() + search.unknown() > 0 || hidden.may_withhold(topic) ? kFindings : kOk;
}

}  // namespace

void register_cluster_hanging(CLI::App* group, Globals& globals) {
  static ConnectionOptions c;
  static TopicOptions t;
  static HangingOptions o;
  CLI::App* cmd = group->add_subcommand(
      "hanging",
      "Hanging transactions, as kafka-transactions.sh find-hanging finds them, each with the "
      "abort command that ends it");
  cmd->add_option("--partition", o.partition, "Only this partition of --topic")->type_name("N");
  cmd->add_option("--broker", o.broker,
                  "Only partitions with a replica on this broker, asked of it (find-hanging's "
                  "--broker-id)")
      ->type_name("ID");
  cmd->add_option("--max-transaction-timeout", o.max_transaction_timeout_minutes,
                  "Open transactions whose last write is older than this many minutes are "
                  "checked (default 15, find-hanging's)")
      ->type_name("MINUTES")
      ->check(CLI::NonNegativeNumber);
  add_connection_options(cmd, c);
  add_topic_options(cmd, t);
  cmd->footer(
      "Examples:\n"
      "  kepoch cluster hanging -b kafka-1:9092  # live\n"
      "  kepoch cluster hanging -b kafka-1:9092 --topic orders --max-transaction-timeout 0  # "
      "live\n"
      "  kepoch cluster hanging --cluster prod --broker 2 -o json  # live\n"
      "\nThe rule of Kafka's TransactionsCommand.FindHangingTransactionsCommand: each\n"
      "partition's leader (or --broker) lists its producers (DescribeProducers); a producer\n"
      "with a transaction open whose last write is older than --max-transaction-timeout is\n"
      "looked up by producer id on every broker (ListTransactions) and at its coordinator\n"
      "(DescribeTransactions). It hangs when no coordinator tracks the producer id, the\n"
      "coordinator has no state for its transactional id, or the transaction no longer\n"
      "includes the partition: no marker will come, and read_committed consumers stop at its\n"
      "start offset until `kafka-transactions.sh abort` (the abort_command of each row) ends\n"
      "it. What kepoch cannot ask is unknown (hanging null), never \"not hanging\"; the\n"
      "partitions of topics withheld from this principal (hidden_topics) are not searched.\n"
      "Exit status: 0 no transaction hangs, 1 some hang or cannot be ruled out, 2 usage,\n"
      "3 a settings file cannot be read, 4 the cluster cannot be reached or refused us.");
  cmd->callback([&globals] { globals.exit_code = run(c, t, o, globals); });
}

}  // namespace kepoch::cli
