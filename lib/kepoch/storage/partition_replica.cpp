#include "kepoch/storage/partition_replica.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>
#include <unordered_map>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/checkpoint_check.hpp"
#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/format/offset_checkpoint.hpp"
#include "kepoch/format/partition_metadata.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/storage/checkpoint_files.hpp"

namespace kepoch {
namespace fs = std::filesystem;
namespace {

std::vector<SegmentSummary> list_segments(const fs::path& dir) {
  std::vector<SegmentSummary> segments;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto name = parse_segment_file_name(it->path().filename().string());
    if (name.kind != SegmentFileKind::log || name.state != LeftoverState::none || !name.offset)
      continue;
    SegmentSummary s;
    s.file = it->path();
    s.base_offset = *name.offset;
    s.size_bytes = it->file_size(ec);
    segments.push_back(s);
  }
  if (ec) throw InputError(dir.string(), "cannot list directory: " + ec.message());
  // LogLoader opens .log files in name order; with canonical names that is offset order.
  std::sort(segments.begin(), segments.end(),
            [](const auto& a, const auto& b) { return a.base_offset < b.base_offset; });
  return segments;
}

// One of a log dir's offset checkpoints, parsed once per process: `logdir scan` loads every
// partition of the dir, and re-parsing the dir's checkpoints (one line per partition) for each
// of them made the scan quadratic in the partition count (10,000 partitions: 3 x 10^8 lines).
struct ParsedOffsetCheckpoint {
  std::optional<std::string> failure;  // Kafka's explanation when it cannot read the file
  std::unordered_map<std::string, std::int64_t> offsets;  // tp_key(topic, partition) -> offset
};

std::string tp_key(std::string_view topic, std::int32_t partition) {
  return fmt::format("{}\n{}", topic, partition);
}

std::shared_ptr<const ParsedOffsetCheckpoint> parse_offset_checkpoint_file(const fs::path& file) {
  auto parsed = std::make_shared<ParsedOffsetCheckpoint>();
  const std::string text = read_small_file(file, kMaxCheckpointBytes);
  const auto c = read_offset_checkpoint(text, file.string());
  if (c.failure) {
    parsed->failure = c.failure->explanation;
  } else {
    for (const auto& e : c.entries)
      parsed->offsets[tp_key(e.topic, e.partition)] = e.offset;  // the last one wins
  }
  return parsed;
}

// Cached by path, size and modification time (a rewritten file is parsed again).
std::shared_ptr<const ParsedOffsetCheckpoint> offset_checkpoint_file(const fs::path& file) {
  std::error_code size_ec, time_ec;
  const auto size = fs::file_size(file, size_ec);
  const auto mtime = fs::last_write_time(file, time_ec);
  if (size_ec || time_ec) return parse_offset_checkpoint_file(file);
  const std::string key =
      fmt::format("{}\n{}\n{}", file.string(), size, mtime.time_since_epoch().count());
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const ParsedOffsetCheckpoint>> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto parsed = parse_offset_checkpoint_file(file);  // throws InputError, as before
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 64) cache.clear();  // a process reads a few log dirs; stay bounded
  cache.emplace(key, parsed);
  return parsed;
}

// fs::exists follows links, so a dangling one looks like no file at all; Kafka's read of it
// fails (NoSuchFileException), so it is an input kepoch cannot judge, not a missing file.
void refuse_dangling_link(const fs::path& file) {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(file, ec))) {
    throw InputError(file.string(),
                     fmt::format("a dangling symbolic link (to {}): Kafka cannot read it",
                                 fs::read_symlink(file, ec).string()));
  }
}

// The entry for topic-partition in one of the parent log dir's offset checkpoints.
std::optional<std::int64_t> checkpointed_offset(const fs::path& file, const PartitionReplica& r,
                                                std::vector<std::string>& notes) {
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    refuse_dangling_link(file);
    notes.push_back(fmt::format("{} is missing", file.filename().string()));
    return std::nullopt;
  }
  const auto parsed = offset_checkpoint_file(file);
  if (parsed->failure) {
    notes.push_back(
        fmt::format("{} is unreadable to Kafka: {}", file.filename().string(), *parsed->failure));
    return std::nullopt;
  }
  const auto it = parsed->offsets.find(tp_key(r.topic, r.partition));
  if (it == parsed->offsets.end()) return std::nullopt;
  return it->second;
}

void read_epoch_checkpoint(PartitionReplica& r) {
  const fs::path file = r.dir / kLeaderEpochCheckpointName;
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    refuse_dangling_link(file);
    r.notes.push_back("no leader-epoch-checkpoint: the epoch cache starts empty");
    return;
  }
  const auto report = check_checkpoint_file(file, std::nullopt, CheckDepth::dump);
  if (!report.valid || !report.loaded_entries) {
    throw InputError(
        file.string(),
        fmt::format("Kafka would not load this file ({}): {}", outcome_name(report.outcome),
                    report.problems.empty() ? "" : report.problems.front().message));
  }
  r.checkpoint_entries = *report.loaded_entries;
}

void read_topic_id(PartitionReplica& r) {
  const fs::path file = r.dir / kPartitionMetadataName;
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    refuse_dangling_link(file);
    return;
  }
  const auto m = read_partition_metadata(read_small_file(file, kMaxCheckpointBytes), file.string());
  r.topic_id = m.topic_id;
}

// Walks every segment once: rebuilds the epoch history from batch headers and, where Kafka
// would recover (no clean shutdown, from the recovery-point segment on), checks each batch
// and cuts the log before the first bad one.
void walk_segments(PartitionReplica& r, LeaderEpochCache& cache, std::int64_t recovery_point) {
  LeaderEpochCache rebuilt;
  std::size_t recover_from = 0;
  for (std::size_t i = 0; i < r.segments.size(); ++i)
    if (r.segments[i].base_offset <= recovery_point) recover_from = i;
  for (std::size_t i = 0; i < r.segments.size(); ++i) {
    SegmentSummary& s = r.segments[i];
    const bool recover = !r.clean_shutdown && i >= recover_from;
    LogSegmentReader reader(s.file, /*load_batches=*/recover);
    std::uint64_t valid_bytes = 0;
    bool bad = false;
    while (auto e = reader.next()) {
      if (recover && (!e->loaded || validate_batch(e->header, e->bytes))) {
        bad = true;
        r.recovery_stop = LogEnd{LogEndReason::corrupt_size, e->header.position,
                                 s.size_bytes - e->header.position,
                                 validate_batch(e->header, e->bytes).value_or("batch too large")};
        break;
      }
      ++s.batches;
      valid_bytes = e->header.position + e->header.size_in_bytes();
      s.next_offset = e->header.next_offset();
      if (e->header.is_v2() && e->header.partition_leader_epoch >= 0) {
        const EpochEntry entry{e->header.partition_leader_epoch, e->header.base_offset};
        rebuilt.assign(entry);
        if (recover) cache.assign_if_newer(entry);  // LogSegment.recover's rule
      }
    }
    if (!bad && recover && reader.end().reason != LogEndReason::end_of_file) {
      bad = true;
      r.recovery_stop = reader.end();
    }
    if (bad) {
      r.recovery_truncated_bytes = s.size_bytes - valid_bytes;
      for (std::size_t j = i + 1; j < r.segments.size(); ++j)
        r.recovery_truncated_bytes += r.segments[j].size_bytes;
      r.segments.resize(i + 1);  // LogLoader deletes every later segment
      break;
    }
  }
  r.rebuilt_entries = rebuilt.entries();
}

}  // namespace

PartitionReplica load_partition_replica(const fs::path& dir, const ReplicaOverrides& overrides) {
  PartitionReplica r;
  r.dir = dir;
  std::error_code dir_ec;
  if (!fs::is_directory(dir, dir_ec)) {
    throw InputError(dir.string(),
                     "not a directory (expected a partition dir such as "
                     "<log dir>/orders-0)");
  }
  const fs::path norm = fs::absolute(dir).lexically_normal();
  const std::string name = (norm.has_filename() ? norm : norm.parent_path()).filename().string();
  const auto parsed = parse_partition_dir_name(name, dir.string());
  if (!parsed.name)
    throw InputError(dir.string(), parsed.kafka_failure.value_or("not a partition dir"));
  r.topic = parsed.name->topic;
  r.partition = parsed.name->partition;
  read_topic_id(r);
  read_epoch_checkpoint(r);
  r.segments = list_segments(dir);

  const fs::path parent = fs::absolute(dir).lexically_normal().parent_path();
  std::error_code ec;
  r.clean_shutdown =
      overrides.clean_shutdown.value_or(fs::exists(parent / ".kafka_cleanshutdown", ec));
  r.high_watermark =
      overrides.high_watermark
          ? overrides.high_watermark
          : checkpointed_offset(parent / "replication-offset-checkpoint", r, r.notes);
  r.recovery_point =
      overrides.recovery_point
          ? overrides.recovery_point
          : checkpointed_offset(parent / "recovery-point-offset-checkpoint", r, r.notes);
  r.log_start_checkpoint =
      overrides.log_start_offset
          ? overrides.log_start_offset
          : checkpointed_offset(parent / "log-start-offset-checkpoint", r, r.notes);

  LeaderEpochCache cache = LeaderEpochCache::load(r.checkpoint_entries);
  walk_segments(r, cache, r.recovery_point.value_or(0));

  r.log_end_offset = r.segments.empty()
                         ? r.log_start_checkpoint.value_or(0)
                         : r.segments.back().next_offset.value_or(r.segments.back().base_offset);
  const std::int64_t log_start_checkpoint = r.log_start_checkpoint.value_or(0);
  // LogLoader: truncateFromEnd(LEO), then truncateFromStart(the raw checkpoint value).
  LeaderEpochCache leader_cache = cache;
  leader_cache.truncate_from_end(r.log_end_offset + 1);  // stale entries beyond the end only
  leader_cache.truncate_from_start(log_start_checkpoint);
  cache.truncate_from_end(r.log_end_offset);
  cache.truncate_from_start(log_start_checkpoint);
  r.loaded.cache = cache;
  r.loaded.log_end_offset = r.log_end_offset;
  r.loaded.log_start_offset =
      std::max(log_start_checkpoint,
               r.segments.empty() ? log_start_checkpoint : r.segments.front().base_offset);
  if (!r.high_watermark)
    r.notes.push_back("no high watermark recorded: taken as the log start offset");
  r.loaded.high_watermark =
      std::min(r.high_watermark.value_or(r.loaded.log_start_offset), r.log_end_offset);
  r.as_leader = r.loaded;
  r.as_leader.cache = leader_cache;
  return r;
}

namespace {

std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t chain_batch_digest(std::uint64_t digest, const BatchSummary& b) {
  std::uint64_t h = mix64(digest ^ static_cast<std::uint64_t>(b.base_offset));
  h = mix64(h ^ static_cast<std::uint64_t>(b.last_offset));
  return mix64(h ^ b.crc);
}

void walk_batches(const PartitionReplica& replica,
                  const std::function<void(const BatchSummary&)>& visit) {
  if (replica.stored)
    throw InputError(replica.dir.string(), "a replica read from a snapshot has no segments");
  BatchSummary b;
  for (const auto& s : replica.segments) {
    LogSegmentReader reader(s.file, /*load_batches=*/false);
    while (auto e = reader.next()) {
      const BatchHeader& h = e->header;
      if (h.next_offset() > replica.log_end_offset) return;  // cut by recovery
      b.base_offset = h.base_offset;
      b.last_offset = h.last_offset();
      b.records = h.is_v2() ? h.records_count : 1;
      b.size = static_cast<std::uint32_t>(h.size_in_bytes());
      b.crc = h.crc;
      b.epoch = h.is_v2() ? h.partition_leader_epoch : -1;
      visit(b);
      b.digest_before = chain_batch_digest(b.digest_before, b);
      ++b.ordinal;
      b.records_before += static_cast<std::uint64_t>(b.records);
      b.bytes_before += b.size;
    }
  }
}

namespace {

// Where the first batch for which `starts_range` holds sits in the loaded log, when the
// snapshot's windows tell: its ordinal and the records and bytes before it (the log's batch
// count and totals when no batch does).
struct StoredBoundary {
  std::uint64_t ordinal = 0;
  std::uint64_t records_before = 0;
  std::uint64_t bytes_before = 0;
};

template <typename Pred>
std::optional<StoredBoundary> stored_boundary(const StoredBatches& s, bool past_the_end,
                                              Pred starts_range) {
  const StoredBoundary end{s.batch_count, s.records, s.bytes};
  if (past_the_end) return end;
  const auto& b = s.batches;
  const auto it = std::find_if(b.begin(), b.end(), starts_range);
  if (it == b.end()) {
    // No kept batch qualifies: known only when the log's last batch was kept.
    if (s.batch_count == 0 || (!b.empty() && b.back().ordinal + 1 == s.batch_count)) return end;
    return std::nullopt;
  }
  // The batch before it must be kept too (or not exist), else an earlier one may qualify.
  const bool previous_known =
      it->ordinal == 0 || (it != b.begin() && std::prev(it)->ordinal + 1 == it->ordinal);
  if (!previous_known) return std::nullopt;
  return StoredBoundary{it->ordinal, it->records_before, it->bytes_before};
}

BatchRange stored_batches_from(const PartitionReplica& replica, std::int64_t from,
                               std::int64_t until, std::size_t max_batches) {
  const StoredBatches& s = *replica.stored;
  BatchRange range;
  const auto first = stored_boundary(s, from >= replica.log_end_offset,
                                     [&](const BatchSummary& b) { return b.last_offset >= from; });
  const auto stop = stored_boundary(s, until >= replica.log_end_offset,
                                    [&](const BatchSummary& b) { return b.base_offset >= until; });
  std::uint64_t kept = 0;
  for (const auto& b : s.batches) {
    if (b.last_offset < from || b.base_offset >= until) continue;
    ++kept;
    if (range.batches.size() < max_batches)
      range.batches.push_back({b.base_offset, b.last_offset, b.records, b.crc});
  }
  range.counts_known = first && stop;
  if (range.counts_known && stop->ordinal > first->ordinal) {
    range.records = stop->records_before - first->records_before;
    range.bytes = stop->bytes_before - first->bytes_before;
  }
  range.batches_complete =
      range.counts_known &&
      kept == (stop->ordinal > first->ordinal ? stop->ordinal - first->ordinal : 0);
  return range;
}

}  // namespace

BatchRange batches_from(const PartitionReplica& replica, std::int64_t from, std::int64_t until,
                        std::size_t max_batches) {
  if (replica.stored) return stored_batches_from(replica, from, until, max_batches);
  BatchRange range;
  for (std::size_t i = 0; i < replica.segments.size(); ++i) {
    const auto& s = replica.segments[i];
    const bool later_starts_before =
        i + 1 < replica.segments.size() && replica.segments[i + 1].base_offset <= from;
    if (later_starts_before) continue;
    if (s.base_offset >= until) break;
    LogSegmentReader reader(s.file, /*load_batches=*/false);
    while (auto e = reader.next()) {
      const BatchHeader& h = e->header;
      if (h.next_offset() > replica.log_end_offset) break;  // cut by recovery
      if (h.last_offset() < from) continue;
      if (h.base_offset >= until) return range;
      range.records += static_cast<std::uint64_t>(h.is_v2() ? h.records_count : 1);
      range.bytes += h.size_in_bytes();
      if (range.batches.size() < max_batches)
        range.batches.push_back(
            {h.base_offset, h.last_offset(), h.is_v2() ? h.records_count : 1, h.crc});
    }
  }
  return range;
}

}  // namespace kepoch
