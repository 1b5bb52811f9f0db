#pragma once
// `logdir scan`: every partition dir of one or more broker log dirs verified with the
// `partition verify` engine (partition_verify.hpp), in parallel, plus the log dir's root
// checkpoint files (checkpoint_files.hpp).
//
// Which subdirectories are partitions: LogManager.loadLogs' rule, from log_dir.hpp (the
// names UnifiedLog.parseTopicPartitionName accepts, and the -delete/-future/-stray forms).
// `__cluster_metadata-0` is scanned too, with a note: it is the KRaft metadata log, which the
// Raft layer loads, not LogManager; remote-log-index-cache is not a partition (a note; its
// entries: remote_index_cache.hpp). Any other
// directory (lost+found, t-abc, -0, an offset past Integer.MAX_VALUE) is an error: Kafka's
// KafkaException stops the broker at startup. A symbolic link is followed as Kafka follows
// it, with a warning. A partition dir given instead of a log dir is refused with the command
// to run instead.
//
// Memory stays bounded by the number of partitions: each worker verifies one partition (or
// one segment of a large partition, split across the workers so that one partition holding
// most of the bytes does not leave the other cores idle) at a time and keeps only its
// summary (counts, first error, first warning, recovery cut), never per-batch data.
//
// Read-only, like everything in storage/.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/storage/partition_verify.hpp"

namespace kepoch {

// Runs task(i) for every i in [0, count) on min(jobs, count) threads (jobs 0 means 1). The
// workers share nothing but an atomic next-index; each task writes only its own slot of
// whatever the caller collects into, so results keep the input order. `on_done(done)` is
// called after each task, serialised (never two at once), with the number finished so far.
// The first exception a task throws is rethrown after every thread has joined; the other
// tasks still run.
void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& task,
                  const std::function<void(std::size_t)>& on_done = {});

// The default number of jobs: the hardware's threads (at least 1).
unsigned default_jobs();

struct FindingSummary {
  std::string file;
  std::optional<std::uint64_t> position;
  std::optional<std::int64_t> offset;
  std::string message;
};

struct PartitionScan {
  std::filesystem::path dir;  // <log dir>/<name>
  std::string name;           // the dir's name
  std::string topic;
  std::int32_t partition = 0;
  std::string state;                      // "", "delete", "future", "stray"
  bool metadata_log = false;              // __cluster_metadata-0
  std::optional<std::string> unreadable;  // InputError message: the dir could not be judged
  std::int64_t log_start_offset = 0;
  std::int64_t log_end_offset = 0;
  std::optional<std::int64_t> high_watermark;
  std::uint64_t segments = 0;
  std::uint64_t bytes = 0;  // of the .log files
  std::uint64_t batches = 0;
  std::uint64_t errors = 0;  // error findings (1 when unreadable)
  std::uint64_t warnings = 0;
  std::optional<FindingSummary> first_error;
  std::optional<FindingSummary> first_warning;
  std::optional<RecoveryTruncation> recovery_next_start;
  std::optional<RecoveryTruncation> recovery_full;
};

struct RootCheckpointSummary {
  std::string file;  // name in the log dir
  std::string kind;  // "offsets", "meta-properties", ...
  bool valid = true;
  std::uint64_t errors = 0;
  std::uint64_t warnings = 0;
  std::string first_problem;  // "" when none
};

// A finding about the log dir itself (an entry Kafka refuses or follows), not a partition.
struct LogDirProblem {
  std::string file;      // the entry's path
  std::string severity;  // "error" (the broker does not start) or "warning"
  std::string message;
  std::string kafka_outcome;  // as checkpoint validate says it: "startup-fatal", "ok"
};

struct LogDirScan {
  std::filesystem::path dir;
  // Set when the log dir itself cannot be read (missing, not a directory, unlistable, or
  // holding neither a partition dir nor a checkpoint file); nothing else is then filled.
  std::optional<std::string> unreadable;
  std::vector<PartitionScan> partitions;           // in name order
  std::vector<RootCheckpointSummary> checkpoints;  // root checkpoint files, in name order
  std::vector<std::string> notes;                  // skipped dirs, the metadata log, ...
  std::vector<LogDirProblem> problems;             // entries Kafka refuses or follows
  // <dir>/remote-log-index-cache when it is there (read by remote_index_cache.hpp).
  std::optional<std::filesystem::path> remote_index_cache;

  bool checkpoints_valid() const;
  std::size_t with_errors() const;    // partitions with an error finding or unreadable
  std::size_t with_warnings() const;  // partitions with a warning finding
  std::uint64_t total_segments() const;
  std::uint64_t total_bytes() const;
  std::uint64_t total_batches() const;
  // A partition with errors, a root checkpoint not valid, or an error in `problems`.
  bool has_errors() const;
};

struct LogDirScanOptions {
  unsigned jobs = 0;  // 0: default_jobs()
  // With more than one job, a partition whose .log files hold at least this many bytes has
  // its segments verified by several workers (PartitionVerifier), the result unchanged.
  std::uint64_t split_bytes = 16ull << 20;
  // Called with (partitions done, partitions in all log dirs), serialised.
  std::function<void(std::size_t, std::size_t)> progress;
};

// Scans every log dir given, in order; one result per argument. The partitions of all log
// dirs are verified in one pool.
std::vector<LogDirScan> scan_log_dirs(const std::vector<std::filesystem::path>& dirs,
                                      const LogDirScanOptions& options = {});

}  // namespace kepoch
