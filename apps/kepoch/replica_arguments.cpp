#include "replica_arguments.hpp"

#include "globals.hpp"

namespace kepoch::cli {

PairedPartitions read_paired_replicas(const std::vector<std::string>& arguments, LoadDepth depth,
                                      bool first_required, StepProgress& progress) {
  std::vector<ReplicaSource> sources;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    progress.step(i, arguments.size(), "reading " + arguments[i]);
    sources.push_back(load_replica_source(arguments[i], depth));
  }
  refuse_same_replica(arguments, /*stdin_only=*/false);
  return pair_replicas(std::move(sources), 2, first_required);
}

}  // namespace kepoch::cli
