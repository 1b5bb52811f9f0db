// Writes a log dir snapshot (logdir_snapshot.hpp). Layout, version 1 (JSON Lines: one JSON
// object per line, UTF-8, every line ends with "\n"; offsets are int64, counts uint64):
//
//   line 1   {"format": "kepoch-logdir-snapshot", "version": 1, "window": N,
//             "log_dirs": ["<log dir>", ...],
//             "node_id": int|null, "cluster_id": str|null,   (meta.properties of the first
//                 log dir holding a readable one; absent in snapshots of older kepochs)
//             "batch_fields": ["ordinal", "base_offset", "last_offset", "records", "size",
//                              "crc", "epoch", "records_before", "bytes_before",
//                              "digest_before"]}
//   per partition replica, in partition order (topic, then partition number; the log dirs'
//   replicas together, one partition's in argument order; older kepochs wrote each log dir's
//   partition dirs in name order, orders-10 before orders-2; each (partition, log dir) once,
//   as Kafka holds it, which the reader checks: a log dir given twice is refused):
//            {"replica": {"log_dir", "name", "topic", "partition", "topic_id": str|null,
//              "clean_shutdown": bool, "high_watermark": int|null, "recovery_point": int|null,
//              "log_start_checkpoint": int|null, "checkpoint_entries": [[epoch, start], ...],
//              "rebuilt_entries": [[epoch, start], ...], "log_end_offset",
//              "recovery_stop": {"reason", "position", "trailing_bytes", "message"}|null,
//              "recovery_truncated_bytes",
//              "loaded": {"epochs": [[epoch, start], ...], "log_start_offset",
//                         "log_end_offset", "high_watermark"},
//              "as_leader": {the same four},
//              "segments": [{"file", "base_offset", "size_bytes", "batches",
//                            "next_offset": int|null}, ...],
//              "notes": [str, ...], "batch_count", "records", "bytes", "kept_batches",
//              "transactions": {"from": int, "batches": [[base_offset, last_offset, records,
//                  producer_id, kind], ...]}|null}}
//                 (optional: absent in snapshots of older kepochs; null when the snapshot
//                 kept no tail up to the log end.) Every transactional or control batch
//                 whose last offset is >= from, the base offset of the first batch of the
//                 kept tail (the kept batches up to the log end without a gap); kind is
//                 "transactional" (data of a transaction), "commit" or "abort" (a control
//                 batch's EndTransactionMarker) or "control" (another or unreadable key).
//                 The batches not listed are plain data.
//            then exactly kept_batches lines, ordinals strictly ascending, each one batch of
//            the loaded log in the order of "batch_fields" (records_before, bytes_before:
//            the records and bytes of the batches before it in the loaded log;
//            digest_before: chain_batch_digest over the batches before it, a uint64):
//            {"batch": [ordinal, base_offset, last_offset, records, size, crc, epoch,
//                       records_before, bytes_before, digest_before]}
//   per partition dir that could not be loaded or is not a replica diff/predict take (log
//   dirs in argument order, each one's dirs Kafka does not load in name order, then those
//   that could not be loaded, in the order above):
//            {"skipped": {"dir", "reason"}}
//   last     {"end": {"replicas": R, "batches": B}}   (B: batch lines in the file)
//
// Which batches are kept: see logdir_snapshot.hpp (windows around boundaries, the tail).

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/checkpoint_kind.hpp"
#include "kepoch/format/meta_properties.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/storage/consumer_view.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"
#include "kepoch/storage/partition_dir.hpp"

namespace kepoch {
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
namespace {

json entries_json(const std::vector<EpochEntry>& entries) {
  json list = json::array();
  for (const auto& e : entries)
    list.push_back(json::array({e.epoch, e.start_offset}));
  return list;
}

template <typename T>
json optional_json(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json log_json(const ReplicaLog& log) {
  return {{"epochs", entries_json(log.cache.entries())},
          {"log_start_offset", log.log_start_offset},
          {"log_end_offset", log.log_end_offset},
          {"high_watermark", log.high_watermark}};
}

json replica_json(const PartitionReplica& r, const fs::path& log_dir) {
  json segments = json::array();
  for (const auto& s : r.segments) {
    segments.push_back({{"file", s.file.filename().string()},
                        {"base_offset", s.base_offset},
                        {"size_bytes", s.size_bytes},
                        {"batches", s.batches},
                        {"next_offset", optional_json(s.next_offset)}});
  }
  json stop = nullptr;
  if (r.recovery_stop) {
    stop = {{"reason", std::string(log_end_reason_name(r.recovery_stop->reason))},
            {"position", r.recovery_stop->position},
            {"trailing_bytes", r.recovery_stop->trailing_bytes},
            {"message", r.recovery_stop->message}};
  }
  return {{"log_dir", log_dir.string()},
          {"name", r.dir.filename().string()},
          {"topic", r.topic},
          {"partition", r.partition},
          {"topic_id", r.topic_id ? json(r.topic_id->to_string()) : json(nullptr)},
          {"clean_shutdown", r.clean_shutdown},
          {"high_watermark", optional_json(r.high_watermark)},
          {"recovery_point", optional_json(r.recovery_point)},
          {"log_start_checkpoint", optional_json(r.log_start_checkpoint)},
          {"checkpoint_entries", entries_json(r.checkpoint_entries)},
          {"rebuilt_entries", entries_json(r.rebuilt_entries)},
          {"log_end_offset", r.log_end_offset},
          {"recovery_stop", stop},
          {"recovery_truncated_bytes", r.recovery_truncated_bytes},
          {"loaded", log_json(r.loaded)},
          {"as_leader", log_json(r.as_leader)},
          {"segments", segments},
          {"notes", r.notes}};
}

// The offsets whose batches (and `window` on either side) a snapshot keeps.
std::vector<std::int64_t> boundaries(const PartitionReplica& r) {
  std::set<std::int64_t> points{r.loaded.log_start_offset, r.loaded.high_watermark};
  if (r.recovery_point) points.insert(*r.recovery_point);
  for (const auto* list : {&r.checkpoint_entries, &r.rebuilt_entries})
    for (const auto& e : *list)
      points.insert(e.start_offset);
  for (const auto* log : {&r.loaded, &r.as_leader})
    for (const auto& e : log->cache.entries())
      points.insert(e.start_offset);
  return {points.begin(), points.end()};
}

// One pass over the loaded log, keeping the windows: memory is bounded by the number of
// boundaries times the window, plus the tail.
std::vector<BatchSummary> kept_batches(const PartitionReplica& r, StoredBatches& totals,
                                       std::uint32_t window) {
  const std::vector<std::int64_t> points = boundaries(r);
  const std::size_t tail_cap = static_cast<std::size_t>(window) * kTailWindowFactor;
  std::vector<BatchSummary> kept;
  std::deque<BatchSummary> before;  // the last `window` batches not kept
  std::deque<BatchSummary> tail;    // from the high watermark on, the last tail_cap
  std::size_t next_point = 0;
  std::uint32_t after = 0;
  walk_batches(r, [&](const BatchSummary& b) {
    ++totals.batch_count;
    totals.records += static_cast<std::uint64_t>(b.records);
    totals.bytes += b.size;
    bool boundary = false;
    while (next_point < points.size() && points[next_point] <= b.last_offset) {
      boundary = true;
      ++next_point;
    }
    if (boundary) {
      kept.insert(kept.end(), before.begin(), before.end());
      before.clear();
      after = window;
      kept.push_back(b);
      return;
    }
    if (after > 0) {
      --after;
      kept.push_back(b);
      return;
    }
    before.push_back(b);
    if (before.size() > window) before.pop_front();
    if (b.last_offset >= r.loaded.high_watermark) {
      tail.push_back(b);
      if (tail.size() > tail_cap) tail.pop_front();
    }
  });
  kept.insert(kept.end(), before.begin(), before.end());  // the batches before the log end
  kept.insert(kept.end(), tail.begin(), tail.end());
  std::sort(kept.begin(), kept.end(),
            [](const auto& a, const auto& b) { return a.ordinal < b.ordinal; });
  kept.erase(std::unique(kept.begin(), kept.end(),
                         [](const auto& a, const auto& b) { return a.ordinal == b.ordinal; }),
             kept.end());
  return kept;
}

std::string_view transaction_kind(const TransactionBatch& b) {
  if (!b.control) return "transactional";
  if (b.marker == ControlRecordType::commit) return "commit";
  if (b.marker == ControlRecordType::abort) return "abort";
  return "control";
}

// The transactional and control batches of the tail kept without a gap up to the log end
// (storage/consumer_view reads them; a second walk, of the tail's segments only, headers and
// control batches). null when the last batch was not kept or the tail cannot be read again.
json transactions_json(const PartitionReplica& r, const std::vector<BatchSummary>& kept,
                       std::uint64_t batch_count) {
  std::int64_t from = r.log_end_offset;
  if (batch_count > 0) {
    if (kept.empty() || kept.back().ordinal + 1 != batch_count) return nullptr;
    std::size_t i = kept.size() - 1;
    while (i > 0 && kept[i - 1].ordinal + 1 == kept[i].ordinal)
      --i;
    from = kept[i].base_offset;
  }
  std::optional<std::vector<TransactionBatch>> batches;
  try {
    batches = transaction_batches_from(r, from);
  } catch (const InputError&) {
    return nullptr;
  } catch (const FormatError&) {
    return nullptr;
  }
  if (!batches) return nullptr;
  json list = json::array();
  for (const auto& b : *batches)
    if (b.transactional || b.control)
      list.push_back({b.base_offset, b.last_offset, b.records, b.producer_id, transaction_kind(b)});
  return {{"from", from}, {"batches", list}};
}

}  // namespace

// The live replicas of a log dir, as log_dir.hpp lists them.
std::vector<fs::path> partition_dirs_of_log_dir(const fs::path& log_dir,
                                                std::vector<SnapshotSkip>& skipped) {
  std::error_code ec;
  if (!fs::is_directory(log_dir, ec))
    throw InputError(log_dir.string(), "not a directory (expected a broker log dir)");
  const LogDirListing listing = list_log_dir(log_dir);
  std::vector<fs::path> dirs;
  for (const auto& e : listing.dirs) {
    switch (e.kind) {
      case LogDirEntryKind::remote_index_cache:
        break;  // not a partition dir
      case LogDirEntryKind::refused_name:
        skipped.push_back({e.path.string(), kafka_reading(e)});
        break;
      case LogDirEntryKind::metadata_log:
        skipped.push_back({e.path.string(), "the KRaft metadata log (not fetched by replicas)"});
        break;
      case LogDirEntryKind::replica:
        if (e.partition->state != PartitionDirState::normal) {
          skipped.push_back({e.path.string(), fmt::format("a -{} dir, not a live replica",
                                                          to_string(e.partition->state))});
        } else {
          dirs.push_back(e.path);
        }
        break;
    }
  }
  // The same rule as `logdir scan`: an empty snapshot of a wrong path would look like a
  // broker that holds nothing.
  if (dirs.empty() && skipped.empty() && listing.checkpoint_files.empty())
    throw InputError(log_dir.string(),
                     "not a Kafka log dir: no partition dirs and no checkpoint files");
  std::sort(skipped.begin(), skipped.end(),
            [](const auto& a, const auto& b) { return a.dir < b.dir; });
  return dirs;
}

void check_log_dirs_distinct(const std::vector<fs::path>& log_dirs) {
  for (std::size_t i = 0; i < log_dirs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      std::error_code ec;
      if (log_dirs[i] == log_dirs[j] || fs::equivalent(log_dirs[i], log_dirs[j], ec))
        throw UsageError(fmt::format(
            "{}: a snapshot holds each replica once",
            log_dirs[i] == log_dirs[j] ? fmt::format("log dir {} given twice", log_dirs[i].string())
                                       : fmt::format("log dirs {} and {} are the same dir",
                                                     log_dirs[j].string(), log_dirs[i].string())));
    }
}

SnapshotSummary write_logdir_snapshot(std::ostream& out, const std::vector<fs::path>& log_dirs,
                                      const SnapshotOptions& options) {
  check_log_dirs_distinct(log_dirs);
  const std::uint32_t window = std::max<std::uint32_t>(options.window, 1);
  json dirs = json::array();
  for (const auto& d : log_dirs)
    dirs.push_back(d.string());
  // Which broker and cluster the log dirs belong to (a plan refuses two snapshots of one
  // broker, or of another cluster): the first meta.properties that reads.
  json node_id = nullptr;
  json cluster_id = nullptr;
  std::optional<std::int32_t> broker;
  for (const auto& d : log_dirs) {
    std::error_code ec;
    const fs::path file = d / kMetaPropertiesName;
    if (!fs::is_regular_file(file, ec)) continue;
    try {
      const MetaProperties meta = read_meta_properties(read_small_file(file, 64 * 1024));
      if (meta.failure) continue;
      if (meta.node_id) node_id = *meta.node_id;
      broker = meta.node_id;
      if (meta.cluster_id) cluster_id = *meta.cluster_id;
      break;
    } catch (const InputError&) {
      continue;
    }
  }
  out << json{{"format", kSnapshotFormat},
              {"version", kSnapshotVersion},
              {"window", window},
              {"log_dirs", dirs},
              {"node_id", node_id},
              {"cluster_id", cluster_id},
              {"batch_fields",
               {"ordinal", "base_offset", "last_offset", "records", "size", "crc", "epoch",
                "records_before", "bytes_before", "digest_before"}}}
             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
      << '\n';
  SnapshotSummary summary;
  summary.node_id = broker;
  // Every log dir's replicas in one partition order (logdir_snapshot.hpp), so that a plan can
  // merge a cluster's snapshots as sorted streams; each log dir's skipped dirs after them.
  struct Found {
    std::size_t log_dir;
    fs::path dir;
    std::string topic;
    std::int32_t partition = 0;
  };
  std::vector<Found> found;
  std::vector<std::vector<SnapshotSkip>> skipped(log_dirs.size());
  for (std::size_t i = 0; i < log_dirs.size(); ++i)
    for (auto& dir : partition_dirs_of_log_dir(log_dirs[i], skipped[i])) {
      const PartitionDirParse name = partition_dir_name_of(dir);
      found.push_back({i, std::move(dir), name.name ? name.name->topic : std::string(),
                       name.name ? name.name->partition : 0});
    }
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    return partition_before(a.topic, a.partition, b.topic, b.partition);
  });
  for (const auto& f : found) {
    const fs::path& log_dir = log_dirs[f.log_dir];
    PartitionReplica r;
    try {
      r = load_partition_replica(f.dir);
    } catch (const InputError& e) {
      skipped[f.log_dir].push_back({f.dir.string(), e.what(), /*unreadable=*/true});
      continue;
    }
    StoredBatches totals;
    const std::vector<BatchSummary> kept = kept_batches(r, totals, window);
    json line = replica_json(r, log_dir);
    line["batch_count"] = totals.batch_count;
    line["records"] = totals.records;
    line["bytes"] = totals.bytes;
    line["kept_batches"] = kept.size();
    line["transactions"] = transactions_json(r, kept, totals.batch_count);
    out << json{{"replica", line}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
        << '\n';
    for (const auto& b : kept) {
      out << json{{"batch",
                   {b.ordinal, b.base_offset, b.last_offset, b.records, b.size, b.crc, b.epoch,
                    b.records_before, b.bytes_before, b.digest_before}}}
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
          << '\n';
    }
    ++summary.replicas;
    summary.kept_batches += kept.size();
    summary.batches += totals.batch_count;
  }
  for (const auto& list : skipped) {
    for (const auto& s : list)
      out << json{{"skipped", {{"dir", s.dir}, {"reason", s.reason}}}}.dump(
                 -1, ' ', false, nlohmann::json::error_handler_t::replace)
          << '\n';
    summary.skipped.insert(summary.skipped.end(), list.begin(), list.end());
  }
  out << json{{"end", {{"replicas", summary.replicas}, {"batches", summary.kept_batches}}}}.dump(
             -1, ' ', false, nlohmann::json::error_handler_t::replace)
      << '\n';
  return summary;
}

}  // namespace kepoch
