#include "kepoch/storage/metadata_replay.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/storage/broker_identity.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/partition_dir.hpp"

namespace kepoch {
namespace {

namespace fs = std::filesystem;

// Snapshots.BOOTSTRAP_SNAPSHOT_ID: the id of the state before offset 0, which the log dir's
// bootstrap.checkpoint also holds.
constexpr std::string_view kBootstrapFile = "bootstrap.checkpoint";

struct Listing {
  std::vector<std::pair<std::int64_t, fs::path>> segments;  // by base offset
  std::vector<MetadataSnapshotFile> snapshots;              // frozen, by id
  std::vector<std::string> notes;
  std::vector<std::string> problems;
};

// The metadata log's files as partition_dir.hpp lists a partition's (the same LogLoader loads
// it): live segments, and the snapshots beside them.
Listing list_dir(const fs::path& dir) {
  Listing out;
  for (const auto& f : partition_files(dir)) {
    if (!f.is_file) continue;
    const fs::path path = f.path_in(dir);
    const std::string& name = f.name;
    if (is_live_segment(f.parsed)) {
      out.segments.emplace_back(*f.parsed.offset, path);
      continue;
    }
    if (f.parsed.kind == SegmentFileKind::log && f.parsed.state == LeftoverState::none) {
      out.problems.push_back(fmt::format(
          "{}: Kafka cannot read a base offset from this name ({}): the log does not load",
          path.string(), f.parsed.kafka_failure.value_or("no offset")));
      continue;
    }
    const auto snap = parse_snapshot_file_name(name);
    if (!snap) continue;
    if (snap->kafka_failure) {
      out.problems.push_back(
          fmt::format("{}: Kafka's Snapshots.parse throws {}: the metadata log does not load",
                      path.string(), *snap->kafka_failure));
    } else if (snap->state != SnapshotFileState::frozen) {
      out.notes.push_back(fmt::format(
          "{}: not read ({}; KafkaMetadataLog.recoverSnapshots deletes it at start)", path.string(),
          snap->state == SnapshotFileState::partial ? "a snapshot being written"
                                                    : "a snapshot marked for deletion"));
    } else {
      out.snapshots.push_back({path, *snap->id});
    }
  }
  std::sort(out.segments.begin(), out.segments.end());
  std::sort(out.snapshots.begin(), out.snapshots.end(),
            [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

// The log end offset and the latest epoch: the last batch of the last segment holding one
// (batch headers only).
void read_log_end(const std::vector<std::pair<std::int64_t, fs::path>>& segments,
                  MetadataLogShape& shape) {
  if (segments.empty()) return;
  shape.log_start_offset = segments.front().first;
  shape.log_end_offset = segments.back().first;
  for (auto it = segments.rbegin(); it != segments.rend(); ++it) {
    LogSegmentReader reader(it->second, /*load_batches=*/false);
    std::optional<BatchHeader> last;
    while (auto entry = reader.next())
      last = entry->header;
    if (!last) continue;
    if (it == segments.rbegin()) shape.log_end_offset = last->next_offset();
    shape.latest_epoch = last->partition_leader_epoch;
    return;
  }
}

MetadataSnapshotFile given_snapshot(const fs::path& path) {
  if (path.filename() == kBootstrapFile) return {path, SnapshotId{0, 0}};
  return metadata_snapshot_file(path);
}

}  // namespace

std::string_view metadata_start_rule_name(MetadataStartRule rule) {
  switch (rule) {
    case MetadataStartRule::log_start:
      return "log_start";
    case MetadataStartRule::bootstrap_then_log:
      return "bootstrap_snapshot_then_log";
    case MetadataStartRule::oldest_snapshot:
      return "oldest_snapshot_then_log";
    case MetadataStartRule::latest_snapshot:
      return "latest_snapshot_only";
    case MetadataStartRule::no_covering_snapshot:
      return "log_without_snapshot";
    case MetadataStartRule::given_snapshot:
      return "given_snapshot";
    case MetadataStartRule::no_snapshot:
      return "no_snapshot";
  }
  return "unknown";
}

MetadataStart choose_metadata_start(const MetadataLogShape& shape) {
  // No segment: Kafka opens an empty log at offset 0.
  const std::int64_t start = shape.log_start_offset.value_or(0);
  const std::int64_t end = shape.log_end_offset.value_or(start);
  // KafkaMetadataLog.recoverSnapshots keeps the snapshots at or above the log start.
  std::vector<SnapshotId> kept;
  for (const auto& s : shape.snapshots)
    if (s.end_offset >= start) kept.push_back(s);
  MetadataStart out;
  if (start > 0 && kept.empty()) {
    out.rule = MetadataStartRule::no_covering_snapshot;
    out.from_offset = start;
    return out;
  }
  // KafkaMetadataLog.truncateToLatestSnapshot (latestEpoch: log.latestEpoch.getOrElse(0)).
  if (!kept.empty()) {
    const SnapshotId& latest = kept.back();
    const std::int32_t latest_epoch = shape.latest_epoch.value_or(0);
    if (latest.epoch > latest_epoch || (latest.epoch == latest_epoch && latest.end_offset > end)) {
      out.rule = MetadataStartRule::latest_snapshot;
      out.snapshot = latest;
      out.read_log = false;
      out.from_offset = latest.end_offset;
      return out;
    }
  }
  if (start == 0) {
    if (!kept.empty() && kept.front().end_offset == 0) {
      out.rule = MetadataStartRule::bootstrap_then_log;
      out.snapshot = kept.front();
    }
    return out;
  }
  out.rule = MetadataStartRule::oldest_snapshot;
  out.snapshot = kept.front();
  out.from_offset = kept.front().end_offset;
  return out;
}

MetadataReplayPlan plan_metadata_replay(const fs::path& target,
                                        const MetadataReplayOptions& options) {
  MetadataReplayPlan plan;
  plan.target = target.string();
  std::error_code ec;
  if (fs::is_regular_file(target, ec)) {
    const std::string name = target.filename().string();
    if (name.ends_with(".checkpoint") && !options.no_snapshot) {
      plan.snapshot = given_snapshot(target);
      plan.start = {MetadataStartRule::given_snapshot, plan.snapshot->id, false,
                    plan.snapshot->id.end_offset};
    } else {
      plan.segments.push_back(target);
      plan.start.rule = MetadataStartRule::no_snapshot;
    }
    return plan;
  }
  if (!fs::is_directory(target, ec))
    throw InputError(target.string(), not_file_or_dir_text(target));
  plan.dir = metadata_log_dir_of(target);  // log_dir.hpp
  Listing listing = list_dir(plan.dir);
  plan.notes = std::move(listing.notes);
  plan.problems = std::move(listing.problems);
  read_log_end(listing.segments, plan.shape);
  for (const auto& s : listing.snapshots) {
    if (plan.shape.log_start_offset && s.id.end_offset < *plan.shape.log_start_offset) {
      plan.notes.push_back(fmt::format(
          "{}: below the log start offset {} (KafkaMetadataLog.recoverSnapshots deletes it at "
          "start)",
          s.path.string(), *plan.shape.log_start_offset));
      continue;
    }
    plan.shape.snapshots.push_back(s.id);
  }

  if (options.no_snapshot) {
    if (listing.segments.empty())
      throw InputError(plan.dir.string(), "no .log segment to read (--no-snapshot)");
    plan.start.rule = MetadataStartRule::no_snapshot;
    plan.start.from_offset = *plan.shape.log_start_offset;
  } else if (options.snapshot) {
    // A bare name is looked up in the metadata directory.
    const fs::path in_dir = plan.dir / *options.snapshot;
    plan.snapshot = given_snapshot(
        !fs::exists(*options.snapshot, ec) && fs::exists(in_dir, ec) ? in_dir : *options.snapshot);
    const std::int64_t from = plan.snapshot->id.end_offset;
    if (plan.shape.log_start_offset && *plan.shape.log_start_offset > from)
      throw InputError(plan.snapshot->path.string(),
                       fmt::format("the log in {} starts at offset {}, after this snapshot's end "
                                   "offset {}: offsets {} to {} are missing",
                                   plan.dir.string(), *plan.shape.log_start_offset, from, from,
                                   *plan.shape.log_start_offset - 1));
    plan.start = {MetadataStartRule::given_snapshot, plan.snapshot->id, true, from};
  } else {
    if (listing.segments.empty() && listing.snapshots.empty())
      throw InputError(target.string(),
                       fmt::format("no .log segment or .checkpoint snapshot here nor in a {} "
                                   "directory{}",
                                   kMetadataLogDirName, no_metadata_log_reason(target)));
    plan.start = choose_metadata_start(plan.shape);
    if (plan.start.snapshot) {
      for (const auto& s : listing.snapshots)
        if (s.id == *plan.start.snapshot) plan.snapshot = s;
    }
    if (plan.start.rule == MetadataStartRule::no_covering_snapshot)
      plan.problems.push_back(fmt::format(
          "{}: the log starts at offset {} and no snapshot reaches it: Kafka refuses to load "
          "this metadata log (KafkaMetadataLog.recoverSnapshots: \"Inconsistent snapshot "
          "state\"); changes of partitions created below offset {} cannot be replayed",
          plan.dir.string(), *plan.shape.log_start_offset, *plan.shape.log_start_offset));
  }
  if (plan.start.read_log) {
    // Segments wholly below the start offset hold nothing to replay.
    for (std::size_t i = 0; i < listing.segments.size(); ++i) {
      const bool below = i + 1 < listing.segments.size() &&
                         listing.segments[i + 1].first <= plan.start.from_offset;
      if (!below) plan.segments.push_back(listing.segments[i].second);
    }
  }
  return plan;
}

MetadataReplaySummary replay_metadata(const MetadataReplayPlan& plan,
                                      const std::function<void(const MetadataLogEntry&)>& visit,
                                      const MetadataRecordSkip& skip) {
  MetadataReplaySummary summary;
  summary.problems = plan.problems;
  auto counted = [&](const MetadataLogEntry& e) {
    ++summary.records;
    // The log's records are checked by read_metadata_log; a snapshot's here.
    if (e.snapshot)
      if (auto u = undecoded_record_problem(e))
        summary.problems.push_back(fmt::format("{}: {}", plan.snapshot->path.string(), *u));
    visit(e);
  };
  if (plan.snapshot) {
    const auto s = read_metadata_snapshot(*plan.snapshot, counted);
    summary.files.push_back(plan.snapshot->path.string());
    summary.snapshot_timestamp = s.last_contained_log_timestamp;
  }
  if (!plan.start.read_log || plan.segments.empty()) return summary;
  const auto log = read_metadata_log(plan.segments, counted, plan.start.from_offset, skip);
  summary.records += log.skipped;
  summary.files.insert(summary.files.end(), log.files.begin(), log.files.end());
  summary.problems.insert(summary.problems.end(), log.problems.begin(), log.problems.end());
  summary.first_log_offset = log.first_offset;
  summary.log_end_offset = log.next_offset;
  if (plan.snapshot && log.first_offset && *log.first_offset > plan.start.from_offset)
    summary.problems.push_back(fmt::format(
        "offsets {} to {} are missing: the snapshot {} ends at {}, the log resumes at {}",
        plan.start.from_offset, *log.first_offset - 1, snapshot_id_text(plan.snapshot->id),
        plan.start.from_offset, *log.first_offset));
  return summary;
}

}  // namespace kepoch
