#include "kepoch/forecast/one_cluster.hpp"

#include <fmt/format.h>

#include <map>

#include "kepoch/base/error.hpp"

namespace kepoch::forecast {

void check_one_cluster(std::vector<BrokerState>& states, const std::vector<std::int32_t>& ids) {
  if (!ids.empty() && ids.size() != states.size())
    throw UsageError(
        fmt::format("--ids gives {} broker ids for {} states", ids.size(), states.size()));
  std::map<std::int32_t, std::string> seen;
  const BrokerState* first_with_cluster = nullptr;
  for (std::size_t i = 0; i < states.size(); ++i) {
    BrokerState& s = states[i];
    if (!ids.empty()) s.broker = ids[i];
    if (!s.broker)
      throw UsageError(fmt::format(
          "{}: no broker id (no meta.properties with node.id, nor a snapshot that records "
          "one); give the ids with --ids",
          s.argument));
    const auto [it, added] = seen.emplace(*s.broker, s.argument);
    if (!added)
      throw UsageError(fmt::format(
          "{} and {} are both broker {}'s state (the same snapshot twice?): give one per broker",
          it->second, s.argument, *s.broker));
    if (s.cluster_id) {
      if (first_with_cluster && *first_with_cluster->cluster_id != *s.cluster_id)
        throw UsageError(fmt::format(
            "{} is of cluster {} but {} is of cluster {}: a plan takes one cluster's brokers",
            s.argument, *s.cluster_id, first_with_cluster->argument,
            *first_with_cluster->cluster_id));
      if (!first_with_cluster) first_with_cluster = &s;
    }
  }
}

void check_metadata_cluster(const std::vector<BrokerState>& states,
                            const std::optional<std::string>& metadata_cluster_id) {
  if (!metadata_cluster_id || metadata_cluster_id->empty()) return;
  for (const auto& s : states)
    if (s.cluster_id && *s.cluster_id != *metadata_cluster_id)
      throw UsageError(fmt::format("{} is of cluster {} but the metadata is of cluster {}",
                                   s.argument, *s.cluster_id, *metadata_cluster_id));
}

}  // namespace kepoch::forecast
