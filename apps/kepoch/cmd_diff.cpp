// kepoch diff REPLICA REPLICA...
// How the replicas of one partition differ and where they forked; over whole log dirs or
// snapshots, one such comparison per partition they share (replica_sources.hpp).

#include <optional>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "html_output.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/report/controller_report.hpp"
#include "kepoch/report/diff_report.hpp"
#include "kepoch/report/html_page.hpp"
#include "kepoch/report/paired_report.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/storage/replica_sources.hpp"
#include "kepoch/storage/tiered_view.hpp"
#include "metadata_source.hpp"
#include "progress.hpp"
#include "replica_arguments.hpp"

namespace kepoch::cli {
namespace {

struct DiffOptions {
  std::vector<std::string> dirs;
  std::optional<std::string> metadata;
  bool full = false;  // read every batch (otherwise from the epoch fork on)
  std::optional<std::string> html;
  std::vector<std::string> remote_log_metadata;  // __remote_log_metadata dirs or log dirs
};

// --metadata: the controller's view of the partition and each replica's cached epochs it
// did not issue with a leader (report/controller_report.hpp).
report::Value controller_epochs(const PartitionHistory& history,
                                const std::vector<PartitionReplica>& replicas, bool& differ) {
  std::vector<const PartitionReplica*> list;
  for (const auto& r : replicas)
    list.push_back(&r);
  return report::controller_view_value(report::find_timeline(history, replicas.front()), list,
                                       differ);
}

std::optional<LoadedMetadata> load_history(const DiffOptions& o, const Globals& globals) {
  if (!o.metadata) return std::nullopt;
  return load_metadata_history(*o.metadata, {}, {}, globals);
}

report::Value diff_partition(const std::vector<PartitionReplica>& replicas, bool& differ) {
  const std::size_t reference = pick_reference(replicas);
  std::vector<ReplicaComparison> comparisons;
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    if (i == reference) continue;
    comparisons.push_back(compare_replicas(replicas, i, reference));
    differ = differ || !comparisons.back().identical();
  }
  return report::diff_value(replicas, reference, comparisons);
}

int run(const DiffOptions& o, const Globals& globals) {
  refuse_same_replica(o.dirs, /*stdin_only=*/true);
  if (o.html) {
    std::vector<std::string> inputs = o.dirs;
    if (o.metadata) inputs.push_back(*o.metadata);
    refuse_html_in_log_dir(*o.html, inputs);
  }
  std::optional<StepProgress> progress(std::in_place, globals, "diff");
  PairedPartitions paired =
      read_paired_replicas(o.dirs, o.full ? LoadDepth::whole : LoadDepth::tail,
                           /*first_required=*/false, *progress);
  {
    // Tiered partitions (storage/tiered_view: attach_remote_tiers; nothing is read for the
    // others).
    std::vector<std::vector<PartitionReplica>> groups;
    for (auto& g : paired.groups)
      groups.push_back(std::move(g.replicas));
    attach_remote_tiers(groups, {o.remote_log_metadata.begin(), o.remote_log_metadata.end()});
    for (std::size_t i = 0; i < groups.size(); ++i)
      paired.groups[i].replicas = std::move(groups[i]);
  }
  if (o.metadata) {
    refuse_other_cluster(*o.metadata, paired.cluster_id, paired.cluster_file);
    progress.reset();  // the metadata log's reader draws its own line
  }
  const auto loaded = load_history(o, globals);
  if (!progress) progress.emplace(globals, "diff");
  progress->step(0, 0, "comparing the replicas");
  bool differ = false;
  auto section = [&](const std::vector<PartitionReplica>& replicas) {
    report::Value v = diff_partition(replicas, differ);
    if (loaded) v.set("controller_epochs", controller_epochs(loaded->history, replicas, differ));
    return report::with_summary(v, report::diff_summary(v));
  };
  report::Value value;
  if (paired.single) {
    value = section(paired.groups.front().replicas);
  } else {
    std::vector<report::Value> sections;
    for (const auto& g : paired.groups)
      sections.push_back(section(g.replicas));
    value = report::paired_value(std::move(sections), paired.notes);
    value = report::with_summary(value, report::paired_diff_summary(value));
  }
  // The picture from the very Value the output renders (html_page.hpp).
  if (o.html) write_html(*o.html, report::timeline_page(value, "kepoch diff"));
  progress->done();
  emit(value, globals);
  return differ ? kFindings : kOk;
}

}  // namespace

void register_diff(CLI::App& app, Globals& globals) {
  static DiffOptions o;
  CLI::App* cmd = app.add_subcommand(
      "diff", "Compare the replicas of one partition: epochs, offsets, where they forked");
  cmd->add_option("replicas", o.dirs,
                  "One per broker: a replica dir, a log dir, a snapshot file or "
                  "SNAPSHOT:TOPIC-PARTITION")
      ->required()
      ->expected(2, -1)
      ->type_name("REPLICA");
  cmd->add_option("--metadata", o.metadata,
                  "A KRaft metadata log (__cluster_metadata-0 or a log dir holding one): hold "
                  "each replica's epoch cache against the epochs the controller issued")
      ->type_name("DIR");
  cmd->add_flag("--full", o.full,
                "Read and compare every batch of every replica (by default only those from "
                "where the epoch caches fork)");
  cmd->add_option("--remote-log-metadata", o.remote_log_metadata,
                  "Tiered storage: __remote_log_metadata-N dirs, or log dirs holding them; a "
                  "replica following a tiered reference truncates as Kafka's TierStateMachine "
                  "makes it (truncate_to; null where the remote tier is unknown)")
      ->type_name("DIR");
  add_html_option(cmd, o.html);
  cmd->footer(
      "Examples:\n"
      "  kepoch diff broker-1/orders-0 broker-2/orders-0 broker-3/orders-0\n"
      "  kepoch diff -o json b1/orders-0 b2/orders-0\n"
      "  kepoch diff b1 b2 b3                           # every partition they share\n"
      "  kepoch diff b1.snap:orders-0 b2.snap:orders-0  # snapshots: kepoch logdir snapshot\n"
      "  kepoch diff --html fork.html b1/orders-0 b2/orders-0  # a picture\n"
      "\nEach replica is taken as Kafka would load it and compared with the one holding the\n"
      "highest leader epoch: the first offset where their epoch histories differ, the first\n"
      "batch that differs (same offset, different bytes: the inconsistency an unclean\n"
      "election leaves), and the offsets only one of them holds. The timeline draws each\n"
      "replica's epochs on one offset axis.\n"
      "\nA log dir or a whole snapshot (`kepoch logdir snapshot`) stands for every replica in\n"
      "it: replicas pair up by topic and partition (topic ids must match) and the report has\n"
      "one section per partition. From a snapshot, batches are compared where it kept them;\n"
      "what that leaves open is listed in `unanswered`.\n"
      "\nOnly the divergent tail is read: each replica as Kafka loads it (recovered segments,\n"
      "the last segment from its offset index), then the batches from where the epoch caches\n"
      "fork, entered through the offset index. When that cannot be trusted (a cache missing,\n"
      "batches differing where the caches agree) every batch is compared and `read_whole`\n"
      "says why; --full always does.\n"
      "\n--metadata adds `controller_epochs`: the partition as the controller's metadata log\n"
      "last states it (leader, epochs, replicas, ISR, ELR; from its snapshot when the log was\n"
      "cleaned), the leader epochs the controller issued (epoch, leader, metadata offset) and\n"
      "`findings`, each cached epoch it never issued or issued without a leader. Exit status: 0 "
      "identical, 1 they differ (or a snapshot\n"
      "cannot tell, or a finding), 2 usage, 3 unreadable input.");
  cmd->callback([&globals] { globals.exit_code = run(o, globals); });
}

}  // namespace kepoch::cli
