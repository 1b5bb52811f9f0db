#pragma once
// The report shape of the hanging-transaction forecast (forecast/hanging_transactions), the
// "transactions" member of each `predict` section:
//   {"known", "source", "last_stable_offset", "hanging_transactions",
//    "hanging_unknown", "lost_markers", "open_transactions": [{"producer_id", "producer_epoch",
//      "start_offset", "last_timestamp", "marker_lost", "lost_marker_offset", "coordinator",
//      "transactional_id", "coordinator_state", "hanging", "reason", "abort_command"}]}
// known: whether the leader's open transactions could be rebuilt (false from a log dir
// snapshot); lost_markers: COMMIT/ABORT markers the truncation removes from followers;
// last_stable_offset: the first offset of the oldest open transaction, where
// read_committed consumers stop (null when none is open); coordinator: "tracked",
// "not_tracked" or "unknown"; hanging: true, false, or null when not known.

#include <string>
#include <vector>

#include "kepoch/forecast/hanging_transactions.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

Value transactions_value(const forecast::PartitionTransactions& t);

// The verdict's sentence about hanging transactions over every partition forecast; empty
// when no open transaction is hanging or may be.
std::string hanging_sentence(const std::vector<forecast::PartitionTransactions>& partitions);

}  // namespace kepoch::report
