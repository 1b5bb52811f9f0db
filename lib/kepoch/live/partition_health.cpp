#include "kepoch/live/partition_health.hpp"

namespace kepoch::live {

PartitionHealth assess_partition(const PartitionView& p, std::optional<int> min_isr,
                                 const std::set<std::int32_t>& live_brokers) {
  const auto isr_size = static_cast<int>(p.isr.size());
  PartitionHealth h;
  h.under_replicated = static_cast<int>(p.replicas.size()) - isr_size > 0;
  h.under_min_isr = !p.has_leader() || (min_isr && isr_size < *min_isr);
  h.at_min_isr = min_isr && isr_size == *min_isr;
  h.unavailable = !p.has_leader() || !live_brokers.contains(p.leader);
  h.leader_not_preferred = p.has_leader() && !p.replicas.empty() && p.leader != p.replicas.front();
  return h;
}

}  // namespace kepoch::live
