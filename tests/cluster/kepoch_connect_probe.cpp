// kepoch_connect_probe: the test seam of lib/kepoch/cluster's connection layer until the
// cluster commands use it (tests/oracle/connect-vs-kafka.sh drives it). It resolves the
// settings as a command would (--cluster, --command-config, -X, -b, --timeout-ms), opens
// a BrokerChannel to the first bootstrap broker that answers and prints what was
// negotiated and the brokers of Metadata v12:
//   connected 127.0.0.1:9093 SASL_PLAINTEXT SCRAM-SHA-256
//   ApiVersions v4: the broker lists 87 APIs
//   Metadata v12: cluster <id>, controller 1
//   broker 1 127.0.0.1:9093
// -v first writes the settings with their sources (secrets redacted) to stderr.
// Errors: one line on stderr; exit 4 (cluster), 3 (a file), 2 (usage).
#include <CLI/CLI.hpp>

#include <iostream>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_connector.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/settings_sources.hpp"

namespace {

using namespace kepoch::cluster;
using protocol::ApiKey;

void print_settings(const ConnectionSettings& settings) {
  for (const auto& row : describe_settings(settings))
    std::cerr << row.key << " = " << row.value << "  (" << row.source << ")\n";
}

int probe(const ConnectionFlags& flags, bool verbose) {
  const auto settings = resolve_connection_settings(flags, SettingsEnvironment::from_process());
  if (verbose) print_settings(settings);
  ClusterConnector connector(settings);
  auto channel = connector.open_bootstrap();
  std::cout << "connected " << channel.peer() << ' ' << to_string(settings.security_protocol);
  if (settings.uses_sasl()) std::cout << ' ' << to_string(*settings.sasl_mechanism);
  std::cout << '\n'
            << "ApiVersions v" << channel.api_versions_version() << ": the broker lists "
            << channel.broker_versions().size() << " APIs\n";

  auto request = protocol::make_request_body(ApiKey::kMetadata);
  request.set_bool("allow_auto_topic_creation", false);
  const auto metadata = channel.send(ApiKey::kMetadata, 12, request);
  std::cout << "Metadata v12: cluster " << metadata.get_nullable_string("cluster_id").value_or("-")
            << ", controller " << metadata.get_int32("controller_id") << '\n';
  for (const auto& entry : metadata.get_array("brokers")) {
    const auto& broker = entry.as_struct();
    std::cout << "broker " << broker.get_int32("node_id") << ' ' << broker.get_string("host") << ':'
              << broker.get_int32("port") << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kepoch_connect_probe: connect to a Kafka cluster and list its brokers"};
  ConnectionFlags flags;
  bool verbose = false;
  std::string bootstrap, command_config, cluster;
  long timeout_ms = 0;
  app.add_option("-b,--bootstrap", bootstrap, "HOST:PORT[,...]");
  app.add_option("-X", flags.properties, "librdkafka property key=value")->take_all();
  app.add_option("--command-config", command_config, "Java client properties file");
  app.add_option("--cluster", cluster, "profile in $XDG_CONFIG_HOME/kepoch/config.yaml");
  app.add_option("--timeout-ms", timeout_ms, "timeout in milliseconds");
  app.add_flag("-v", verbose, "print the settings and their sources to stderr");
  CLI11_PARSE(app, argc, argv);
  if (!bootstrap.empty()) flags.bootstrap = bootstrap;
  if (!command_config.empty()) flags.command_config = command_config;
  if (!cluster.empty()) flags.cluster = cluster;
  if (timeout_ms != 0) flags.timeout = std::chrono::milliseconds(timeout_ms);
  try {
    return probe(flags, verbose);
  } catch (const ClusterError& e) {
    std::cerr << "kepoch_connect_probe: " << e.what() << '\n';
    return 4;
  } catch (const kepoch::InputError& e) {
    std::cerr << "kepoch_connect_probe: " << e.what() << '\n';
    return 3;
  } catch (const kepoch::UsageError& e) {
    std::cerr << "kepoch_connect_probe: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kepoch_connect_probe: internal error: " << e.what() << '\n';
    return 1;
  }
}
