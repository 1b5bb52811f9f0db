#pragma once
// The report of `kepoch cluster hanging` (forecast/live_hanging):
//   {"summary", "max_transaction_timeout_minutes", "partitions_searched",
//    "hanging_transactions", "unknown", "abort_commands": [...], "transactions": [{"topic",
//      "partition", "hanging", "start_offset", "producer_id", "producer_epoch",
//      "coordinator_epoch", "last_timestamp", "duration_minutes", "transactional_id",
//      "coordinator_state", "reason", "abort_command"}],
//    "unanswered_partitions": [{"topic", "partition", "reason"}], "warnings": [...]}
// transactions: every open transaction older than the timeout (find-hanging's candidates),
// hanging true (find-hanging lists it), false (its coordinator will write the marker) or
// null (not known); topic, partition, start_offset and the producer and time fields are
// find-hanging's eight columns. abort_commands: the hanging rows' abort commands, in order.

#include "kepoch/forecast/live_hanging.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

Value live_hanging_value(const forecast::LiveHangingSearch& search);

}  // namespace kepoch::report
