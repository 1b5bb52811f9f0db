#include "kepoch/sim/verdict.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kepoch::sim {
namespace {

bool holds(const SimReplica& r, const Produced& p) {
  const auto o = static_cast<std::size_t>(p.offset);
  return o < r.records.size() && r.records[o] == SimRecord{p.epoch, p.value, true};
}

}  // namespace

Verdict judge(const std::vector<SimReplica>& replicas, const PartitionState& partition,
              const std::vector<Produced>& produced, const std::vector<Truncation>& truncations,
              bool unclean_allowed) {
  Verdict v;
  v.truncations = truncations;
  // Who leads next: the leader, or with none, every replica that may be elected when it
  // returns (an ISR member; with the ISR empty, an ELR member; anyone when neither is left
  // or an unclean election is allowed).
  std::vector<const SimReplica*> next;
  const std::vector<std::int32_t>& clean = partition.isr.empty() ? partition.elr : partition.isr;
  for (const auto& r : replicas) {
    if (partition.leader != kNoLeader) {
      if (r.broker == partition.leader) next.push_back(&r);
    } else if (unclean_allowed || clean.empty() ||
               std::find(clean.begin(), clean.end(), r.broker) != clean.end()) {
      next.push_back(&r);
    }
  }
  for (const auto& p : produced) {
    if (p.state != AckState::acknowledged) continue;
    v.acknowledged.push_back(p);
    const auto holding =
        std::count_if(next.begin(), next.end(), [&](const SimReplica* r) { return holds(*r, p); });
    if (holding == 0)
      v.lost_acknowledged.push_back(p);
    else if (static_cast<std::size_t>(holding) < next.size())
      v.maybe_lost_acknowledged.push_back(p);
  }
  std::size_t longest = 0;
  for (const auto& r : replicas)
    if (r.alive) longest = std::max(longest, r.records.size());
  for (std::size_t o = 0; o < longest; ++o) {
    const SimRecord* first = nullptr;
    for (const auto& r : replicas) {
      if (!r.alive || o >= r.records.size()) continue;
      if (!first) {
        first = &r.records[o];
      } else if (!(*first == r.records[o])) {
        v.divergent_offsets.push_back(static_cast<std::int64_t>(o));
        break;
      }
    }
  }
  v.consistent = v.divergent_offsets.empty();
  return v;
}

std::vector<std::string> expectation_failures(const Expectation& e, const Verdict& v) {
  std::vector<std::string> out;
  if (e.lost_acknowledged) {
    std::vector<std::string> found;
    for (const auto& p : v.lost_acknowledged)
      found.push_back(p.value);
    if (found != *e.lost_acknowledged)
      out.push_back(fmt::format("lost_acknowledged: expected [{}], found [{}]",
                                fmt::join(*e.lost_acknowledged, ","), fmt::join(found, ",")));
  }
  if (e.divergent_offsets && *e.divergent_offsets != v.divergent_offsets)
    out.push_back(fmt::format("divergent_offsets: expected [{}], found [{}]",
                              fmt::join(*e.divergent_offsets, ","),
                              fmt::join(v.divergent_offsets, ",")));
  if (e.consistent && *e.consistent != v.consistent)
    out.push_back(fmt::format("consistent: expected {}, found {}", *e.consistent, v.consistent));
  if (e.truncations) {
    for (const auto& [replica, offsets] : *e.truncations) {
      std::vector<std::int64_t> found;
      for (const auto& t : v.truncations)
        if (t.replica == replica) found.push_back(t.to);
      if (found != offsets)
        out.push_back(fmt::format("truncations of {}: expected [{}], found [{}]", replica,
                                  fmt::join(offsets, ","), fmt::join(found, ",")));
    }
  }
  return out;
}

}  // namespace kepoch::sim
