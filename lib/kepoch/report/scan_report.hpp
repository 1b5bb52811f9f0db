#pragma once
// The report shape of `logdir scan`:
//   {"log_dirs": [{"dir", "partitions", "with_errors", "with_warnings", "segments", "bytes",
//     "batches", "checkpoints_valid",
//     "checkpoints": [{"file", "kind", "valid", "errors", "warnings", "first_problem"}],
//     "notes": [...],
//     "partitions_report": [{"dir", "name", "topic", "partition", "state", "metadata_log",
//       "log_start_offset", "log_end_offset", "high_watermark", "segments", "bytes",
//       "batches", "errors", "warnings", "first_error", "first_error_file",
//       "first_error_position", "first_warning", "recovery_truncate_to_offset",
//       "recovery_truncated_bytes"}]}]}
// partitions_report lists the partitions with errors or warnings, or every one with `all`.
// Log dirs that could not be read are left out (the caller reports them as errors).
// `compact` (for the table view) keeps, per partition row, only name, log_end_offset,
// segments, bytes, errors, warnings and first_problem (first error, else first warning).

#include <vector>

#include "kepoch/report/value.hpp"
#include "kepoch/storage/logdir_scan.hpp"

namespace kepoch::report {

Value scan_value(const std::vector<LogDirScan>& scans, bool all, bool compact = false);

}  // namespace kepoch::report
