// kepoch cluster remote-log-metadata
// The tiered-storage metadata topic __remote_log_metadata consumed live and decoded record by
// record as `segment dump` decodes its segments offline (kafka-dump-log
// --remote-log-metadata-decoder).

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/forecast/live_remote_log_metadata.hpp"
#include "kepoch/report/remote_log_metadata_report.hpp"
#include "kepoch/report/summary.hpp"

namespace kepoch::cli {
namespace {

struct RemoteLogMetadataOptions {
  std::vector<std::int32_t> partitions;
};

int run(const ConnectionOptions& c, const RemoteLogMetadataOptions& o, const Globals& globals) {
  cluster::ClusterClient client(settings_from(c));
  // The cluster reached (ClusterError, exit 4, when not); what follows reports its failures.
  client.read_view(cluster::ViewRequest{std::nullopt, false, false, false, false});
  const forecast::LiveRemoteLogMetadata live =
      forecast::read_live_remote_log_metadata(client, /*keep_records=*/true, o.partitions);
  emit(report::with_summary(report::live_remote_log_metadata_value(live),
                            report::live_remote_log_metadata_summary(live)),
       globals);
  return live.complete && live.errors == 0 ? kOk : kFindings;
}

}  // namespace

void register_cluster_remote_log_metadata(CLI::App* group, Globals& globals) {
  static ConnectionOptions c;
  static RemoteLogMetadataOptions o;
  CLI::App* cmd = group->add_subcommand(
      "remote-log-metadata",
      "The tiered-storage metadata topic __remote_log_metadata read live, each record decoded");
  cmd->add_option("--metadata-partition", o.partitions,
                  "Only this partition of __remote_log_metadata (repeatable; default: all)")
      ->type_name("N");
  add_connection_options(cmd, c);
  cmd->footer(
      "Examples:\n"
      "  kepoch cluster remote-log-metadata -b kafka-1:9092  # live\n"
      "  kepoch cluster remote-log-metadata -b kafka-1:9092 --metadata-partition 7 -o json  # "
      "live\n"
      "\nEach partition is read from its leader with a consumer's Fetch, from its log start to\n"
      "its high watermark (what the brokers' metadata managers consume), and each record's\n"
      "value decoded as `kepoch segment dump` decodes a __remote_log_metadata segment\n"
      "(RemoteLogMetadataSerde; kafka-dump-log --remote-log-metadata-decoder): the same fields\n"
      "for the same record. A topic that is missing or cannot be read (no ACL, a partition\n"
      "without leader) is unknown, said in unknown_reason.\n"
      "Exit status: 0 read whole and every record decoded, 1 the topic could not be read whole\n"
      "or a record does not decode, 2 usage, 3 a settings file cannot be read, 4 the cluster\n"
      "cannot be reached or refused us.");
  cmd->callback([&globals] { globals.exit_code = run(c, o, globals); });
}

}  // namespace kepoch::cli
