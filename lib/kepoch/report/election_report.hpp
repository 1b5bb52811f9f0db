#pragma once
// The report shape of a leader election (predict --elect, simulate):
//   {"election": "online|unclean|preferred", "replicas", "isr", "elr", "alive",
//    "eligible_leader_replicas": bool, "leader" (broker id or null), "unclean": bool,
//    "branch": "current_leader|preferred_replica|first_valid_replica|last_known_leader|
//               unclean_first_acceptable|none",
//    "isr_after", "elr_after", "leader_epoch_bump": bool, "leader_recovering": bool,
//    "reason": a sentence}

#include "kepoch/epoch/election.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

std::string_view election_type_name(ElectionType type);

// One sentence on why this leader (or none) was chosen.
std::string election_reason(const PartitionChangeRequest& request, const PartitionChange& change);

Value election_value(const PartitionState& before, const PartitionChangeRequest& request,
                     const PartitionChange& change);

}  // namespace kepoch::report
