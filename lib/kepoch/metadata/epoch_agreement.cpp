#include "kepoch/metadata/epoch_agreement.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kepoch {

std::vector<IssuedEpoch> issued_epochs(const PartitionTimeline& timeline) {
  std::vector<IssuedEpoch> out;
  for (const auto& s : timeline.steps) {
    if (!out.empty() && out.back().epoch == s.state.leader_epoch) continue;
    out.push_back(
        {s.state.leader_epoch, s.state.leader, s.at.offset, s.at.timestamp, s.at.snapshot});
  }
  return out;
}

std::vector<std::string> check_epoch_cache(const std::vector<IssuedEpoch>& issued,
                                           const std::vector<EpochEntry>& cache) {
  std::vector<std::string> findings;
  if (issued.empty()) return findings;
  const std::int32_t first = issued.front().epoch;
  for (const auto& e : cache) {
    if (e.epoch < first) continue;
    const auto it = std::find_if(issued.begin(), issued.end(),
                                 [&](const IssuedEpoch& i) { return i.epoch == e.epoch; });
    if (it == issued.end()) {
      findings.push_back(fmt::format(
          "epoch {} (from offset {}) was never issued by the controller (last issued: {})", e.epoch,
          e.start_offset, issued.back().epoch));
    } else if (it->leader == -1) {
      findings.push_back(fmt::format(
          "epoch {} (from offset {}) had no leader ({}): no replica can hold records of it",
          e.epoch, e.start_offset,
          it->snapshot ? "as of metadata snapshot " + snapshot_id_text(*it->snapshot)
                       : fmt::format("metadata offset {}", it->offset)));
    }
  }
  return findings;
}

}  // namespace kepoch
