#pragma once
// Where a replay of a KRaft metadata log starts: which snapshot, then the log from which
// offset. A __cluster_metadata-0 directory holds log segments (<base offset>.log) and
// snapshots (<end offset>-<epoch>.checkpoint, format/snapshot_file_name.hpp); once the log
// has been cleaned, its first records are gone and only a snapshot holds the state they
// built.
//
// What Kafka keeps and loads at start (KafkaMetadataLog.apply, Kafka 4.1):
//   - log start offset L: the base offset of the first segment. KafkaMetadataLog opens the
//     UnifiedLog with logStartOffset 0 and no log-start checkpoint, so LogLoader takes
//     max(0, first segment's base offset).
//   - snapshots (KafkaMetadataLog.recoverSnapshots): the frozen .checkpoint files with end
//     offset >= L; .part and .deleted files and snapshots below L are deleted. When L > 0 and
//     no snapshot reaches L, the load fails ("Inconsistent snapshot state": records below L
//     are gone and nothing holds them).
//   - truncateToLatestSnapshot: when the latest snapshot's epoch is above the log's latest
//     epoch, or equal with an end offset past the log end (a follower that fetched a snapshot
//     and stopped before truncating), the whole log is discarded: the node starts at that
//     snapshot.
//   - the replay (KafkaRaftClient.updateListenersProgress, MetadataLoader): a new listener is
//     handed the latest snapshot (handleLoadSnapshot: the state replaces everything), then the
//     committed log from the snapshot's end offset (handleCommit); with no snapshot, the log
//     from offset 0.
// Cleaning (KafkaMetadataLog.cleanSnapshots / deleteBeforeSnapshot) only ever advances L to
// a snapshot's end offset and deletes the segments wholly below it, so every snapshot kept
// is followed by the log without a gap, and the oldest one kept is where the log's retained
// history starts.
//
// kepoch's history wants the longest replay that ends in the same state a starting node
// builds (`automatic`):
//   - L == 0: the log from offset 0, after the bootstrap snapshot 0-<epoch> when there is one
//     (it holds what precedes offset 0; a dynamic quorum's `kafka-storage format` writes it);
//     later snapshots restate what the log already says.
//   - L > 0: the oldest snapshot with end offset >= L, then the log from its end offset (the
//     records between L and it are in the snapshot; they are not replayed twice).
//   - a latest snapshot Kafka would truncate the log to: that snapshot alone.
//   - L > 0 and no snapshot reaches L: the log from L, with a problem (Kafka refuses to load
//     it; changes of partitions created below L cannot be replayed).
// `--snapshot FILE` starts at that snapshot (from this directory or elsewhere), then the log
// from its end offset; the log must not start above it. `--no-snapshot` replays the log alone.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/storage/metadata_log.hpp"
#include "kepoch/storage/metadata_snapshot.hpp"

namespace kepoch {

struct MetadataReplayOptions {
  // Start at this snapshot: a path, or a file name in the metadata directory.
  std::optional<std::filesystem::path> snapshot;
  bool no_snapshot = false;  // the log alone
};

// The log's shape, as KafkaMetadataLog sees it at start.
struct MetadataLogShape {
  std::optional<std::int64_t> log_start_offset;  // first segment's base offset (none: no log)
  std::optional<std::int64_t> log_end_offset;    // after the last batch (or last segment's base)
  std::optional<std::int32_t> latest_epoch;      // the last batch's partition leader epoch
  std::vector<SnapshotId> snapshots;             // frozen, ascending
};

enum class MetadataStartRule {
  log_start,             // the log from its start (offset 0, or a file given alone)
  bootstrap_then_log,    // the bootstrap snapshot (end offset 0), then the log from 0
  oldest_snapshot,       // L > 0: the oldest snapshot reaching L, then the log from it
  latest_snapshot,       // truncateToLatestSnapshot: that snapshot alone
  no_covering_snapshot,  // L > 0 and no snapshot reaches L: the log from L (a problem)
  given_snapshot,        // --snapshot FILE (or a .checkpoint target), then the log from it
  no_snapshot,           // --no-snapshot (or a .log target)
};
std::string_view metadata_start_rule_name(MetadataStartRule rule);

struct MetadataStart {
  MetadataStartRule rule = MetadataStartRule::log_start;
  std::optional<SnapshotId> snapshot;  // replayed first
  bool read_log = true;
  std::int64_t from_offset = 0;  // log records below are not replayed
};

// The rule above over a log's shape (no files): the start kepoch replays from.
MetadataStart choose_metadata_start(const MetadataLogShape& shape);

struct MetadataReplayPlan {
  std::string target;
  std::filesystem::path dir;  // the __cluster_metadata-0 directory (empty: a file target)
  MetadataLogShape shape;
  MetadataStart start;
  std::optional<MetadataSnapshotFile> snapshot;  // the file of start.snapshot
  std::vector<std::filesystem::path> segments;   // read from start.from_offset
  std::vector<std::string> notes;                // snapshot files Kafka would not load, and why
  std::vector<std::string> problems;             // what keeps Kafka from loading this directory
};

// Reads the directory's listing and its last segment's batch headers (for the log end and
// latest epoch), and picks the start. Throws InputError when the target holds neither a log
// nor a snapshot, or a given snapshot leaves a gap before the log.
MetadataReplayPlan plan_metadata_replay(const std::filesystem::path& target,
                                        const MetadataReplayOptions& options = {});

struct MetadataReplaySummary {
  std::vector<std::string> files;
  std::uint64_t records = 0;                       // visited, the snapshot's included
  std::optional<std::int64_t> snapshot_timestamp;  // the snapshot's last contained log time
  std::optional<std::int64_t> first_log_offset;    // the first log record replayed
  std::optional<std::int64_t> log_end_offset;      // after the last batch read
  std::vector<std::string> problems;               // the plan's, the log's (batches, records), gaps
};

// Visits the snapshot's records (entries with `snapshot` set), then the log's from the
// start offset. Throws InputError for a damaged snapshot (read_metadata_snapshot).
// `skip`: the log's data records not to decode nor visit (read_metadata_log); counted in
// `records`. A snapshot's records are all visited.
MetadataReplaySummary replay_metadata(const MetadataReplayPlan& plan,
                                      const std::function<void(const MetadataLogEntry&)>& visit,
                                      const MetadataRecordSkip& skip = {});

}  // namespace kepoch
