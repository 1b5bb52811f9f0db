#pragma once
// `partition verify`: every file of one partition replica dir checked with Kafka's rules,
// and what Kafka's segment recovery would cut (shared/spec kafka-formats.md 8, 9, 10, 11).
//
// Checks, each a finding naming the file and the byte position in it:
//   - every entry of every .log: Kafka's ensureValid (size, CRC; DefaultRecordBatch /
//     AbstractLegacyRecordBatch), in FileLogInputStream's walk (log_segment_reader.hpp);
//   - offsets increase across batches and segments (a gap is normal after compaction and
//     not reported; a batch starting at or below the previous batch's last offset is an
//     error), each batch's offsets fit the segment (LogSegment.ensureOffsetInRange);
//   - v2 partition leader epochs never decrease in offset order;
//   - each offset-index entry points at the start of a batch whose last offset is the
//     entry's offset (what LogSegment.append and .recover write in Kafka 3.x and later),
//     OffsetIndex.sanityCheck; the time index's append rules and TimeIndex.sanityCheck
//     (failing only because of preallocated zero padding is a warning: the active segment
//     of a running or killed broker); TransactionIndex.sanityCheck;
//   - every producer snapshot read as ProducerStateManager.readSnapshot does (CRC included);
//   - leftovers: *.deleted, *.cleaned, *.swap, *.tmp, index files without their .log,
//     names whose offset Kafka cannot parse;
//   - a torn or corrupt tail (partial header, partial batch, size below 14, zero fill).
//
// Recovery (LogSegment.recover, LogLoader.recoverLog): a recovered segment keeps the bytes
// before the first entry that fails ensureValid, or a partial or corrupt tail; when an
// offset-index append during recovery would throw InvalidOffsetException (a batch's last
// offset not above the previous indexed one, with index.interval.bytes = 4096, Kafka's
// default: the topic's own value is not in the replica dir), the segment is emptied. In
// recoverLog the first segment that loses bytes is truncated and every later segment deleted.
//   - recovery_full: every segment recovered (what an unclean start at recovery point 0
//     would do);
//   - recovery_next_start: what the next start would do: segments whose .index is missing
//     or whose .txnindex fails its sanity check are recovered at open (later segments are
//     kept); without a clean-shutdown marker, the segments from the one holding the recovery
//     point on are recovered by recoverLog. The first truncation is reported.
// Either is nullopt when no byte would be cut.
//   - next_start_failure: after a clean shutdown Kafka skips recovery but still reads the
//     last segment's batches from its last offset-index entry on to find the log end
//     (LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd -> LogSegment.readNextOffset);
//     an entry size below 14 there (a zero-filled tail) throws CorruptRecordException, which
//     LogManager.loadLogs treats as fatal: the broker exits, having already deleted the
//     clean-shutdown marker, so the start after that one recovers (checked against Kafka
//     4.1.1 by tests/oracle/verify-vs-kafka.sh).
//
// Read-only; memory is bounded: batches are walked one by one through the reader's window,
// index files are read whole (as Kafka maps them), with the index_files.hpp size cap. Each
// .log is read once: the same walk feeds the replica loader (replica_loader.hpp).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/replica_loader.hpp"

namespace kepoch {

struct VerifyFinding {
  enum class Severity { error, warning, info };
  Severity severity = Severity::error;
  std::string file;                       // name inside the replica dir
  std::optional<std::uint64_t> position;  // byte in that file
  std::optional<std::int64_t> offset;     // log offset the finding is about
  std::string message;
};
std::string_view severity_name(VerifyFinding::Severity severity);  // "error", ...

enum class RecoveryStop {
  invalid_batch,
  invalid_offset,
  partial_header,
  partial_batch,
  corrupt_size
};
std::string_view recovery_stop_name(RecoveryStop stop);  // "invalid-batch", ...

struct RecoveryTruncation {
  std::int64_t truncate_to_offset = 0;  // the truncated segment's next offset afterwards
  std::string truncated_segment;        // its .log file name
  std::uint64_t valid_bytes = 0;        // bytes the segment keeps
  std::uint64_t truncated_bytes = 0;    // bytes cut from it (LogSegment.recover's result)
  RecoveryStop stop_reason = RecoveryStop::invalid_batch;
  std::uint64_t position = 0;                 // byte of the segment where recovery stopped
  std::string message;                        // Kafka's words where it has some
  std::vector<std::string> deleted_segments;  // later .log files LogLoader deletes
  std::uint64_t deleted_bytes = 0;            // their sizes
};

// The next start does not load the log at all: the broker exits.
struct LoadFailure {
  std::string segment;         // the .log file name
  std::uint64_t position = 0;  // byte of the entry Kafka cannot read
  std::string exception;       // Kafka's exception class
  std::string message;         // its message
};

struct PartitionVerification {
  PartitionReplica replica;  // what `partition inspect` shows
  std::vector<VerifyFinding> findings;
  std::optional<RecoveryTruncation> recovery_next_start;
  std::optional<RecoveryTruncation> recovery_full;
  std::optional<LoadFailure> next_start_failure;

  bool has_errors() const;
};

// Throws InputError as load_partition_replica does (unreadable dir, bad name, a
// leader-epoch-checkpoint Kafka refuses).
PartitionVerification verify_partition(const std::filesystem::path& dir,
                                       std::uint64_t index_interval_bytes = 4096);

// verify_partition in steps, so that the segments of one partition can be verified on
// several threads (logdir scan splits a large partition across its workers):
//
//   PartitionVerifier v(dir);                      // lists the dir, reads its checkpoints
//   v.verify_segment(i) for every i < v.segment_count(), on any threads, each i once
//   PartitionVerification r = v.finish();          // after all of them, on one thread
//
// The result equals verify_partition's, findings in the same order. Two rules carry state
// across segments (offsets never go backwards, partition leader epochs never decrease), and
// so does the replica loader (its epoch caches, recovery cutting the log). A segment whose
// predecessors are all done starts from their state; another is walked from an empty state,
// keeping what tells whether the true one would change its findings (its first batch's
// offsets, its first epoch, an epoch finding at that epoch), and finish() walks it again
// from the true state only then (an overlap or a decreasing epoch across the boundary: a
// damaged log). Its batches reach the loader in offset order in finish(), as the epoch
// changes they hold (partition_replica.hpp's SegmentLoad), so memory stays per segment.
// The constructor throws InputError as verify_partition does; finish() rethrows the first
// segment's (in offset order) that could not be read.
class PartitionVerifier {
 public:
  explicit PartitionVerifier(const std::filesystem::path& dir,
                             std::uint64_t index_interval_bytes = 4096,
                             const ReplicaOverrides& overrides = {},
                             const LogDirCheckpoints* log_dir = nullptr);
  ~PartitionVerifier();
  PartitionVerifier(const PartitionVerifier&) = delete;
  PartitionVerifier& operator=(const PartitionVerifier&) = delete;

  std::size_t segment_count() const;
  std::uint64_t segment_bytes(std::size_t i) const;  // the .log's size
  void verify_segment(std::size_t i);                // thread-safe for distinct i
  // Each segment read on a second thread while it is checked (LogSegmentReader::read_ahead):
  // for a caller verifying one segment at a time, not one that keeps every core busy.
  void read_ahead(bool on);
  PartitionVerification finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace kepoch
