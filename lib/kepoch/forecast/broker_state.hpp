#pragma once
// What a state argument of `plan` means: one broker's replicas and whose they are. The
// argument is read as every command reads a replica argument (storage/replica_sources.hpp:
// a log dir, a replica dir, a `kepoch logdir snapshot` file, `-` for standard input, or
// SNAPSHOT:TOPIC-PARTITION), and the broker and cluster are the ones that source records
// (node.id and cluster.id of the log dir's meta.properties, storage/broker_identity.hpp, or
// what the snapshot records).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/storage/partition_replica.hpp"

namespace kepoch::forecast {

struct BrokerState {
  std::string argument;
  std::optional<std::int32_t> broker;  // unset: not recorded (check_one_cluster asks for --ids)
  std::optional<std::string> cluster_id;
  std::vector<PartitionReplica> replicas;
  std::vector<std::string> notes;  // partition dirs left out, and why
};

// Throws InputError when the argument names nothing readable, UsageError when
// SNAPSHOT:TOPIC-PARTITION names a partition the snapshot does not hold.
BrokerState load_broker_state(const std::string& argument);

// Every argument's state, read on `jobs` threads (a hundred brokers' snapshots are most of a
// plan's work), in argument order, each replica cut to what a plan reads
// (keep_what_plans_read). The first argument's error is the one thrown, whichever thread met
// it first.
std::vector<BrokerState> load_broker_states(const std::vector<std::string>& arguments,
                                            unsigned jobs);

// A broker's replicas one at a time, in partition order (storage/logdir_snapshot.hpp's
// partition_before), each cut to what a plan reads (keep_what_plans_read).
class ReplicaStream {
 public:
  virtual ~ReplicaStream() = default;
  // The next replica; false when there is none left.
  virtual bool next(PartitionReplica& replica) = 0;
  // The topic and partition of the replica next() would return, when the stream can say so
  // without reading it (true; `topic` valid until the next call on the stream); false when
  // it cannot (then next() is the way to know): a caller deciding whether to read on keeps
  // nothing read ahead.
  virtual bool peek(std::string_view& /*topic*/, std::int32_t& /*partition*/) { return false; }
  // The caller reads other streams before this one's next(): memory held only for reading on
  // (a snapshot's window) may go.
  virtual void pause() {}
  // The partition dirs left out, and why: whole once next() has returned false.
  virtual std::vector<std::string> notes() const = 0;
};

struct StreamedBrokerState {
  BrokerState state;  // argument, broker, cluster id; no replicas, no notes (the stream's)
  std::unique_ptr<ReplicaStream> replicas;
};

// Every argument opened as a stream, in argument order: a snapshot file is read a replica at
// a time (storage's LogDirSnapshotStream: it must be in partition order, else an InputError
// names the file and line); any other argument (a log dir, replica dirs, standard input,
// SNAPSHOT:TOPIC-PARTITION) is read whole on `jobs` threads, as load_broker_states reads it,
// and its replicas handed on sorted. The first argument's error is the one thrown.
std::vector<StreamedBrokerState> open_broker_states(const std::vector<std::string>& arguments,
                                                    unsigned jobs);

}  // namespace kepoch::forecast
