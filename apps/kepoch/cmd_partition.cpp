// kepoch partition inspect DIR... [--metadata METADATA_DIR]
// One partition replica directory at a glance: offsets, segments, and its epoch history
// from the checkpoint, from the batches, and as Kafka would load it; with --metadata, the
// partition as the controller's metadata log states it next to the replica's epoch cache.
// kepoch partition verify DIR...
// The same, plus every file checked with Kafka's rules and what segment recovery would cut.

#include <algorithm>
#include <filesystem>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/report/controller_report.hpp"
#include "kepoch/report/partition_report.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/report/verify_report.hpp"
#include "kepoch/storage/broker_identity.hpp"
#include "metadata_source.hpp"
#include "progress.hpp"

namespace kepoch::cli {
namespace {

struct InspectOptions {
  std::vector<std::string> dirs;
  std::optional<std::string> metadata;
};

int run(const InspectOptions& o, const Globals& globals) {
  // The metadata log first: a target it cannot read stops the command before any output.
  std::optional<LoadedMetadata> loaded;
  if (o.metadata) {
    for (const auto& dir : o.dirs) {
      auto d = std::filesystem::path(dir).lexically_normal();
      if (!d.has_filename()) d = d.parent_path();
      const LogDirIdentity own =
          log_dir_identity(d.parent_path().empty() ? std::filesystem::path(".") : d.parent_path());
      refuse_other_cluster(*o.metadata, own.cluster_id, own.file);
    }
    loaded = load_metadata_history(*o.metadata, {}, {}, globals);
  }
  report::Value list = report::Value::array();
  int code = kOk;
  for (const auto& dir : o.dirs) {
    try {
      const PartitionReplica replica = load_partition_replica(dir);
      report::Value v = report::partition_value(replica);
      if (loaded) {
        bool findings = false;
        v.set("controller",
              report::controller_view_value(report::find_timeline(loaded->history, replica),
                                            {&replica}, findings));
        if (findings) code = std::max(code, static_cast<int>(kFindings));
      }
      list.push(report::with_summary(v, report::inspect_summary(v)));
    } catch (const InputError& e) {
      print_error(e.what(), globals);
      code = kInput;
    }
  }
  if (!list.as_array().empty()) emit(list, globals);
  return code;
}

struct VerifyOptions {
  std::vector<std::string> dirs;
};

int run_verify(const VerifyOptions& o, const Globals& globals) {
  report::Value list = report::Value::array();
  int code = kOk;
  StepProgress progress(globals, "partition verify");
  for (std::size_t i = 0; i < o.dirs.size(); ++i) {
    const std::string& dir = o.dirs[i];
    progress.step(i, o.dirs.size(), "verifying " + dir);
    try {
      const PartitionVerification v = verify_partition(dir);
      if (v.has_errors()) code = std::max(code, static_cast<int>(kFindings));
      const report::Value value = report::verify_value(v);
      list.push(report::with_summary(value, report::verify_summary(value)));
    } catch (const InputError& e) {
      progress.interrupt([&] { print_error(e.what(), globals); });
      code = kInput;
    }
  }
  progress.done();
  if (!list.as_array().empty()) emit(list, globals);
  return code;
}

}  // namespace

void register_partition(CLI::App& app, Globals& globals) {
  CLI::App* group = app.add_subcommand("partition", "Look at partition replica directories");
  group->require_subcommand(1);
  static InspectOptions o;
  CLI::App* inspect = group->add_subcommand(
      "inspect", "One partition replica dir at a glance: offsets, segments, epoch history");
  inspect->add_option("dirs", o.dirs, "Partition replica dirs (<log dir>/<topic>-<partition>)")
      ->required()
      ->type_name("DIR");
  inspect
      ->add_option("--metadata", o.metadata,
                   "A KRaft metadata log (__cluster_metadata-0 or a log dir holding one): show "
                   "the partition as the controller states it, against the epoch cache")
      ->type_name("METADATA_DIR");
  inspect->footer(
      "Examples:\n"
      "  kepoch partition inspect /var/lib/kafka/data/orders-0\n"
      "  kepoch partition inspect -o json broker-1/orders-0 broker-2/orders-0\n"
      "  kepoch partition inspect broker-1/orders-0 --metadata controller/__cluster_metadata-0\n"
      "\nHigh watermark, recovery point and log start come from the checkpoint files of the\n"
      "dir's log dir. epoch_checkpoint is the file as Kafka loads it; rebuilt_epoch_cache is\n"
      "what the batches' partition leader epochs say; loaded_epoch_cache is what Kafka holds\n"
      "after loading the log (recovery and truncation to the log end and log start).\n"
      "\n--metadata adds `controller`: the partition as the controller's metadata log last\n"
      "states it (topic id, leader, leader and partition epochs, replicas, ISR, ELR; replayed\n"
      "as `metadata history` does, from a snapshot when the log was cleaned), the leader\n"
      "epochs it issued (`issued`) and `findings`: each epoch of the replica's\n"
      "leader-epoch-checkpoint the controller never issued or issued without a leader.\n"
      "Exit status: 0 done, 1 findings (--metadata), 3 unreadable dir or metadata log.");
  inspect->callback([&globals] { globals.exit_code = run(o, globals); });

  static VerifyOptions vo;
  CLI::App* verify = group->add_subcommand(
      "verify", "Check every file of a partition replica dir; predict segment recovery");
  verify->add_option("dirs", vo.dirs, "Partition replica dirs (<log dir>/<topic>-<partition>)")
      ->required()
      ->type_name("DIR");
  verify->footer(
      "Examples:\n"
      "  kepoch partition verify /var/lib/kafka/data/orders-0\n"
      "  kepoch partition verify -o json broker-*/orders-0\n"
      "\nThe inspect fields, plus findings (severity, file, byte position, offset, message):\n"
      "batch size and CRC (Kafka's ensureValid), offsets that go backwards, decreasing leader\n"
      "epochs, offset-index entries that do not point at their batch, index sanity checks,\n"
      "producer snapshots, leftover and orphaned files, torn or zero-filled tails.\n"
      "recovery_next_start is what Kafka's next start would cut (clean-shutdown marker and\n"
      "recovery point honoured), recovery_full what recovering every segment would cut\n"
      "(LogSegment.recover: the segment keeps the bytes before the first bad batch; later\n"
      "segments are deleted); null when nothing would be cut. next_start_failure: the next\n"
      "start cannot load the log and the broker exits (a zero-filled tail after a clean\n"
      "shutdown).\n"
      "Exit status: 0 no errors, 1 error findings, 3 unreadable dir.");
  verify->callback([&globals] { globals.exit_code = run_verify(vo, globals); });
}

}  // namespace kepoch::cli
