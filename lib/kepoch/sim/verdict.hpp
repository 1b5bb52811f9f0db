#pragma once
// The end of a simulation judged: which acknowledged records the partition no longer holds,
// at which offsets alive replicas disagree, and whether that matches what the scenario
// expects.

#include <string>
#include <vector>

#include "kepoch/sim/engine.hpp"

namespace kepoch::sim {

// Lost: an acknowledged record the final leader does not hold at its offset (with no
// leader: that no replica holds). Divergent: an offset where two alive replicas hold
// different records (epoch and value).
Verdict judge(const std::vector<SimReplica>& replicas, const PartitionState& partition,
              const std::vector<Produced>& produced, const std::vector<Truncation>& truncations);

// One sentence per expectation that does not hold, e.g.
// "lost_acknowledged: expected [m2], found []".
std::vector<std::string> expectation_failures(const Expectation& expected, const Verdict& verdict);

}  // namespace kepoch::sim
