#include "kepoch/forecast/broker_state.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iterator>
#include <utility>

#include <fmt/format.h>
#include "kepoch/forecast/recovery_plan.hpp"

#include "kepoch/base/read_only_file.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"
#include "kepoch/storage/replica_sources.hpp"

namespace kepoch::forecast {

BrokerState load_broker_state(const std::string& argument) {
  ReplicaSource source = load_replica_source(argument);
  BrokerState s;
  s.argument = argument;
  s.broker = source.node_id;
  s.cluster_id = std::move(source.cluster_id);
  s.replicas = std::move(source.replicas);
  s.notes = std::move(source.notes);
  return s;
}

std::vector<BrokerState> load_broker_states(const std::vector<std::string>& arguments,
                                            unsigned jobs) {
  std::vector<BrokerState> states(arguments.size());
  std::vector<std::exception_ptr> errors(arguments.size());
  parallel_for(arguments.size(), jobs, [&](std::size_t i) {
    try {
      states[i] = load_broker_state(arguments[i]);
      for (auto& r : states[i].replicas)
        keep_what_plans_read(r);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return states;
}

namespace {

class SnapshotReplicas : public ReplicaStream {
 public:
  explicit SnapshotReplicas(const std::string& file) : file_(file), stream_(file) {}
  const LogDirSnapshot& header() const { return stream_.header(); }
  bool next(PartitionReplica& replica) override {
    if (!stream_.next(replica, &log_dir_)) return false;
    // Where the replica was on its host, as storage/replica_sources records it of a whole
    // snapshot (the plan's salvage commands name it): the log dir / "<topic>-<partition>".
    if (!log_dir_.empty()) {
      std::string& out = replica.recorded_dir;
      if (log_dir_.back() != '/' && !replica.topic.starts_with('/')) {
        out.assign(log_dir_).append("/").append(replica.topic).append("-");
        fmt::format_to(std::back_inserter(out), "{}", replica.partition);
      } else {  // path's own rules for the separator
        out = (std::filesystem::path(log_dir_) /
               fmt::format("{}-{}", replica.topic, replica.partition))
                  .string();
      }
    }
    // keep_what_plans_read's cut, the storage kept for the next replica read into this one.
    replica.segments.clear();
    replica.checkpoint_entries.clear();
    replica.rebuilt_entries.clear();
    return true;
  }
  bool peek(std::string_view& topic, std::int32_t& partition) override {
    return stream_.peek(topic, partition);
  }
  void pause() override { stream_.pause(); }
  // As storage/replica_sources says them of a whole snapshot.
  std::vector<std::string> notes() const override {
    std::vector<std::string> out;
    for (const auto& k : stream_.header().skipped)
      out.push_back(fmt::format("{}: {}: left out: {}", input_name(file_), k.dir, k.reason));
    return out;
  }

 private:
  std::string file_;
  LogDirSnapshotStream stream_;
  std::string log_dir_;  // the current replica's
};

class HeldReplicas : public ReplicaStream {
 public:
  explicit HeldReplicas(BrokerState& state)
      : replicas_(std::move(state.replicas)), notes_(std::move(state.notes)) {
    state.replicas.clear();
    state.notes.clear();
    std::stable_sort(replicas_.begin(), replicas_.end(), [](const auto& a, const auto& b) {
      return partition_before(a.topic, a.partition, b.topic, b.partition);
    });
  }
  bool next(PartitionReplica& replica) override {
    if (at_ == replicas_.size()) {
      std::vector<PartitionReplica>().swap(replicas_);
      return false;
    }
    replica = std::move(replicas_[at_++]);
    return true;
  }
  bool peek(std::string_view& topic, std::int32_t& partition) override {
    if (at_ == replicas_.size()) return false;
    topic = replicas_[at_].topic;
    partition = replicas_[at_].partition;
    return true;
  }
  std::vector<std::string> notes() const override { return notes_; }

 private:
  std::vector<PartitionReplica> replicas_;
  std::vector<std::string> notes_;
  std::size_t at_ = 0;
};

bool streamed(const std::string& argument) {
  std::error_code ec;
  return argument != "-" && std::filesystem::is_regular_file(argument, ec);
}

}  // namespace

std::vector<StreamedBrokerState> open_broker_states(const std::vector<std::string>& arguments,
                                                    unsigned jobs) {
  std::vector<StreamedBrokerState> states(arguments.size());
  std::vector<std::exception_ptr> errors(arguments.size());
  parallel_for(arguments.size(), jobs, [&](std::size_t i) {
    try {
      StreamedBrokerState& s = states[i];
      s.state.argument = arguments[i];
      if (streamed(arguments[i])) {
        auto stream = std::make_unique<SnapshotReplicas>(arguments[i]);
        // The window its header was read in goes until its first next(): the streams are
        // opened all at once, long before they are read in turns.
        stream->pause();
        s.state.broker = stream->header().node_id;
        s.state.cluster_id = stream->header().cluster_id;
        s.replicas = std::move(stream);
      } else {
        BrokerState whole = load_broker_state(arguments[i]);
        for (auto& r : whole.replicas)
          keep_what_plans_read(r);
        s.state.broker = whole.broker;
        s.state.cluster_id = whole.cluster_id;
        s.replicas = std::make_unique<HeldReplicas>(whole);
      }
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return states;
}

}  // namespace kepoch::forecast
