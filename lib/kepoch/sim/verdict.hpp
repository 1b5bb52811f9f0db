#pragma once
// The end of a simulation judged: which acknowledged records the partition no longer holds,
// at which offsets alive replicas disagree, and whether that matches what the scenario
// expects.

#include <string>
#include <vector>

#include "kepoch/sim/engine.hpp"

namespace kepoch::sim {

// Lost: an acknowledged record the final leader does not hold at its offset. With no leader,
// the controller elects the next one when a replica that may lead returns
// (handleBrokerUnfenced -> PartitionChangeBuilder.electLeader): an ISR member, or with the
// ISR empty an ELR member; any replica when neither is left or `unclean_allowed`
// (unclean.leader.election.enable). The new leader keeps its log and the others truncate to
// it, so a record none of those replicas holds is lost, one all of them hold is kept, and one
// only some hold is maybe lost (maybe_lost_acknowledged): not safe. Divergent: an offset where
// two alive replicas hold different records (epoch and value).
Verdict judge(const std::vector<SimReplica>& replicas, const PartitionState& partition,
              const std::vector<Produced>& produced, const std::vector<Truncation>& truncations,
              bool unclean_allowed = false);

// One sentence per expectation that does not hold, e.g.
// "lost_acknowledged: expected [m2], found []".
std::vector<std::string> expectation_failures(const Expectation& expected, const Verdict& verdict);

}  // namespace kepoch::sim
