// kepoch diff DIR DIR...
// How the replica directories of one partition differ and where they forked.

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/report/diff_report.hpp"

namespace kepoch::cli {
namespace {

struct DiffOptions {
  std::vector<std::string> dirs;
};

int run(const DiffOptions& o, const Globals& globals) {
  const std::vector<PartitionReplica> replicas =
      load_replicas_of_one_partition({o.dirs.begin(), o.dirs.end()});
  const std::size_t reference = pick_reference(replicas);
  std::vector<ReplicaComparison> comparisons;
  bool differ = false;
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    if (i == reference) continue;
    comparisons.push_back(compare_replicas(replicas, i, reference));
    differ = differ || !comparisons.back().identical();
  }
  emit(report::diff_value(replicas, reference, comparisons), globals);
  return differ ? kFindings : kOk;
}

}  // namespace

void register_diff(CLI::App& app, Globals& globals) {
  static DiffOptions o;
  CLI::App* cmd = app.add_subcommand(
      "diff", "Compare the replica dirs of one partition: epochs, offsets, where they forked");
  cmd->add_option("dirs", o.dirs, "Replica dirs of one partition (from different brokers)")
      ->required()
      ->expected(2, -1)
      ->type_name("DIR");
  cmd->footer(
      "Examples:\n"
      "  kepoch diff broker-1/orders-0 broker-2/orders-0 broker-3/orders-0\n"
      "  kepoch diff -o json b1/data/orders-0 b2/data/orders-0\n"
      "\nEach replica is taken as Kafka would load it and compared with the one holding the\n"
      "highest leader epoch: the first offset where their epoch histories differ, the first\n"
      "batch that differs (same offset, different bytes: the inconsistency an unclean\n"
      "election leaves), and the offsets only one of them holds. The timeline draws each\n"
      "replica's epochs on one offset axis. Exit status: 0 identical, 1 they differ,\n"
      "2 usage, 3 unreadable input.");
  cmd->callback([&globals] { globals.exit_code = run(o, globals); });
}

}  // namespace kepoch::cli
