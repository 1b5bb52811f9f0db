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
  // The broker and cluster whose replicas these are: node.id and cluster.id of the log dir's
  // meta.properties (a replica dir's parent), or what a snapshot records; unset when not
  // known (no such file, one Kafka cannot load, a snapshot that does not say). identity_file
  // names where they were read.
  std::optional<std::int32_t> node_id;
  std::optional<std::string> cluster_id;
  std::string identity_file;
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
  // The cluster the arguments record (every one that records one agrees), and where it was
  // read; unset when none records one.
  std::optional<std::string> cluster_id;
  std::string cluster_file;
};

// Pairs the sources' replicas. Groups need at least `min_replicas` replicas; with
// `first_required`, a group must hold one from the first source (predict's leader), first.
// Throws UsageError when single replicas do not belong to one partition, when no partition
// pairs up, when two sources record different cluster ids (replicas of different clusters
// are no replicas of one partition), or when a partition would pair two replicas of one
// broker (the same node.id in one cluster: Kafka holds one replica of a partition per
// broker). A source whose cluster is not known is compared, with a note on each of its
// replicas (in PartitionReplica::notes) when another source's cluster is known: that they
// belong to one cluster is not claimed.
PairedPartitions pair_replicas(std::vector<ReplicaSource> sources, std::size_t min_replicas,
                               bool first_required);

}  // namespace kepoch
