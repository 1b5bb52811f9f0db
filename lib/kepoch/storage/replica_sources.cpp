#include "kepoch/storage/replica_sources.hpp"

#include <fmt/format.h>

#include <map>
#include <system_error>
#include <utility>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/meta_properties.hpp"
#include "kepoch/storage/broker_identity.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"
#include "kepoch/storage/partition_dir.hpp"

namespace kepoch {
namespace fs = std::filesystem;
namespace {

// node.id and cluster.id from log_dir's meta.properties (broker_identity.hpp).
void read_identity(ReplicaSource& s, const fs::path& log_dir) {
  const LogDirIdentity id = log_dir_identity(log_dir);
  s.node_id = id.node_id;
  s.cluster_id = id.cluster_id;
  s.identity_file = id.file;
}

ReplicaSource from_log_dir(const std::string& argument, LoadDepth depth) {
  ReplicaSource s;
  s.argument = argument;
  s.whole = true;
  read_identity(s, argument);
  std::vector<SnapshotSkip> skipped;
  for (const auto& dir : partition_dirs_of_log_dir(argument, skipped)) {
    try {
      s.replicas.push_back(load_partition_replica(dir, {}, depth));
    } catch (const InputError& e) {
      skipped.push_back({dir.string(), e.what()});
    }
  }
  for (const auto& k : skipped)
    s.notes.push_back(fmt::format("{}: left out: {}", k.dir, k.reason));
  return s;
}

ReplicaSource from_snapshot(const std::string& argument, const fs::path& file,
                            const std::optional<std::string>& partition) {
  LogDirSnapshot snap = read_logdir_snapshot(file);
  ReplicaSource s;
  s.argument = argument;
  s.whole = !partition;
  s.node_id = snap.node_id;
  s.cluster_id = snap.cluster_id;
  if (s.node_id || s.cluster_id) s.identity_file = input_name(file);
  for (std::size_t i = 0; i < snap.replicas.size(); ++i) {
    auto& r = snap.replicas[i];
    const std::string name = fmt::format("{}-{}", r.topic, r.partition);
    if (partition && name != *partition) continue;
    if (i < snap.log_dir_of.size() && !snap.log_dir_of[i].empty())
      r.recorded_dir = (fs::path(snap.log_dir_of[i]) / name).string();
    s.replicas.push_back(std::move(r));
  }
  if (partition && s.replicas.empty()) {
    throw UsageError(fmt::format("{}: the snapshot holds no partition {} (it holds {} replicas)",
                                 input_name(file), *partition, snap.replicas.size()));
  }
  if (!partition) {
    for (const auto& k : snap.skipped)
      s.notes.push_back(fmt::format("{}: {}: left out: {}", input_name(file), k.dir, k.reason));
  }
  return s;
}

// A -delete, -stray or -future dir is no replica Kafka serves or fetches into: LogManager
// deletes the first two (addLogToBeDeleted; a stray after its delay) and a future log only
// replaces the current one when an alter-log-dirs move completes. A log dir walk leaves them
// out (partition_dirs_of_log_dir); given alone, comparing or truncating it answers a question
// Kafka never asks, so it is refused rather than judged.
void refuse_dir_kafka_does_not_serve(const fs::path& dir) {
  const auto parsed = partition_dir_name_of(dir);
  if (!parsed.name || parsed.name->state == PartitionDirState::normal) return;
  const char* what = parsed.name->state == PartitionDirState::future
                         ? "the target of a log dir move in progress (alter-log-dirs), which "
                           "becomes the replica only when the move completes"
                         : "Kafka deletes it at its next start";
  throw InputError(
      dir.string(),
      fmt::format("a -{} dir of {}-{}, not a live replica: {}; give the broker's "
                  "{}-{} dir",
                  to_string(parsed.name->state), parsed.name->topic, parsed.name->partition, what,
                  parsed.name->topic, parsed.name->partition));
}

}  // namespace

ReplicaSource load_replica_source(const std::string& argument, LoadDepth depth) {
  std::error_code ec;
  const fs::path path(argument);
  // "-" and pipes are snapshots streamed in (kepoch diff <(ssh b1 kepoch logdir snapshot ...)).
  if (argument == "-") return from_snapshot(argument, path, std::nullopt);
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) {
    if (holds_log_dir_files(path)) return from_log_dir(argument, depth);  // log_dir.hpp
    refuse_dir_kafka_does_not_serve(path);
    ReplicaSource s;
    s.argument = argument;
    s.replicas.push_back(load_partition_replica(path, {}, depth));
    fs::path dir = path.lexically_normal();
    if (!dir.has_filename()) dir = dir.parent_path();  // "b1/orders-0/"
    read_identity(s, dir.parent_path().empty() ? fs::path(".") : dir.parent_path());
    return s;
  }
  if (fs::is_regular_file(status) || fs::is_fifo(status))
    return from_snapshot(argument, path, std::nullopt);
  const auto special = [](const fs::file_status& st) {
    return fs::is_character_file(st) ? "a character device"
           : fs::is_block_file(st)   ? "a block device"
           : fs::is_socket(st)       ? "a socket"
                                     : "a special file";
  };
  const auto colon = argument.rfind(':');
  if (colon != std::string::npos && colon > 0) {
    const std::string file = argument.substr(0, colon);
    const fs::file_status s = fs::status(file, ec);
    if (file == "-" || fs::is_regular_file(s) || fs::is_fifo(s))
      return from_snapshot(argument, file, argument.substr(colon + 1));
    // SNAPSHOT:TOPIC-PARTITION whose SNAPSHOT is there but no file: said of it, not of the
    // whole argument (which is no path at all).
    if (fs::exists(s))
      throw InputError(file,
                       fmt::format("{}, not a snapshot file (in {}: SNAPSHOT:TOPIC-PARTITION "
                                   "names a `kepoch logdir snapshot` file)",
                                   fs::is_directory(s) ? "a directory" : special(s), argument));
  }
  constexpr const char* kExpected =
      "expected a partition dir, a log dir, a snapshot file or SNAPSHOT:TOPIC-PARTITION";
  if (fs::exists(status))
    throw InputError(argument,
                     fmt::format("{}, not a file or directory ({})", special(status), kExpected));
  if (fs::is_symlink(fs::symlink_status(path, ec)))
    throw InputError(argument, fmt::format("a dangling symbolic link ({})", kExpected));
  throw InputError(argument, fmt::format("no such file or directory ({})", kExpected));
}

namespace {

// Replicas of different clusters are not replicas of one partition, whatever their names
// and topic ids say: refused, as different topic ids are.
void refuse_mixed_clusters(std::vector<ReplicaSource>& sources, PairedPartitions& paired) {
  const ReplicaSource* known = nullptr;
  for (const auto& s : sources) {
    if (!s.cluster_id) continue;
    if (known && *known->cluster_id != *s.cluster_id) {
      throw UsageError(fmt::format(
          "{} records cluster id {} but {} records cluster id {}: replicas of different "
          "clusters, not of one partition",
          s.identity_file, *s.cluster_id, known->identity_file, *known->cluster_id));
    }
    if (!known) known = &s;
  }
  if (!known) return;  // no cluster known: nothing checked, nothing said
  paired.cluster_id = known->cluster_id;
  paired.cluster_file = known->identity_file;
  for (auto& s : sources) {
    if (s.cluster_id) continue;
    for (auto& r : s.replicas)
      r.notes.push_back(fmt::format(
          "no meta.properties in its log dir (nor a snapshot that records it): whether it "
          "belongs to cluster {} ({}) is not known",
          *known->cluster_id, known->identity_file));
  }
}

}  // namespace

PairedPartitions pair_replicas(std::vector<ReplicaSource> sources, std::size_t min_replicas,
                               bool first_required) {
  PairedPartitions out;
  refuse_mixed_clusters(sources, out);
  bool any_whole = false;
  for (const auto& s : sources) {
    any_whole = any_whole || s.whole;
    out.notes.insert(out.notes.end(), s.notes.begin(), s.notes.end());
  }
  std::map<std::pair<std::string, std::int32_t>, PartitionGroup> groups;
  std::string first_name;  // the first replica's topic-partition (the replica itself is moved)
  for (std::size_t i = 0; i < sources.size(); ++i) {
    for (auto& r : sources[i].replicas) {
      if (first_name.empty()) first_name = fmt::format("{}-{}", r.topic, r.partition);
      PartitionGroup& g = groups[{r.topic, r.partition}];
      if (!any_whole && groups.size() > 1) {
        throw UsageError(fmt::format(
            "{} holds {}-{} but {} holds {}: these are not replicas of one partition",
            sources[i].argument, r.topic, r.partition, sources.front().argument, first_name));
      }
      // Against the first replica of the group that records a topic id: one without
      // partition.metadata first must not let two different ids in after it.
      std::size_t known = 0;
      while (known < g.replicas.size() && !g.replicas[known].topic_id)
        ++known;
      if (known < g.replicas.size() && r.topic_id && *g.replicas[known].topic_id != *r.topic_id) {
        const std::string why = fmt::format(
            "{} holds {}-{} with topic id {} but {} has topic id {}: not the same topic (deleted "
            "and re-created?)",
            sources[i].argument, r.topic, r.partition, r.topic_id->to_string(),
            sources[g.sources[known]].argument, g.replicas[known].topic_id->to_string());
        if (!any_whole) throw UsageError(why);
        out.notes.push_back(why + "; left out");
        continue;
      }
      // Kafka holds one replica of a partition per broker: two with one node.id (in one
      // cluster; different clusters were refused above) are two copies of one broker's.
      for (const std::size_t j : g.sources) {
        if (sources[j].node_id && sources[j].node_id == sources[i].node_id) {
          throw UsageError(fmt::format(
              "{} and {} are both broker {}'s ({} and {} record node.id {}): a partition has "
              "one replica per broker; compare replicas from different brokers",
              sources[j].argument, sources[i].argument, *sources[i].node_id,
              sources[j].identity_file, sources[i].identity_file, *sources[i].node_id));
        }
      }
      g.replicas.push_back(std::move(r));
      g.sources.push_back(i);
    }
  }
  out.single = !any_whole;
  for (auto& [key, g] : groups) {
    const std::string name = fmt::format("{}-{}", key.first, key.second);
    if (first_required && g.sources.front() != 0) {
      out.notes.push_back(fmt::format("{}: not in {}, left out", name, sources.front().argument));
    } else if (g.replicas.size() < min_replicas) {
      out.notes.push_back(fmt::format("{}: only in {}, nothing to pair it with", name,
                                      sources[g.sources.front()].argument));
    } else {
      out.groups.push_back(std::move(g));
    }
  }
  if (out.groups.empty()) {
    throw UsageError(out.notes.empty()
                         ? std::string("no partition replicas to compare")
                         : fmt::format("no partition pairs up: {}", out.notes.front()));
  }
  return out;
}

}  // namespace kepoch
