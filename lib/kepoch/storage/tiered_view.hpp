#pragma once
// Tiered storage (KIP-405) as one log dir holds it, for `logdir scan`: the records of its
// __remote_log_metadata-N partitions (format/remote_log_metadata.hpp) replayed into each
// tiered partition's remote segments, set beside the partition's local replica in the same
// log dir.
//
// Per remote segment (by segment id): its RemoteLogSegmentMetadataRecord (offsets, size, leader
// epochs) and the last state its updates gave (RemoteLogMetadataCache applies them in the
// topic's order; one segment's events share a metadata partition, so the order is the log's).
// COPY_SEGMENT_FINISHED segments are the remote log a consumer reads and retention deletes.
// Per tiered partition:
//   remote_start/remote_end: the first and last offset of the finished segments (Kafka's
//     earliest offset of the partition, and what kafka-get-offsets --time -5 answers as the
//     latest tiered offset when the lineage holds it);
//   findings: finished segments that overlap (KAFKA-15168) or leave a gap; a gap between the
//     remote end and this replica's local log start (offsets neither remote nor local);
//     finished segments outside this replica's leader epoch lineage
//     (epoch/remote_lineage.hpp: RemoteLogManager.isRemoteSegmentWithinLeaderEpochs; Kafka's
//     retention by time or size skips them, KAFKA-16511: they go only when the log start
//     passes all their epochs, by the leader-epoch-cache truncation path); copies started but not
//     finished; deletes started but not finished; the partition's delete state.
// Records that do not decode are problems naming the file and byte offset.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/epoch/epoch_entry.hpp"
#include "kepoch/epoch/remote_retention.hpp"
#include "kepoch/epoch/tiered_fetch.hpp"
#include "kepoch/format/remote_log_metadata.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

struct RemoteSegmentView {
  Uuid segment_id;
  std::int64_t start_offset = 0;
  std::int64_t end_offset = 0;
  std::int32_t size_in_bytes = 0;
  std::int32_t broker_id = -1;  // of the copy
  std::vector<EpochEntry> leader_epochs;
  std::string
      state;  // the last state (RemoteLogSegmentState name); "UNKNOWN" without a copy record
  std::optional<bool> within_lineage;  // with a local replica: isRemoteSegmentWithinLeaderEpochs
  std::string lineage_reason;
  // With a local replica, were it the leader: what the remote-log retention does to the
  // segment once retention reaches every segment of its lineage (epoch/remote_retention.hpp),
  // by Kafka 4.x's rules; `fate_kafka_3_9` only where 3.9's differ. None: no forecast (the
  // segment was gone before, or the replica's epochs are unreadable).
  std::optional<RemoteSegmentFate> fate;
  std::optional<RemoteSegmentFate> fate_kafka_3_9;
};

struct TieredFinding {
  std::string severity;  // "warning" or "info"
  std::string kind;      // overlap, gap, local_gap, outside_lineage, copy_unfinished, ...
  std::string message;
};

struct TieredPartitionView {
  std::string topic;
  Uuid topic_id;
  std::int32_t partition = 0;
  std::vector<RemoteSegmentView> segments;  // every segment the metadata names, by start offset
  std::optional<std::int64_t> remote_start;
  std::optional<std::int64_t> remote_end;
  std::optional<std::string> partition_delete_state;
  // The replica of this partition in the same log dir, when there is one.
  bool local_replica = false;
  std::int64_t local_start = 0;          // its first local offset (LogDirScan's log start)
  std::int64_t local_end = 0;            // its log end offset
  std::vector<EpochEntry> local_epochs;  // its leader-epoch-checkpoint
  // Its log start offset (log-start-offset-checkpoint: the whole log's, below local_start on
  // a tiered log); none: the retention forecast assumes local_start.
  std::optional<std::int64_t> log_start_checkpoint;
  // The partition's __remote_log_metadata replayed as the broker's metadata cache holds it.
  std::shared_ptr<RemoteLogIndex> index;
  // Were the local replica the leader: its log start after the retention passes (fates).
  std::optional<std::int64_t> log_start_after_retention;
  std::vector<TieredFinding> findings;
};

struct TieredLogDirView {
  std::vector<std::string> metadata_partitions;  // the __remote_log_metadata-N dirs read
  std::uint64_t records = 0;
  std::vector<LogDirProblem> problems;          // records that do not decode, unreadable segments
  std::vector<TieredPartitionView> partitions;  // by topic, partition
};

// The findings of one partition whose segments and local replica are filled in (sorts the
// segments, sets remote_start/remote_end, within_lineage, the retention fates when `index`
// is set, and findings). Pure.
void judge_tiered_partition(TieredPartitionView& partition);

// Reads `scan`'s __remote_log_metadata partitions (none: an empty view) and the local
// replicas' leader-epoch-checkpoints. Read-only.
TieredLogDirView read_tiered_view(const LogDirScan& scan);

// Each tiered partition's __remote_log_metadata replayed in the topic's order into a
// RemoteLogIndex (epoch/tiered_fetch.hpp: what a broker's metadata manager answers), for the
// follower's path through the remote tier in `predict`. `paths` are __remote_log_metadata-N
// dirs or log dirs holding them. Records that do not decode are problems (file, byte
// offset); a path that is neither throws InputError. Read-only.
struct RemoteLogIndexes {
  std::map<std::pair<std::string, std::int32_t>, std::shared_ptr<RemoteLogIndex>> partitions;
  std::vector<std::string> metadata_partitions;  // the dirs read
  std::vector<LogDirProblem> problems;
};
RemoteLogIndexes read_remote_log_indexes(const std::vector<std::filesystem::path>& paths);

// One decoded record replayed into `out` (a segment's copy record or a state update; the
// other kinds change no index), in the topic's order: what read_remote_log_indexes does with
// each record of a partition dir, and what `cluster predict` does with each record consumed
// live (forecast/live_remote_log_metadata). Pure.
void add_remote_log_metadata(RemoteLogIndexes& out, const RemoteLogMetadata& record);

// The __remote_log_metadata-N dirs of log dir `dir` (none: empty). Read-only.
std::vector<std::filesystem::path> remote_log_metadata_dirs_in(const std::filesystem::path& dir);

// Which replicas `predict` forecasts against as tiered leaders (PartitionReplica::remote_tier):
//   - with `metadata` (--remote-log-metadata) every replica of a partition it names, with
//     that partition's index; a replica showing the tiered sign (shows_remote_tier) of a
//     partition it does not name, with none (unknown);
//   - without it, only replicas showing the sign: the __remote_log_metadata-N dirs of the
//     replica's own log dir when it has them, else none (the remote tier unknown).
// A replica without the sign and not named costs nothing (no file is read).
void attach_remote_tiers(std::vector<std::vector<PartitionReplica>>& groups,
                         const std::vector<std::filesystem::path>& metadata);

// The same choice one replica at a time (`plan` attaches each replica as its state is read):
// the --remote-log-metadata given read once (InputError as read_remote_log_indexes), a log
// dir's own __remote_log_metadata read once per log dir. Not thread-safe.
class RemoteTierAttacher {
 public:
  explicit RemoteTierAttacher(const std::vector<std::filesystem::path>& metadata);
  void attach(PartitionReplica& replica);

 private:
  std::optional<RemoteLogIndexes> given_;
  std::map<std::string, RemoteLogIndexes> by_log_dir_;
};

}  // namespace kepoch
