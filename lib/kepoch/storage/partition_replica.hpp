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

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/epoch/truncation.hpp"
#include "kepoch/storage/log_segment_reader.hpp"

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

struct PartitionReplica {
  std::filesystem::path dir;
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
};

// Throws InputError when the directory cannot be read, its name is not a partition's, or
// its leader-epoch-checkpoint is one Kafka would refuse to load.
PartitionReplica load_partition_replica(const std::filesystem::path& dir,
                                        const ReplicaOverrides& overrides = {});

// Loads replica dirs that must all hold one partition (the replicas of it on several
// brokers). Throws UsageError naming the first dir that holds another partition.
std::vector<PartitionReplica> load_replicas_of_one_partition(
    const std::vector<std::filesystem::path>& dirs);

// The batches of `replica` from offset `from` on: how many records and bytes, and each
// batch's (base offset, last offset, crc), in order. Walks only the segments that matter.
struct BatchRange {
  std::uint64_t records = 0;
  std::uint64_t bytes = 0;
  struct Batch {
    std::int64_t base_offset;
    std::int64_t last_offset;
    std::int32_t records;
    std::uint32_t crc;
  };
  std::vector<Batch> batches;  // at most `max_batches`
};
BatchRange batches_from(const PartitionReplica& replica, std::int64_t from,
                        std::int64_t until = INT64_MAX, std::size_t max_batches = 1u << 20);

}  // namespace kepoch
