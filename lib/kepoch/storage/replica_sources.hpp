#pragma once
// What the arguments of `diff` and `predict` name, and how their replicas pair up.
//
// One argument is one broker's view:
//   - a partition replica dir (<log dir>/orders-0): that replica;
//   - a broker log dir (it holds meta.properties or an offset checkpoint file): every
//     partition replica in it (partition_dirs_of_log_dir);
//   - a log dir snapshot file (logdir_snapshot.hpp): every replica it holds;
//   - FILE:PARTITION, a snapshot file and a partition name (snap.jsonl:orders-0): that one.
//
// Pairing: when every argument names one replica, they must be replicas of one partition
// (same topic and partition; the same topic id when both record one). Otherwise replicas are
// paired by topic name and partition across the arguments, each partition becoming one
// group; a replica whose topic id differs from the first one's of its partition is left out
// with a note (a topic deleted and re-created under the same name).

#include <filesystem>
#include <string>
#include <vector>

#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

struct ReplicaSource {
  std::string argument;
  bool whole = false;  // a log dir or a whole snapshot (pairing by partition)
  std::vector<PartitionReplica> replicas;
  std::vector<std::string> notes;  // partition dirs left out, and why
};

// Throws InputError when the argument names nothing readable, UsageError when FILE:PARTITION
// names a partition the snapshot does not hold. Replica dirs are loaded to `depth`
// (partition_replica.hpp).
ReplicaSource load_replica_source(const std::string& argument, LoadDepth depth = LoadDepth::whole);

struct PartitionGroup {
  std::vector<PartitionReplica> replicas;  // in argument order
  std::vector<std::size_t> sources;        // the argument each one comes from
};

struct PairedPartitions {
  bool single = false;  // every argument named one replica: one group, the old report shape
  std::vector<PartitionGroup> groups;  // by topic, then partition
  std::vector<std::string> notes;      // partitions held by fewer than `min_replicas`, ...
};

// Pairs the sources' replicas. Groups need at least `min_replicas` replicas; with
// `first_required`, a group must hold one from the first source (predict's leader), first.
// Throws UsageError when single replicas do not belong to one partition, or when no
// partition pairs up.
PairedPartitions pair_replicas(std::vector<ReplicaSource> sources, std::size_t min_replicas,
                               bool first_required);

}  // namespace kepoch
