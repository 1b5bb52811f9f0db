#pragma once
// One partition replica directory (<log dir>/<topic>-<partition>) as Kafka would load it:
// its segments, the epoch cache from leader-epoch-checkpoint, the high watermark, recovery
// point and log start offset from the parent log dir's checkpoints, and the state Kafka
// holds after LogLoader runs (shared/spec kafka-formats 11.2-11.3):
//
//   - the cache is seeded from the file (normalised as LeaderEpochFileCache's constructor);
//   - without a clean-shutdown marker, segments from the one holding the recovery point
//     are recovered: batches are checked (size, CRC) and the log ends before the first bad
//     one; recovered batches only add strictly newer epochs;
//   - then truncateFromEnd(LEO) and truncateFromStart(log start checkpoint).
//
// Read-only; memory stays bounded (segments are walked batch by batch, nothing is kept
// per batch).
//
// How much is read (LoadDepth): `whole` walks every segment (per-segment batch counts and the
// rebuilt epoch cache are known: `partition inspect`, snapshots); `tail` reads what Kafka's
// LogLoader reads: the recovered segments (a broker without a clean shutdown, from the
// recovery point's segment on) and, for the log end offset, the last segment from its last
// offset-index entry (LogSegment.readNextOffset). The epoch cache, log end offset, high
// watermark, log start and recovery outcome are the same either way; a tail-loaded replica's
// batches are then read from an offset through the offset index (batch_cursor.hpp), so
// `diff` and `predict` cost the divergent tail, not the log.
//
// A replica read from a log dir snapshot (logdir_snapshot.hpp) has no segment files: it
// carries the batches the snapshot kept (`stored`), and batches_from answers from those,
// saying when they do not cover the range asked for.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/epoch/tiered_fetch.hpp"
#include "kepoch/epoch/truncation.hpp"
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/transaction_batch.hpp"

namespace kepoch {

struct SegmentSummary {
  std::filesystem::path file;
  std::int64_t base_offset = 0;
  std::uint64_t size_bytes = 0;
  std::uint64_t batches = 0;
  std::optional<std::int64_t> next_offset;  // after its last batch
};

// Values that override what the parent log dir's checkpoints say (or supply missing ones).
struct ReplicaOverrides {
  std::optional<std::int64_t> high_watermark;
  std::optional<std::int64_t> recovery_point;
  std::optional<std::int64_t> log_start_offset;
  std::optional<bool> clean_shutdown;
};

enum class LoadDepth { whole, tail };

// One batch of the loaded log as diff and predict compare it, and where it sits in the log.
struct BatchSummary {
  std::uint64_t ordinal = 0;  // index in the loaded log: 0 is its first batch
  std::int64_t base_offset = 0;
  std::int64_t last_offset = 0;
  std::int32_t records = 0;  // 1 for a legacy entry
  std::uint32_t size = 0;    // bytes, log overhead included
  std::uint32_t crc = 0;
  std::int32_t epoch = -1;           // partition leader epoch (-1 for legacy entries)
  std::uint64_t records_before = 0;  // in the batches before this one
  std::uint64_t bytes_before = 0;
  // A 64-bit hash chained over (base offset, last offset, crc) of every batch before this
  // one: two replicas with the same digest and ordinal at a batch hold the same batches
  // before it.
  std::uint64_t digest_before = 0;
};

// The next digest_before after batch `b`.
std::uint64_t chain_batch_digest(std::uint64_t digest, const BatchSummary& b);

// The batches a snapshot kept of a replica (windows of the loaded log), and the log's
// totals, so counts "from offset X to the end" need only the batch holding X.
struct StoredBatches {
  std::vector<BatchSummary> batches;  // ordinals strictly ascending
  std::uint64_t batch_count = 0;      // in the whole loaded log
  std::uint64_t records = 0;
  std::uint64_t bytes = 0;
  // The transactional and control batches of the kept tail (absent in snapshots of older
  // kepochs, and when the snapshot kept no tail up to the log end).
  std::optional<StoredTransactions> transactions;
};

struct PartitionReplica {
  // The replica dir; for a replica read from a snapshot, "<snapshot file>:<topic>-<partition>"
  // (reports name replicas by it).
  std::filesystem::path dir;
  // For a replica read from a snapshot: its dir on the broker's host as the snapshot recorded
  // it ("<log dir>/<topic>-<partition>"; empty when it does not say): where a command run on
  // that host (`kepoch salvage`) reads its records.
  std::string recorded_dir;
  std::string topic;
  std::int32_t partition = 0;
  std::optional<Uuid> topic_id;
  std::vector<SegmentSummary> segments;

  std::vector<EpochEntry> checkpoint_entries;  // the file, as Kafka loads it
  std::vector<EpochEntry> rebuilt_entries;     // assign(epoch, base) for every v2 batch
  bool clean_shutdown = false;
  std::optional<std::int64_t> high_watermark;        // replication-offset-checkpoint
  std::optional<std::int64_t> recovery_point;        // recovery-point-offset-checkpoint
  std::optional<std::int64_t> log_start_checkpoint;  // log-start-offset-checkpoint
  std::vector<std::string> notes;                    // what was assumed, in sentences

  std::int64_t log_end_offset = 0;      // after recovery, as Kafka computes it
  std::optional<LogEnd> recovery_stop;  // where recovery cut the log, if it did
  std::uint64_t recovery_truncated_bytes = 0;
  ReplicaLog loaded;  // cache, LEO, HW, log start after loading
  // The replica as a leader answers from it: a live leader's cache keeps the data-less entry
  // its election added at the log end (LogLoader's truncateFromEnd(LEO) would drop it only on
  // a restart, and becoming leader again adds a new one there).
  ReplicaLog as_leader;
  // Set when the replica comes from a snapshot: the batches it kept (no segment files).
  std::optional<StoredBatches> stored;
  // With LoadDepth::tail, the segments the load did not read keep batches 0 and no
  // next_offset, and rebuilt_entries holds only the batches it read.
  LoadDepth depth = LoadDepth::whole;
  // Set by the caller for a replica of a tiered partition (KIP-405) that followers fetch
  // from: its log start is then the whole log's (LogLoader with remote storage enabled keeps
  // log-start-offset-checkpoint's value below its first local segment), and `remote_log` the
  // partition's __remote_log_metadata (null: not given, so the remote tier is unknown).
  struct RemoteTier {
    std::shared_ptr<const RemoteLogIndex> remote_log;
    std::string source;  // where the metadata was read, or why it is missing
  };
  std::optional<RemoteTier> remote_tier;
};

// Makes `replica` what a default-constructed PartitionReplica is, except that its lists
// (segments, epoch entries, notes) and texts keep their storage for the next replica read
// into it; the snapshot's kept batches' storage is returned (empty) for the next replica's
// StoredBatches. A stream read one replica at a time into the same few objects then
// allocates next to nothing per replica.
std::vector<BatchSummary> recycle_replica(PartitionReplica& replica);

// Whether `leader`'s files show the sign of a tiered log: a log-start-offset-checkpoint below
// its first local segment (LogLoader keeps it only with remote storage enabled; a checkpoint
// not yet written after a deletion shows it too, which is why the metadata decides).
bool shows_remote_tier(const PartitionReplica& replica);

// The leader's answers with its tier (LeaderAnswers::tier) when `leader.remote_tier` is set.
void add_tier_answers(LeaderAnswers& answers, const PartitionReplica& leader,
                      const ReplicaLog& leader_log);

// Throws InputError when the directory cannot be read, its name is not a partition's, or
// its leader-epoch-checkpoint is one Kafka would refuse to load.
PartitionReplica load_partition_replica(const std::filesystem::path& dir,
                                        const ReplicaOverrides& overrides = {},
                                        LoadDepth depth = LoadDepth::whole);

// Calls `visit` for every batch of the loaded log (the segments as load_partition_replica
// kept them, up to the log end offset), in order. Throws InputError for a replica read from
// a snapshot (it has no segment files).
void walk_batches(const PartitionReplica& replica,
                  const std::function<void(const BatchSummary&)>& visit);

// The batches of `replica` from offset `from` on (those whose last offset is >= from and
// whose base offset is < until): how many records and bytes, and each batch's (base offset,
// last offset, crc), in order. Walks only the segments that matter (batch_cursor.hpp: from the
// offset index's entry when the replica was loaded to its tail). For a replica read from
// a snapshot: the counts are known when the snapshot kept the batches at both ends of the
// range, the list is complete when it kept every batch of the range (otherwise it holds the
// kept ones).
struct BatchRange {
  std::uint64_t records = 0;
  std::uint64_t bytes = 0;
  bool counts_known = true;
  bool batches_complete = true;
  struct Batch {
    std::int64_t base_offset;
    std::int64_t last_offset;
    std::int32_t records;
    std::uint32_t crc;
  };
  std::vector<Batch> batches;  // at most `max_batches`
  // When the list is not complete: it still holds every batch that ends below this offset
  // (from the batch holding `from` on, without a gap); `from` when nothing can be said.
  std::int64_t complete_until = INT64_MAX;
};
BatchRange batches_from(const PartitionReplica& replica, std::int64_t from,
                        std::int64_t until = INT64_MAX, std::size_t max_batches = 1u << 20);

}  // namespace kepoch
