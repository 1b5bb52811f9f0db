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

#include <optional>
#include <vector>

#include "kepoch/report/value.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/remote_index_cache.hpp"
#include "kepoch/storage/tiered_view.hpp"

namespace kepoch::report {

// With `tiered` (one per scan, storage/tiered_view.hpp): each log dir's "tiered" member, null
// when it holds no __remote_log_metadata partition, else {"metadata_partitions", "records",
// "partitions": [{"topic", "partition", "topic_id", "remote_start", "remote_end",
// "remote_segments" (finished), "partition_delete_state", "local_replica", "local_start",
// "local_end", "local_epochs": [{"epoch", "start_offset"}], "findings": [{"severity", "kind",
// "message"}], "segments": [{"segment_id", "start_offset", "end_offset", "size_in_bytes",
// "broker_id", "state", "leader_epochs", "within_lineage", "lineage_reason"}]}]}.
// With `caches` (one per scan, storage/remote_index_cache.hpp): each log dir's
// "remote_index_cache" member, null when it has no remote-log-index-cache dir, else {"dir",
// "files", "bytes", "metadata_read", "unreadable", "entries": [{"segment_id", "start_offset",
// "state" (cached, incomplete, marked_for_deletion, download_unfinished, other), "at_startup"
// (loaded, deleted, broker_fails, left), "startup_note", "files" ([names]; the table: a
// count), "bytes", "metadata" (live, copying, deleting, deleted, unknown, not_read), "topic",
// "partition", "segment_state", "metadata_start_offset", "metadata_end_offset"}],
// "findings": [{"severity", "kind", "file", "message"}]}. The table leaves it out when null.
Value scan_value(const std::vector<LogDirScan>& scans, bool all, bool compact = false,
                 const std::vector<TieredLogDirView>* tiered = nullptr,
                 const std::vector<std::optional<RemoteIndexCacheView>>* caches = nullptr);

}  // namespace kepoch::report
