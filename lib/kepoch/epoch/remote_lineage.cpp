#include "kepoch/epoch/remote_lineage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace kepoch {
namespace {

using EpochMap = std::map<std::int32_t, std::int64_t>;

EpochMap as_map(const std::vector<EpochEntry>& entries) {
  EpochMap m;
  for (const auto& e : entries)
    m[e.epoch] = e.start_offset;
  return m;
}

EpochMap filtered(const EpochMap& m) {
  EpochMap out = m;
  const EpochMap::value_type* previous = nullptr;
  for (const auto& current : m) {
    if (previous && previous->second == current.second) out.erase(previous->first);
    previous = &current;
  }
  return out;
}

std::string text(const EpochMap& m) {  // Java's TreeMap.toString: {0=0, 3=1024}
  std::string out = "{";
  for (const auto& [e, o] : m) {
    if (out.size() > 1) out += ", ";
    out += fmt::format("{}={}", e, o);
  }
  return out + "}";
}

}  // namespace

std::vector<EpochEntry> filtered_leader_epochs(std::vector<EpochEntry> entries) {
  std::vector<EpochEntry> out;
  for (const auto& [e, o] : filtered(as_map(entries)))
    out.push_back({e, o});
  return out;
}

LineageCheck remote_segment_within_leader_epochs(const std::vector<EpochEntry>& segment_epochs,
                                                 std::int64_t segment_end_offset,
                                                 std::int64_t log_end_offset,
                                                 const std::vector<EpochEntry>& leader_epochs) {
  const EpochMap segment = filtered(as_map(segment_epochs));
  const EpochMap leader = filtered(as_map(leader_epochs));
  auto no = [&](std::string why) {
    return LineageCheck{false, fmt::format("{} (segment epochs {}, leader epochs {})", why,
                                           text(segment), text(leader))};
  };
  // (A map without entries: Kafka's lastKey/firstKey would throw; kepoch says outside.)
  if (segment.empty()) return no("the segment has no leader epoch");
  if (leader.empty()) return no("the replica has no leader epoch");
  const std::int32_t segment_last = segment.rbegin()->first;
  if (segment_last < leader.begin()->first || segment_last > leader.rbegin()->first)
    return no(fmt::format("its last epoch {} is outside the lineage", segment_last));
  const auto first_it = segment.lower_bound(leader.begin()->first);  // ceilingKey
  if (first_it == segment.end()) return no("no epoch of it is in the lineage's range");
  const std::int32_t segment_first = first_it->first;
  for (auto it = first_it; it != segment.end(); ++it) {
    const auto [epoch, offset] = *it;
    const auto in_leader = leader.find(epoch);
    if (in_leader == leader.end()) return no(fmt::format("epoch {} is not in the lineage", epoch));
    if (epoch == segment_first && in_leader != leader.begin() && offset < in_leader->second)
      return no(fmt::format("epoch {} starts at {}, before the lineage's {}", epoch, offset,
                            in_leader->second));
    const auto leader_next = std::next(in_leader);
    if (epoch == segment_last) {
      if (leader_next != leader.end() && segment_end_offset > leader_next->second - 1)
        return no(fmt::format("its end offset {} is past epoch {}'s end {}", segment_end_offset,
                              epoch, leader_next->second - 1));
    } else {
      const auto segment_next = std::next(it);
      if (leader_next == leader.end() || leader_next->first != segment_next->first ||
          leader_next->second != segment_next->second)
        return no(fmt::format("the epoch after {} differs from the lineage's", epoch));
    }
  }
  if (segment_end_offset >= log_end_offset)
    return no(fmt::format("its end offset {} is at or past the log end offset {}",
                          segment_end_offset, log_end_offset));
  return {true, ""};
}

}  // namespace kepoch
