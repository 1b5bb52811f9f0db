#pragma once
// The report shape of `partition verify`: the `partition inspect` fields
// (partition_report.hpp), then
//   "findings": [{"severity": "error|warning|info", "file", "position", "offset", "message"}],
//   "error_count", "warning_count",
//   "recovery_next_start", "recovery_full": null or
//     {"truncate_to_offset", "truncated_segment", "valid_bytes", "truncated_bytes",
//      "stop_reason", "position", "message", "deleted_segments", "deleted_bytes"},
//   "next_start_failure": null or {"segment", "position", "exception", "message"}: the
//     next start throws while loading this log and the broker exits

#include "kepoch/report/value.hpp"
#include "kepoch/storage/partition_verify.hpp"

namespace kepoch::report {

Value verify_value(const PartitionVerification& verification);

}  // namespace kepoch::report
