#pragma once
// Loading one partition replica dir as Kafka's LogLoader does (the rules are in
// partition_replica.hpp), fed one batch at a time: a caller that reads every segment anyway
// (`partition verify`, `logdir scan`) feeds the batches of its own walk, so each segment is
// read once; load_partition_replica lets the loader walk the segments itself.
//
//   ReplicaLoader loader(dir);                  // names, checkpoints, the segment list
//   for each segment i while loader.wants(i):
//     for each entry e of it: if (!loader.batch(i, e, invalid)) break;
//     loader.segment_end(i, reader.end());      // only when the walk reached the end
//   PartitionReplica r = std::move(loader).finish();
//
// A caller that reads segments on several threads gathers each segment's batches apart
// (SegmentLoad, from start(i)) and applies them in offset order (apply(i, load)): the result
// equals feeding batch() and segment_end() in order.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/epoch/leader_epoch_cache.hpp"
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/partition_dir.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

// One segment's batches as the loader takes them, gathered apart from the loader: only what
// LogSegment.recover and the epoch caches need, in bounded memory.
class SegmentLoad {
 public:
  // As ReplicaLoader::batch: false when recovery cuts the log at this entry.
  bool batch(const LogSegmentReader::Entry& entry, const std::optional<std::string>& invalid);
  // As ReplicaLoader::segment_end (ignored after batch() returned false).
  void end(const LogEnd& end);

 private:
  friend class ReplicaLoader;
  bool recovers_ = false;
  std::uint64_t size_bytes_ = 0;
  std::int64_t base_offset_ = 0;
  std::uint64_t batches_ = 0;
  std::optional<std::int64_t> next_offset_;
  std::uint64_t valid_bytes_ = 0;  // up to the end of its last batch
  std::optional<LogEnd> stop_;     // recovery cuts the log here
  // assign(epoch, base offset) of the segment's v2 batches, leaving out those that cannot
  // change either cache: a batch of the same epoch as the v2 batch before it, at a base
  // offset no lower (after assign(e, b) the latest entry is e, starting at or below b, so
  // assign(e, b' >= b) is no update and assign_if_newer(e, ...) not newer).
  std::vector<EpochEntry> epochs_;
  std::optional<EpochEntry> last_epoch_;  // the last v2 batch's, recorded or not
  bool overflow_ = false;                 // too many epochs_ to hold: apply reads it again
  std::optional<BatchHeader> misplaced_;  // a batch whose offsets Kafka cannot place: apply throws
};

struct ParsedOffsetCheckpoint;

// What every partition's load reads of its parent log dir (.kafka_cleanshutdown and the
// three offset checkpoints), read once for all the partitions of one log dir (logdir scan):
// each load then takes the same values, notes and errors as when it reads them itself.
class LogDirCheckpoints {
 public:
  // `log_dir` as the loader computes a partition dir's parent (absolute, lexically normal);
  // `listed`, when given, the log dir as the caller lists it: its entries' paths are
  // recognised as partition dirs of this one without normalising each.
  explicit LogDirCheckpoints(const std::filesystem::path& log_dir,
                             const std::filesystem::path& listed = {});
  // The parent the loader computes for partition dirs in `log_dir`.
  static std::filesystem::path parent_of_partitions(const std::filesystem::path& log_dir);
  const std::filesystem::path& dir() const { return dir_; }
  // The three offsets the loader would take for topic-partition from this log dir's
  // checkpoints (high watermark, recovery point, log start), each set only where the file was
  // read and holds an entry (the loader takes it with no note); as overrides, they spare
  // each partition's load its lookups, which a caller can make in one pass.
  ReplicaOverrides known_offsets(std::string_view topic, std::int32_t partition) const;
  // Whether the loader computes `partition_dir`'s parent as dir().
  bool is_parent_of(const std::filesystem::path& partition_dir) const;
  // `partition_dir` opened relative to the listed log dir when it is "<listed>/<name>" and
  // the log dir is held open (no walk of the whole path per partition), else by its path.
  std::shared_ptr<const DirFd> open_partition_dir(const std::filesystem::path& partition_dir) const;

 private:
  friend class ReplicaLoader;
  struct File {
    std::string name;
    bool missing = false;
    std::shared_ptr<const ParsedOffsetCheckpoint> parsed;
    std::exception_ptr error;  // an InputError each load throws
  };
  std::optional<std::int64_t> offset(const File& f, const struct PartitionReplica& r,
                                     std::vector<std::string>& notes) const;
  std::filesystem::path dir_;
  // The partition dir's name when it is "<listed>/<name>" (a plain name), else "".
  std::string_view listed_name(const std::filesystem::path& partition_dir) const;
  std::string listed_prefix_;
  std::unique_ptr<const DirFd> listed_fd_;  // the listed log dir, held open  // the listed dir and
                                            // a separator: "<listed>/"; "" without one
  bool clean_shutdown_ = false;
  File high_watermark_, recovery_point_, log_start_;
};

class ReplicaLoader {
 public:
  // Reads the dir's name, partition.metadata, leader-epoch-checkpoint, the parent log dir's
  // checkpoints and the segment list. Throws InputError as load_partition_replica does.
  // `log_dir`, when given and the dir's parent, answers for the parent log dir's files.
  explicit ReplicaLoader(const std::filesystem::path& dir, const ReplicaOverrides& overrides = {},
                         const LogDirCheckpoints* log_dir = nullptr);

  const std::filesystem::path& dir() const { return replica_.dir; }
  // The partition dir held open (files are opened relative to it), or -1.
  int dir_fd() const { return handle_ && handle_->fd() >= 0 ? handle_->fd() : -1; }
  // The .log files, in offset order (LogLoader's).
  const std::vector<SegmentSummary>& segments() const { return replica_.segments; }
  // The partition dir's files as partition_files lists them (the listing the loader made,
  // for a reader that needs the other files too: partition verify).
  const std::vector<PartitionFile>& files() const { return files_; }
  // Whether segment i is still part of the log: recovery has not cut the log before it.
  bool wants(std::size_t i) const { return !cut_ && i < replica_.segments.size(); }
  // Whether segment i is recovered: its batches must be loaded and checked.
  bool recovers(std::size_t i) const;

  // The next entry of segment i. `invalid` is validate_batch's answer for a loaded entry.
  // Returns false when recovery cuts the log at this entry: the loader wants no more.
  bool batch(std::size_t i, const LogSegmentReader::Entry& entry,
             const std::optional<std::string>& invalid);
  // Segment i was walked to its end (not called when batch() returned false).
  void segment_end(std::size_t i, const LogEnd& end);

  // An empty SegmentLoad for segment i (whether it is recovered, its size): fill it, then
  // apply it. start() may be called from any thread; apply() in offset order, from one.
  SegmentLoad start(std::size_t i) const;
  void apply(std::size_t i, const SegmentLoad& load);

  // Walks every wanted segment itself.
  void walk();
  // Reads what Kafka's LogLoader reads (LoadDepth::tail, partition_replica.hpp): every
  // recovered segment whole, and of the last segment, when it is not recovered, the batches
  // from its last offset-index entry on (LogSegment.readNextOffset). The replica's log end,
  // epoch cache and recovery outcome equal walk()'s.
  void walk_tail();
  // The replica after loading (epoch cache truncations, log end, high watermark).
  PartitionReplica finish() &&;

 private:
  void read_parent_checkpoints(PartitionReplica& r, const std::filesystem::path& parent,
                               const ReplicaOverrides& overrides);
  void finish_setup();
  void enter(std::size_t i);  // starts segment i's own counts when its first call comes
  void cut_log(std::size_t i, std::uint64_t valid_bytes);
  void walk_segment(std::size_t i, std::uint64_t from_position);

  PartitionReplica replica_;
  std::vector<PartitionFile> files_;
  std::shared_ptr<const DirFd> handle_;
  LeaderEpochCache cache_;    // from the checkpoint, plus what recovery appends
  LeaderEpochCache rebuilt_;  // assign(epoch, base offset) of every v2 batch
  std::size_t recover_from_ = 0;
  // Segments without an offset index, or whose .txnindex fails TransactionIndex.sanityCheck:
  // LogLoader.loadSegmentFiles recovers them when it opens them (LogSegment.sanityCheck throws
  // NoSuchFileException or CorruptIndexException), after a clean shutdown too.
  std::vector<bool> recovered_at_open_;
  std::size_t segment_ = SIZE_MAX;  // the segment being walked
  std::uint64_t valid_bytes_ = 0;   // its bytes up to the end of its last batch
  bool cut_ = false;
};

}  // namespace kepoch
