// kepoch checkpoint dump|validate FILE|DIR...
// Reads Kafka's small text files (leader-epoch-checkpoint, the offset checkpoints,
// partition.metadata, meta.properties) and judges them as Kafka does when it loads them.

#include <algorithm>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/report/checkpoint_report.hpp"
#include "kepoch/storage/checkpoint_files.hpp"

namespace kepoch::cli {
namespace {

struct CheckpointOptions {
  std::vector<std::string> paths;
  std::string kind;
  bool strict = false;
};

int run(const CheckpointOptions& options, CheckDepth depth, const Globals& globals) {
  std::optional<CheckpointType> kind;
  if (!options.kind.empty()) kind = checkpoint_type_from_flag(options.kind);

  // Streamed file by file: one file's report is held at a time (a 64 MiB checkpoint has up to
  // 16 M entries), and its entries are written one by one.
  auto stream = make_output_stream(globals);
  bool invalid = false, warnings = false, any = false;
  std::vector<std::string> unreadable;
  check_checkpoint_arguments(
      options.paths, kind, depth,
      [&](CheckpointReport&& r) {
        any = true;
        report::write_checkpoint(*stream, r, depth);
        invalid = invalid || !r.valid;
        warnings = warnings || r.has_warnings();
      },
      [&](std::string message) { unreadable.push_back(std::move(message)); });
  if (any) stream->finish();
  for (const auto& message : unreadable)
    print_error(message, globals);

  if (!unreadable.empty()) return kInput;
  if (invalid || (options.strict && warnings)) return kFindings;
  return kOk;
}

CLI::App* add_paths_and_kind(CLI::App* sub, CheckpointOptions& options) {
  sub->add_option("paths", options.paths,
                  "Checkpoint files, partition dirs or log dirs (a dir means every checkpoint "
                  "file in it and one level down)")
      ->required()
      ->type_name("FILE|DIR");
  sub->add_option("--kind", options.kind, "Read every file as this kind, whatever its name")
      ->check(CLI::IsMember({"leader-epoch", "offsets", "recovery-point", "log-start-offset",
                             "replication-offset", "cleaner-offset", "partition-metadata",
                             "meta-properties"}))
      ->type_name("KIND");
  return sub;
}

}  // namespace

void register_checkpoint(CLI::App& app, Globals& globals) {
  CLI::App* group = app.add_subcommand(
      "checkpoint", "Read and judge leader-epoch-checkpoint and Kafka's other checkpoint files");
  group->require_subcommand(1);

  static CheckpointOptions dump_options;
  CLI::App* dump = add_paths_and_kind(
      group->add_subcommand("dump", "Print what checkpoint files say"), dump_options);
  dump->footer(
      "Examples:\n"
      "  kepoch checkpoint dump /var/lib/kafka/data/orders-0/leader-epoch-checkpoint\n"
      "  kepoch checkpoint dump -o json /var/lib/kafka/data      # every checkpoint of a log dir\n"
      "\nExit status: 0 all files readable by Kafka, 1 a file Kafka would reject,\n"
      "3 a file kepoch could not read (missing, unreadable, not a checkpoint).");
  dump->callback([&globals] { globals.exit_code = run(dump_options, CheckDepth::dump, globals); });

  static CheckpointOptions validate_options;
  CLI::App* validate = add_paths_and_kind(
      group->add_subcommand("validate",
                            "Apply Kafka's load-time acceptance rules, then stricter lint"),
      validate_options);
  validate->add_flag("--strict", validate_options.strict, "Exit 1 on warnings too");
  validate->footer(
      "Examples:\n"
      "  kepoch checkpoint validate /var/lib/kafka/data/orders-0\n"
      "  kepoch checkpoint validate -o json broker-1/orders-0 broker-2/orders-0\n"
      "\nFor each file: valid (false when Kafka would reject it or discard its content),\n"
      "kafka_outcome (ok, not-read, discarded, cleaner-stopped, metadata-fault, dir-offline,\n"
      "startup-fatal), the epoch cache Kafka would load, and problems (errors, then lint\n"
      "warnings). Exit status: 0 valid, 1 invalid (--strict: or warnings), 3 unreadable.");
  validate->callback(
      [&globals] { globals.exit_code = run(validate_options, CheckDepth::validate, globals); });
}

}  // namespace kepoch::cli
