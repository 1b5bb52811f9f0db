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

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/epoch/leader_epoch_cache.hpp"
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/partition_dir.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

class ReplicaLoader {
 public:
  // Reads the dir's name, partition.metadata, leader-epoch-checkpoint, the parent log dir's
  // checkpoints and the segment list. Throws InputError as load_partition_replica does.
  explicit ReplicaLoader(const std::filesystem::path& dir, const ReplicaOverrides& overrides = {});

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
  void enter(std::size_t i);  // starts segment i's own counts when its first call comes
  void cut_log(std::size_t i, std::uint64_t valid_bytes);
  void walk_segment(std::size_t i, std::uint64_t from_position);

  PartitionReplica replica_;
  std::vector<PartitionFile> files_;
  LeaderEpochCache cache_;    // from the checkpoint, plus what recovery appends
  LeaderEpochCache rebuilt_;  // assign(epoch, base offset) of every v2 batch
  std::size_t recover_from_ = 0;
  std::size_t segment_ = SIZE_MAX;  // the segment being walked
  std::uint64_t valid_bytes_ = 0;   // its bytes up to the end of its last batch
  bool cut_ = false;
};

}  // namespace kepoch
