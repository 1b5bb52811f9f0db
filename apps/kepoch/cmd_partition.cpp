// kepoch partition inspect DIR...
// One partition replica directory at a glance: offsets, segments, and its epoch history
// from the checkpoint, from the batches, and as Kafka would load it.

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/report/partition_report.hpp"

namespace kepoch::cli {
namespace {

struct InspectOptions {
  std::vector<std::string> dirs;
};

int run(const InspectOptions& o, const Globals& globals) {
  report::Value list = report::Value::array();
  int code = kOk;
  for (const auto& dir : o.dirs) {
    try {
      list.push(report::partition_value(load_partition_replica(dir)));
    } catch (const InputError& e) {
      print_error(e.what(), globals);
      code = kInput;
    }
  }
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
  inspect->footer(
      "Examples:\n"
      "  kepoch partition inspect /var/lib/kafka/data/orders-0\n"
      "  kepoch partition inspect -o json broker-1/orders-0 broker-2/orders-0\n"
      "\nHigh watermark, recovery point and log start come from the checkpoint files of the\n"
      "dir's log dir. epoch_checkpoint is the file as Kafka loads it; rebuilt_epoch_cache is\n"
      "what the batches' partition leader epochs say; loaded_epoch_cache is what Kafka holds\n"
      "after loading the log (recovery and truncation to the log end and log start).\n"
      "Exit status: 0 done, 3 unreadable dir.");
  inspect->callback([&globals] { globals.exit_code = run(o, globals); });
}

}  // namespace kepoch::cli
