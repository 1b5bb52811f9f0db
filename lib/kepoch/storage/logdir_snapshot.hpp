#pragma once
// A log dir snapshot: what `diff` and `predict` need of every partition replica in a
// broker's log dir(s), in a small text file that can be copied off the machine instead of
// the data. Written by write_logdir_snapshot (logdir_snapshot_writer.cpp), read back by
// read_logdir_snapshot (logdir_snapshot_reader.cpp); the layout is documented at the top of
// both. Each replica is loaded as load_partition_replica does (partition_replica.hpp) and
// keeps, besides its loaded state, windows of its batches:
//
//   - around each boundary: `window` batches before and after the batch holding each epoch
//     start offset (of the checkpoint, the rebuilt history and the loaded caches), the log
//     start, the recovery point and the high watermark;
//   - the tail: from `window` batches before the high watermark to the log end, at most
//     kTailWindowFactor * window batches (the last ones);
//
// and every kept batch carries the records and bytes before it, so "records and bytes from
// offset X to the log end" is exact whenever the batch holding X and the one before it were
// kept: epoch start offsets, the high watermark, the log end, and usually the leader's end
// offsets (its epoch boundaries sit in the follower's tail window). Every kept batch also
// carries a digest of all the batches before it (chain_batch_digest), so `diff` can tell two
// replicas identical up to a kept batch without the batches between windows.
//
// The tail kept without a gap up to the log end also carries its transactional and control
// batches (StoredTransactions: producer id, COMMIT or ABORT marker), so a forecast from a
// snapshot counts removed records as consumers see them (consumer_view.hpp); snapshots of
// older kepochs lack them, and those counts stay unknown.
//
// What a snapshot cannot answer (diff and predict say so in `unanswered`, never guess):
//   - records and bytes removed from an offset whose batch (or the one before) was not kept;
//   - which removed records are lost, when a batch from the truncation offset to the
//     follower's log end was not kept by the follower's or the leader's snapshot;
//   - the first differing batch, when a batch of the range lies between windows after the
//     last point where both replicas' digests agree (e.g. log start offsets differ).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

inline constexpr std::string_view kSnapshotFormat = "kepoch-logdir-snapshot";
inline constexpr std::int64_t kSnapshotVersion = 1;
inline constexpr std::uint32_t kDefaultSnapshotWindow = 16;
inline constexpr std::uint32_t kTailWindowFactor = 64;
inline constexpr std::uint64_t kMaxSnapshotBytes = 1ull << 30;
inline constexpr std::size_t kMaxSnapshotLineBytes = 64u << 20;

struct SnapshotOptions {
  std::uint32_t window = kDefaultSnapshotWindow;  // at least 1
};

// A partition dir of a snapshotted log dir that was not included, and why.
struct SnapshotSkip {
  std::string dir;  // as found: <log dir>/<name>
  std::string reason;
  // The replica could not be read (an InputError: permission denied, a FIFO, a checkpoint
  // Kafka refuses...), as opposed to a dir that is not a live replica (-delete, the metadata
  // log): the snapshot cannot stand for that broker's copy of the partition.
  bool unreadable = false;
};

struct LogDirSnapshot {
  std::filesystem::path file;
  std::uint32_t window = kDefaultSnapshotWindow;
  std::vector<std::string> log_dirs;
  // The broker and cluster of the log dirs (meta.properties), when the snapshot says.
  std::optional<std::int32_t> node_id;
  std::optional<std::string> cluster_id;
  std::vector<PartitionReplica> replicas;  // `stored` set; dir is "<file>:<topic>-<partition>"
  std::vector<std::string> log_dir_of;     // per replica: the log dir it was in
  std::vector<SnapshotSkip> skipped;
};

// The partition dirs of a log dir that diff, predict and snapshots take: the normal
// topic-partition dirs in name order (not the metadata log, nor -delete/-future/-stray
// dirs, which go to `skipped`). Throws InputError when the log dir cannot be listed.
std::vector<std::filesystem::path> partition_dirs_of_log_dir(const std::filesystem::path& log_dir,
                                                             std::vector<SnapshotSkip>& skipped);

struct SnapshotSummary {
  std::uint64_t replicas = 0;
  std::uint64_t kept_batches = 0;
  std::uint64_t batches = 0;  // in the replicas' loaded logs
  std::vector<SnapshotSkip> skipped;
  // node.id of the first meta.properties that reads (the header's node_id), if any.
  std::optional<std::int32_t> node_id;
};

// UsageError when a log dir is given twice (the same path, or another path to the same
// dir): its replicas would be written twice, which read_logdir_snapshot refuses.
void check_log_dirs_distinct(const std::vector<std::filesystem::path>& log_dirs);

// Writes the snapshot of `log_dirs` to `out` (check_log_dirs_distinct first). A partition dir that
// cannot be loaded is listed as skipped with the error. Throws InputError when a log dir cannot be
// listed. Opens the log dirs read-only and creates nothing: the caller owns `out`.
SnapshotSummary write_logdir_snapshot(std::ostream& out,
                                      const std::vector<std::filesystem::path>& log_dirs,
                                      const SnapshotOptions& options = {});

// Reads a snapshot file. Throws InputError naming the file, the line and what was expected
// when it is not one this version writes (truncated, another version, a field of the wrong
// type or out of range).
LogDirSnapshot read_logdir_snapshot(const std::filesystem::path& file);
// The same from text (`name` is used in errors and replica names).
LogDirSnapshot parse_logdir_snapshot(std::string_view text, const std::filesystem::path& name);

// Partition order: by topic name (bytes), then partition number. write_logdir_snapshot
// writes a snapshot's replicas in it, across all its log dirs; KRaft's metadata replay lists
// partitions in it too (metadata/partition_history's timeline_order).
bool partition_before(std::string_view topic_a, std::int32_t partition_a, std::string_view topic_b,
                      std::int32_t partition_b);

// A snapshot file read one replica at a time (`plan` merges a cluster's snapshots as sorted
// streams): only the window of text around the current line and the current replica are
// held. The same checks and errors as read_logdir_snapshot, and one more: the replicas must
// come in partition order (an InputError naming the file and the line of the first that does
// not; snapshots of kepochs before 2026-12 list each log dir's partition dirs by name, which
// puts orders-10 before orders-2). A regular file only (not standard input).
class LogDirSnapshotStream {
 public:
  // Reads the header line (InputError when it is not a snapshot's).
  explicit LogDirSnapshotStream(const std::filesystem::path& file);
  ~LogDirSnapshotStream();
  LogDirSnapshotStream(LogDirSnapshotStream&&) noexcept;

  // window, log_dirs, node_id, cluster_id; `skipped` as far as read (whole once next() has
  // returned false); `replicas` stays empty.
  const LogDirSnapshot& header() const;
  // The next replica (and the log dir it was in); false once the end line is read and checked.
  // `replica` is overwritten whole, its lists' storage reused (recycle_replica): reading each
  // replica into the same object allocates next to nothing once it has grown.
  bool next(PartitionReplica& replica, std::string* log_dir = nullptr);
  // The topic and partition of the replica next() would return, when its line says them in the
  // writer's fast form, without reading it (true); false when that is not known so (the end,
  // a skipped line, a line only the general path reads, an error: next() says). `topic`
  // points into the window: valid until the next call on this stream.
  bool peek(std::string_view& topic, std::int32_t& partition);
  // Lets the read window go until the next next() (which reads the unread text again): for a
  // caller that reads many streams in turns, so that a waiting stream holds no window.
  void pause();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kepoch
