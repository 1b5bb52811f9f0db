#include "kepoch/storage/tiered_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/epoch/leader_epoch_cache.hpp"
#include "kepoch/epoch/remote_lineage.hpp"
#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/format/offset_checkpoint.hpp"
#include "kepoch/format/remote_log_metadata.hpp"
#include "kepoch/storage/checkpoint_files.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/partition_dir.hpp"
#include "kepoch/storage/segment_dump.hpp"

namespace kepoch {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kRemoteLogMetadataTopic = "__remote_log_metadata";

struct PartitionKey {
  std::string topic;
  std::string topic_id;
  std::int32_t partition;
  friend bool operator<(const PartitionKey& a, const PartitionKey& b) {
    return std::tie(a.topic, a.partition, a.topic_id) < std::tie(b.topic, b.partition, b.topic_id);
  }
};

struct Replay {
  std::map<PartitionKey, TieredPartitionView> partitions;
  std::map<PartitionKey, std::shared_ptr<RemoteLogIndex>> indexes;
  std::map<std::string, std::pair<PartitionKey, RemoteSegmentView>> segments;  // by id text
};

PartitionKey key_of(const RemoteTopicIdPartition& p) {
  return {p.topic, p.topic_id.to_string(), p.partition};
}

TieredPartitionView& partition_of(Replay& r, const RemoteTopicIdPartition& p) {
  auto [it, added] = r.partitions.try_emplace(key_of(p));
  if (added) {
    it->second.topic = p.topic;
    it->second.topic_id = p.topic_id;
    it->second.partition = p.partition;
  }
  return it->second;
}

// RemoteLogMetadataCache's replay, kept to what the view needs: a segment's record sets its
// facts, an update its state; a partition delete record the partition's delete state.
void apply(Replay& r, const RemoteLogMetadata& m) {
  using Kind = RemoteLogMetadata::Kind;
  switch (m.kind) {
    case Kind::segment: {
      partition_of(r, m.partition);
      auto& [key, s] = r.segments[m.segment_id.to_string()];
      key = key_of(m.partition);
      s.segment_id = m.segment_id;
      s.start_offset = m.start_offset;
      s.end_offset = m.end_offset;
      s.size_in_bytes = m.segment_size_in_bytes;
      s.broker_id = m.broker_id;
      s.leader_epochs.clear();
      for (const auto& [e, o] : m.segment_leader_epochs)
        s.leader_epochs.push_back({e, o});
      s.state = remote_segment_state_name(m.state).value_or("UNKNOWN");
      auto& index = r.indexes[key];
      if (!index) index = std::make_shared<RemoteLogIndex>();
      RemoteSegment rs;
      rs.segment_id = m.segment_id.to_string();
      rs.start_offset = m.start_offset;
      rs.end_offset = m.end_offset;
      rs.leader_epochs = s.leader_epochs;
      rs.max_timestamp_ms = m.max_timestamp_ms;
      rs.size_in_bytes = m.segment_size_in_bytes;
      index->add_copy_started(std::move(rs));
      return;
    }
    case Kind::segment_update: {
      partition_of(r, m.partition);
      if (const auto index = r.indexes.find(key_of(m.partition)); index != r.indexes.end())
        index->second->update(m.segment_id.to_string(), static_cast<RemoteSegmentState>(m.state));
      auto [it, added] = r.segments.try_emplace(m.segment_id.to_string());
      if (added) {  // an update of a segment whose copy record is not here (compacted? lost?)
        it->second.first = key_of(m.partition);
        it->second.second.segment_id = m.segment_id;
        it->second.second.start_offset = -1;
        it->second.second.end_offset = -1;
      }
      it->second.second.state = remote_segment_state_name(m.state).value_or("UNKNOWN");
      return;
    }
    case Kind::partition_delete:
      partition_of(r, m.partition).partition_delete_state =
          remote_partition_delete_state_name(m.state).value_or("UNKNOWN");
      return;
    case Kind::segment_snapshot:
      return;  // never written to the topic
  }
}

void read_metadata_partition(const fs::path& dir,
                             const std::function<void(const RemoteLogMetadata&)>& apply,
                             std::vector<LogDirProblem>& problems, std::uint64_t& records) {
  SegmentDumpOptions options;
  options.records = true;
  for (const auto& segment : live_segments(dir)) {
    const std::string file = segment.path.string();
    const auto summary = dump_segment(segment.path, options, [&](const DumpedBatch& b) {
      if (b.header.is_control()) return;
      for (const auto& r : b.records) {
        ++records;
        std::string error;
        std::uint64_t at = b.header.position;
        if (!r.value) {
          error = "the value is null";
        } else {
          try {
            const auto rec = decode_remote_log_metadata_record(*r.value, 0);
            if (rec.metadata) apply(*rec.metadata);
            continue;
          } catch (const FormatError& e) {
            error = fmt::format("at byte {} of the value: {}", e.position(), e.what());
          }
        }
        problems.push_back({file, "error",
                            fmt::format("batch at byte {}: record at offset {}: {} (Kafka's "
                                        "RemoteLogMetadataSerde refuses it)",
                                        at, r.offset, error),
                            "remote-log-metadata-unreadable"});
      }
      if (b.records_error)
        problems.push_back(
            {file, "error",
             fmt::format("batch at byte {}: {}", b.header.position, *b.records_error),
             "remote-log-metadata-unreadable"});
    });
    if (summary.end.reason == LogEndReason::corrupt_size)
      problems.push_back({file, "error",
                          fmt::format("at byte {}: {}", summary.end.position, summary.end.message),
                          "remote-log-metadata-unreadable"});
  }
}

std::vector<EpochEntry> local_epochs(const fs::path& replica_dir) {
  const fs::path file = replica_dir / std::string(kLeaderEpochCheckpointName);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return {};
  try {
    const auto text = read_small_file(file, kMaxCheckpointBytes);
    const auto cp = read_leader_epoch_checkpoint(text, file.string());
    if (cp.failure) return {};
    return cp.entries;
  } catch (const InputError&) {
    return {};
  }
}

// The log dir's log-start-offset-checkpoint entry of the partition; none when the file or
// the entry is missing or unreadable (Kafka then starts the log at its first segment).
std::optional<std::int64_t> log_start_checkpoint(const fs::path& log_dir, const std::string& topic,
                                                 std::int32_t partition) {
  const fs::path file = log_dir / "log-start-offset-checkpoint";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  try {
    const auto cp =
        read_offset_checkpoint(read_small_file(file, kMaxCheckpointBytes), file.string());
    if (cp.failure) return std::nullopt;
    std::optional<std::int64_t> out;
    for (const auto& e : cp.entries)  // the last duplicate wins, as Kafka's map
      if (e.topic == topic && e.partition == partition) out = e.offset;
    return out;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::string offsets(std::int64_t a, std::int64_t b) {
  return a == b ? fmt::format("offset {}", a) : fmt::format("offsets {}-{}", a, b);
}

// The retention passes were this replica the leader (epoch/remote_retention.hpp), by 4.x's
// rules and 3.9's; each segment's fate, and a finding for those that stay.
void forecast_retention(TieredPartitionView& p) {
  const std::int64_t log_start =
      std::min(p.log_start_checkpoint.value_or(p.local_start), p.local_start);
  RetentionForecast f4, f39;
  try {
    f4 = forecast_remote_retention(*p.index, p.local_epochs, log_start, p.local_end,
                                   RetentionRules::kafka_4);
    f39 = forecast_remote_retention(*p.index, p.local_epochs, log_start, p.local_end,
                                    RetentionRules::kafka_3_9);
  } catch (const InvalidEpochEntry&) {
    return;  // an epoch Kafka's cache refuses: no forecast
  }
  p.log_start_after_retention = f4.log_start_after;
  std::map<std::string, const RemoteSegmentFate*> by_id4, by_id39;
  for (const auto& x : f4.segments)
    by_id4[x.segment_id] = &x;
  for (const auto& x : f39.segments)
    by_id39[x.segment_id] = &x;
  for (auto& s : p.segments) {
    const std::string id = s.segment_id.to_string();
    const auto a = by_id4.find(id);
    if (a == by_id4.end()) continue;
    s.fate = *a->second;
    const auto b = by_id39.find(id);
    if (b != by_id39.end() && b->second->fate != a->second->fate) s.fate_kafka_3_9 = *b->second;
    if (s.fate->fate == RemoteFate::leaked)
      p.findings.push_back({"warning", "leaked",
                            fmt::format("segment {} ({}) leaks: {}", id,
                                        offsets(s.start_offset, s.end_offset), s.fate->reason)});
    else if (s.fate->fate == RemoteFate::awaits_truncation)
      p.findings.push_back({"warning", "awaits_truncation",
                            fmt::format("segment {} ({}) stays in remote storage: {}", id,
                                        offsets(s.start_offset, s.end_offset), s.fate->reason)});
  }
}

}  // namespace

void judge_tiered_partition(TieredPartitionView& p) {
  std::sort(p.segments.begin(), p.segments.end(),
            [](const RemoteSegmentView& a, const RemoteSegmentView& b) {
              return std::tie(a.start_offset, a.end_offset) <
                     std::tie(b.start_offset, b.end_offset);
            });
  std::optional<std::int64_t> end;  // the highest end offset of the finished segments so far
  for (auto& s : p.segments) {
    const std::string id = s.segment_id.to_string();
    if (s.state == "COPY_SEGMENT_STARTED") {
      p.findings.push_back({"info", "copy_unfinished",
                            fmt::format("segment {} ({}): copy started, not finished (in "
                                        "progress, or abandoned when its leader stopped)",
                                        id, offsets(s.start_offset, s.end_offset))});
    } else if (s.state == "DELETE_SEGMENT_STARTED") {
      p.findings.push_back({"info", "delete_unfinished",
                            fmt::format("segment {} ({}): delete started, not finished", id,
                                        offsets(s.start_offset, s.end_offset))});
    }
    if (s.state != "COPY_SEGMENT_FINISHED" || s.start_offset < 0) continue;
    if (p.local_replica) {
      const auto check = remote_segment_within_leader_epochs(s.leader_epochs, s.end_offset,
                                                             p.local_end, p.local_epochs);
      s.within_lineage = check.within;
      s.lineage_reason = check.reason;
      if (!check.within)
        p.findings.push_back(
            {"warning", "outside_lineage",
             fmt::format("segment {} ({}) is outside this replica's leader epoch lineage: {}; "
                         "Kafka's retention by time or size skips it, and a consumer fetching "
                         "these offsets from remote storage may read a branch this replica "
                         "does not hold",
                         id, offsets(s.start_offset, s.end_offset), check.reason)});
    }
    if (!p.remote_start) p.remote_start = s.start_offset;
    if (end && s.start_offset <= *end) {
      p.findings.push_back({"warning", "overlap",
                            fmt::format("segment {} ({}) overlaps the remote segments before "
                                        "it ({} held twice)",
                                        id, offsets(s.start_offset, s.end_offset),
                                        offsets(s.start_offset, std::min(*end, s.end_offset)))});
    } else if (end && s.start_offset > *end + 1) {
      p.findings.push_back(
          {"warning", "gap",
           fmt::format("{} are in no remote segment", offsets(*end + 1, s.start_offset - 1))});
    }
    end = std::max(end.value_or(s.end_offset), s.end_offset);
  }
  p.remote_end = end;
  if (p.local_replica && p.index) forecast_retention(p);
  if (p.local_replica && end && p.local_start > *end + 1) {
    p.findings.push_back({"warning", "local_gap",
                          fmt::format("{} are neither in remote storage (it ends at {}) nor "
                                      "in this replica's local log (it starts at {})",
                                      offsets(*end + 1, p.local_start - 1), *end, p.local_start)});
  }
  if (p.partition_delete_state)
    p.findings.push_back({"info", "partition_delete",
                          fmt::format("the partition's remote data is being deleted: {}",
                                      *p.partition_delete_state)});
}

TieredLogDirView read_tiered_view(const LogDirScan& scan) {
  TieredLogDirView view;
  Replay replay;
  for (const auto& p : scan.partitions) {
    if (p.topic != kRemoteLogMetadataTopic || !p.state.empty()) continue;
    view.metadata_partitions.push_back(p.name);
    try {
      read_metadata_partition(
          p.dir, [&](const RemoteLogMetadata& m) { apply(replay, m); }, view.problems,
          view.records);
    } catch (const InputError& e) {
      view.problems.push_back(
          {p.dir.string(), "error", e.what(), "remote-log-metadata-unreadable"});
    }
  }
  for (auto& [key, s] : replay.segments)
    replay.partitions[s.first].segments.push_back(std::move(s.second));
  for (auto& [key, p] : replay.partitions) {
    for (const auto& local : scan.partitions) {
      if (local.topic == p.topic && local.partition == p.partition && local.state.empty() &&
          !local.unreadable) {
        p.local_replica = true;
        p.local_start = local.log_start_offset;
        p.local_end = local.log_end_offset;
        p.local_epochs = local_epochs(local.dir);
        p.log_start_checkpoint = log_start_checkpoint(scan.dir, p.topic, p.partition);
      }
    }
    if (const auto index = replay.indexes.find(key); index != replay.indexes.end())
      p.index = index->second;
    judge_tiered_partition(p);
    view.partitions.push_back(std::move(p));
  }
  return view;
}

std::vector<fs::path> remote_log_metadata_dirs_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : list_log_dir(dir).dirs)
    if (e.kind == LogDirEntryKind::replica && e.partition &&
        e.partition->topic == kRemoteLogMetadataTopic)
      out.push_back(e.path);
  return out;
}

void add_remote_log_metadata(RemoteLogIndexes& out, const RemoteLogMetadata& m) {
  using Kind = RemoteLogMetadata::Kind;
  if (m.kind != Kind::segment && m.kind != Kind::segment_update) return;
  auto& index = out.partitions[{m.partition.topic, m.partition.partition}];
  if (!index) index = std::make_shared<RemoteLogIndex>();
  if (m.kind == Kind::segment) {
    RemoteSegment s;
    s.segment_id = m.segment_id.to_string();
    s.start_offset = m.start_offset;
    s.end_offset = m.end_offset;
    for (const auto& [e, o] : m.segment_leader_epochs)
      s.leader_epochs.push_back({e, o});
    index->add_copy_started(std::move(s));
  } else {
    index->update(m.segment_id.to_string(), static_cast<RemoteSegmentState>(m.state));
  }
}

RemoteLogIndexes read_remote_log_indexes(const std::vector<fs::path>& paths) {
  RemoteLogIndexes out;
  std::vector<fs::path> dirs;
  for (const auto& path : paths) {
    const std::string name =
        path.filename().empty() ? path.parent_path().filename().string() : path.filename().string();
    if (name.rfind(std::string(kRemoteLogMetadataTopic) + "-", 0) == 0) {
      dirs.push_back(path);
      continue;
    }
    auto in = remote_log_metadata_dirs_in(path);
    if (in.empty())
      throw InputError(path.string(),
                       "neither a __remote_log_metadata-N partition dir nor a log dir holding "
                       "one");
    dirs.insert(dirs.end(), in.begin(), in.end());
  }
  std::uint64_t records = 0;
  for (const auto& dir : dirs) {
    out.metadata_partitions.push_back(dir.string());
    // One partition's events share a metadata partition, so its order is the log's.
    read_metadata_partition(
        dir, [&](const RemoteLogMetadata& m) { add_remote_log_metadata(out, m); }, out.problems,
        records);
  }
  return out;
}

RemoteTierAttacher::RemoteTierAttacher(const std::vector<fs::path>& metadata) {
  if (!metadata.empty()) given_ = read_remote_log_indexes(metadata);
}

void RemoteTierAttacher::attach(PartitionReplica& r) {
  const bool sign = shows_remote_tier(r);
  if (given_) {
    const auto it = given_->partitions.find({r.topic, r.partition});
    if (it != given_->partitions.end())
      r.remote_tier = PartitionReplica::RemoteTier{it->second, "--remote-log-metadata"};
    else if (sign)
      r.remote_tier = PartitionReplica::RemoteTier{
          nullptr, "the __remote_log_metadata given names no segment of the partition"};
    return;
  }
  if (!sign) return;
  const fs::path log_dir = r.dir.parent_path();
  std::error_code ec;
  if (r.stored || !fs::is_directory(log_dir, ec)) {
    r.remote_tier = PartitionReplica::RemoteTier{nullptr, "no __remote_log_metadata given"};
    return;
  }
  auto found = by_log_dir_.find(log_dir.string());
  if (found == by_log_dir_.end()) {
    RemoteLogIndexes read;
    try {
      const auto dirs = remote_log_metadata_dirs_in(log_dir);
      if (!dirs.empty()) read = read_remote_log_indexes(dirs);
    } catch (const InputError&) {
    }
    found = by_log_dir_.emplace(log_dir.string(), std::move(read)).first;
  }
  const auto it = found->second.partitions.find({r.topic, r.partition});
  r.remote_tier =
      it != found->second.partitions.end()
          ? PartitionReplica::RemoteTier{it->second, log_dir.string()}
          : PartitionReplica::RemoteTier{
                nullptr, "no __remote_log_metadata of the partition in " + log_dir.string()};
}

void attach_remote_tiers(std::vector<std::vector<PartitionReplica>>& groups,
                         const std::vector<fs::path>& metadata) {
  RemoteTierAttacher attacher(metadata);
  for (auto& group : groups)
    for (auto& r : group)
      attacher.attach(r);
}

}  // namespace kepoch
