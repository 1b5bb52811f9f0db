// kepoch_fetch_probe: the test seam of ClusterClient::leader_batches until `kepoch cluster
// predict` uses it (tests/oracle/fetch-vs-kafka.sh drives it). It reads the cluster's view
// of one partition (leader, leader epoch, topic id), then the leader's batch headers from
// --from to --until with consumer Fetch requests, and prints one line each:
//   leader N epoch E           (the cluster's view)
//   batch BASE LAST RECORDS CRC PARTITION_LEADER_EPOCH
//   complete true|false
//   high_watermark N
//   log_start_offset N
//   note TEXT                  (zero or more)
// --broker asks another broker than the leader; --leader-epoch sends another epoch than the
// view's (to see Kafka fence it); --no-topic-id leaves the id out (Fetch v12, by name).
// Errors: one line on stderr; exit 4 (cluster), 3 (a file), 2 (usage).
#include <CLI/CLI.hpp>

#include <iostream>
#include <limits>
#include <optional>
#include <regex>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/settings_sources.hpp"

namespace {

using namespace kepoch::cluster;

struct ProbeArgs {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t from = 0;
  std::int64_t until = std::numeric_limits<std::int64_t>::max();
  std::int32_t broker = -1;  // -1: the partition's leader
  std::optional<std::int32_t> leader_epoch;
  bool no_topic_id = false;
};

int probe(const ConnectionFlags& flags, const ProbeArgs& args) {
  ClusterClient client(resolve_connection_settings(flags, SettingsEnvironment::from_process()));
  ViewRequest request;
  request.topic = std::regex(args.topic, std::regex::ECMAScript);
  request.configs = false;
  request.offsets = false;
  request.log_dirs = false;
  const auto view = client.read_view(request);
  const auto* p = view.find_partition(args.topic, args.partition);
  if (!p) {
    std::cerr << "kepoch_fetch_probe: no partition " << args.topic << '-' << args.partition
              << " in the cluster's metadata\n";
    return 4;
  }
  std::string topic_id;
  for (const auto& t : view.topics)
    if (t.name == args.topic && !args.no_topic_id) topic_id = t.topic_id;
  const std::int32_t broker = args.broker >= 0 ? args.broker : p->leader;
  std::cout << "leader " << p->leader << " epoch " << p->leader_epoch << '\n';
  const auto batches =
      client.leader_batches(broker, args.topic, topic_id, args.partition,
                            args.leader_epoch.value_or(p->leader_epoch), args.from, args.until);
  for (const auto& b : batches.batches)
    std::cout << "batch " << b.base_offset << ' ' << b.last_offset << ' ' << b.records << ' '
              << b.crc << ' ' << b.partition_leader_epoch << '\n';
  std::cout << "complete " << (batches.complete ? "true" : "false") << '\n'
            << "high_watermark " << batches.high_watermark << '\n'
            << "log_start_offset " << batches.log_start_offset << '\n';
  for (const auto& n : batches.notes)
    std::cout << "note " << n << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kepoch_fetch_probe: a partition leader's record batch headers, by Fetch"};
  ConnectionFlags flags;
  ProbeArgs args;
  std::string bootstrap;
  app.add_option("-b,--bootstrap", bootstrap, "HOST:PORT[,...]")->required();
  app.add_option("--topic", args.topic, "topic name")->required();
  app.add_option("--partition", args.partition, "partition index");
  app.add_option("--from", args.from, "first offset");
  app.add_option("--until", args.until, "end offset (exclusive); default: no end");
  app.add_option("--broker", args.broker, "ask this broker instead of the leader");
  app.add_option("--leader-epoch", args.leader_epoch, "current leader epoch to send");
  app.add_flag("--no-topic-id", args.no_topic_id, "name the topic (Fetch v12), not its id");
  CLI11_PARSE(app, argc, argv);
  flags.bootstrap = bootstrap;
  try {
    return probe(flags, args);
  } catch (const ClusterError& e) {
    std::cerr << "kepoch_fetch_probe: " << e.what() << '\n';
    return 4;
  } catch (const kepoch::InputError& e) {
    std::cerr << "kepoch_fetch_probe: " << e.what() << '\n';
    return 3;
  } catch (const kepoch::UsageError& e) {
    std::cerr << "kepoch_fetch_probe: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kepoch_fetch_probe: internal error: " << e.what() << '\n';
    return 1;
  }
}
