#include "kepoch/storage/partition_verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <optional>
#include <system_error>
#include <vector>

#include <sys/stat.h>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/storage/index_files.hpp"
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/partition_dir.hpp"
#include "kepoch/storage/replica_loader.hpp"

namespace kepoch {
namespace fs = std::filesystem;
namespace {

using Sev = VerifyFinding::Severity;

// Whether every byte of file from position on is zero, read in bounded chunks; nullopt
// when the file cannot be read now. Holes are skipped unread (a preallocated segment is a
// sparse file of up to segment.bytes: 4 GiB of hole took minutes byte by byte).
std::optional<bool> tail_is_zeros(const fs::path& file, std::uint64_t position) {
  try {
    const ReadOnlyFile f(file);
    constexpr std::size_t kChunk = 64 * 1024;
    static const std::vector<std::uint8_t> zeros(kChunk);
    std::vector<std::uint8_t> chunk(kChunk);
    for (std::uint64_t at = position;;) {
      at = f.next_data(at);
      const std::size_t n = f.read_at(at, chunk);
      if (n == 0) return true;
      if (std::memcmp(chunk.data(), zeros.data(), n) != 0) return false;
      at += n;
    }
  } catch (const InputError&) {
    return std::nullopt;
  }
}

Sev severity_of(IndexFinding::Severity s) {
  switch (s) {
    case IndexFinding::Severity::error:
      return Sev::error;
    case IndexFinding::Severity::warning:
      return Sev::warning;
    case IndexFinding::Severity::info:
      return Sev::info;
  }
  return Sev::error;
}

struct SegmentFiles {
  fs::path log;
  std::int64_t base_offset = 0;
  std::uint64_t size = 0;
  std::optional<fs::path> index, timeindex, txnindex;
};

// Where recovering one segment on its own would stop (LogSegment.recover).
struct SegmentCut {
  RecoveryStop reason = RecoveryStop::invalid_batch;
  std::uint64_t position = 0;
  std::uint64_t valid_bytes = 0;
  std::int64_t next_offset = 0;  // readNextOffset after the truncation
  std::string message;
};

struct SegmentResult {
  std::optional<SegmentCut> cut;          // set when recovery would cut bytes
  bool recovered_at_open = false;         // missing .index or failing .txnindex sanity check
  LogEnd end;                             // where the walk of the whole file stopped
  std::uint64_t last_index_position = 0;  // the offset index's last entry (0 without one)
};

class Verifier {
 public:
  Verifier(PartitionVerification& out, std::uint64_t interval) : out_(out), interval_(interval) {}

  void finding(Sev sev, const fs::path& file, std::optional<std::uint64_t> position,
               std::optional<std::int64_t> offset, std::string message) {
    out_.findings.push_back({sev, file.filename().string(), position, offset, std::move(message)});
  }

  std::vector<SegmentFiles> list_files(const std::vector<PartitionFile>& files);
  // Verifies a segment; when `loader` is given, also feeds it the segment's batches as its
  // segment `index` (one read of the file for both).
  SegmentResult verify_segment(const SegmentFiles& seg, ReplicaLoader* loader = nullptr,
                               std::size_t index = 0);
  void verify_snapshot(const fs::path& file, std::int64_t offset);

  std::vector<std::pair<fs::path, std::int64_t>> snapshots;

 private:
  std::vector<OffsetIndexEntry> verify_offset_index(const SegmentFiles& seg);
  void verify_time_index(const SegmentFiles& seg);
  bool verify_txn_index(const SegmentFiles& seg);  // false: its sanity check fails

  PartitionVerification& out_;
  std::uint64_t interval_;
  // Across segments, in offset order.
  std::optional<std::int64_t> prev_next_offset_;
  std::optional<std::int32_t> max_epoch_;
  std::int64_t max_epoch_offset_ = 0;
};

std::vector<SegmentFiles> Verifier::list_files(const std::vector<PartitionFile>& files) {
  std::map<std::int64_t, SegmentFiles> logs;
  std::vector<std::pair<fs::path, SegmentFileName>> indexes;
  std::error_code ec;
  // The partition's files as partition_dir.hpp lists them (one rule for every command).
  for (const auto& file : files) {
    const fs::path& p = file.path;
    const SegmentFileName& n = file.parsed;
    if (n.kafka_failure) {
      finding(Sev::error, p, std::nullopt, std::nullopt,
              fmt::format("Kafka reads an offset from this name and fails ({}): loading the "
                          "log throws",
                          *n.kafka_failure));
      continue;
    }
    if (n.state != LeftoverState::none) {
      const char* what = n.state == LeftoverState::deleted ? "deletes it"
                         : n.state == LeftoverState::cleaned
                             ? "deletes it (an interrupted log cleaning)"
                             : "completes the interrupted swap with it (LogLoader)";
      finding(
          Sev::warning, p, std::nullopt, n.offset,
          fmt::format("leftover .{} file: Kafka {} at the next start", to_string(n.state), what));
      continue;
    }
    if (n.tmp) {
      finding(Sev::warning, p, std::nullopt, std::nullopt,
              "leftover .tmp file of an interrupted checkpoint write: Kafka does not read it");
      continue;
    }
    const bool segment_kind = n.kind == SegmentFileKind::log || n.kind == SegmentFileKind::index ||
                              n.kind == SegmentFileKind::timeindex ||
                              n.kind == SegmentFileKind::txnindex ||
                              n.kind == SegmentFileKind::snapshot;
    if (!segment_kind || !n.offset) continue;
    if (!n.canonical) {
      finding(Sev::warning, p, std::nullopt, n.offset,
              "not the 20-digit name Kafka writes; Kafka still reads its offset from it");
    }
    switch (n.kind) {
      case SegmentFileKind::log: {
        // is_live_segment (partition_dir.hpp): a .log without leftover suffix, with an offset.
        SegmentFiles s;
        s.log = p;
        s.base_offset = *n.offset;
        s.size = fs::file_size(p, ec);
        if (ec) {  // a FIFO or device named like a segment: say what it is, as ReadOnlyFile does
          struct stat st {};
          if (::stat(p.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
            throw InputError(p.string(),
                             S_ISDIR(st.st_mode)
                                 ? std::string("is a directory, expected a file")
                                 : "not a regular file (" + file_type_text(st.st_mode) + ")");
          throw InputError(p.string(), "cannot read its size: " + ec.message());
        }
        logs[*n.offset] = s;
        break;
      }
      case SegmentFileKind::snapshot:
        snapshots.emplace_back(p, *n.offset);
        break;
      default:
        indexes.emplace_back(p, n);
    }
  }
  for (const auto& [p, n] : indexes) {
    auto it = logs.find(*n.offset);
    if (it == logs.end()) {
      finding(Sev::warning, p, std::nullopt, n.offset,
              "orphaned index file (no .log with this base offset): Kafka deletes it at load");
      continue;
    }
    if (n.kind == SegmentFileKind::index) it->second.index = p;
    if (n.kind == SegmentFileKind::timeindex) it->second.timeindex = p;
    if (n.kind == SegmentFileKind::txnindex) it->second.txnindex = p;
  }
  std::vector<SegmentFiles> out;
  for (auto& [offset, s] : logs)
    out.push_back(std::move(s));
  return out;
}

std::vector<OffsetIndexEntry> Verifier::verify_offset_index(const SegmentFiles& seg) {
  std::vector<OffsetIndexEntry> entries;
  if (!seg.index) {
    finding(Sev::info, seg.log, std::nullopt, seg.base_offset,
            "no .index beside this segment: Kafka recovers the segment at load and rebuilds its "
            "indexes, even after a clean shutdown");
    return entries;
  }
  SegmentFileTarget target{SegmentFileKind::index, LeftoverState::none, seg.base_offset};
  try {
    const auto dump = read_index_file(*seg.index, target);
    const auto& idx = std::get<OffsetIndex>(dump.content);
    for (const auto& f : idx.findings)
      finding(severity_of(f.severity), *seg.index, f.position, std::nullopt, f.message);
    if (auto fail = idx.sanity_check(seg.index->string()))
      finding(Sev::error, *seg.index, fail->position, std::nullopt,
              fmt::format("OffsetIndex.sanityCheck fails: {}: {}", fail->exception,
                          fail->kafka_message));
    for (std::size_t i = 0; i < idx.valid_entries; ++i)
      if (idx.entries[i].position >= 0) entries.push_back(idx.entries[i]);
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.position < b.position; });
  } catch (const InputError& e) {
    finding(Sev::error, *seg.index, std::nullopt, std::nullopt, e.what());
  }
  return entries;
}

void Verifier::verify_time_index(const SegmentFiles& seg) {
  if (!seg.timeindex) return;  // Kafka creates an empty one
  SegmentFileTarget target{SegmentFileKind::timeindex, LeftoverState::none, seg.base_offset};
  try {
    const auto dump = read_index_file(*seg.timeindex, target);
    const auto& idx = std::get<TimeIndex>(dump.content);
    for (const auto& f : idx.findings)
      finding(severity_of(f.severity), *seg.timeindex, f.position, std::nullopt, f.message);
    if (auto fail = idx.sanity_check(seg.timeindex->string())) {
      const bool padding = idx.zero_padding_entries > 0 && idx.valid_entries > 0;
      finding(padding ? Sev::warning : Sev::error, *seg.timeindex, fail->position, std::nullopt,
              fmt::format("TimeIndex.sanityCheck fails{}: {}: {}",
                          padding ? " because of the preallocated zero padding (LogLoader does "
                                    "not run this check)"
                                  : "",
                          fail->exception, fail->kafka_message));
    }
  } catch (const InputError& e) {
    finding(Sev::error, *seg.timeindex, std::nullopt, std::nullopt, e.what());
  }
}

bool Verifier::verify_txn_index(const SegmentFiles& seg) {
  if (!seg.txnindex) return true;
  SegmentFileTarget target{SegmentFileKind::txnindex, LeftoverState::none, seg.base_offset};
  try {
    const auto dump = read_index_file(*seg.txnindex, target);
    const auto& idx = std::get<TransactionIndex>(dump.content);
    for (const auto& f : idx.findings)
      finding(severity_of(f.severity), *seg.txnindex, f.position, std::nullopt, f.message);
    if (auto fail = idx.sanity_check(seg.txnindex->string())) {
      const bool corrupt = fail->exception == kCorruptIndexException;
      finding(Sev::error, *seg.txnindex, fail->position, std::nullopt,
              fmt::format("TransactionIndex.sanityCheck fails at load: {}: {}{}", fail->exception,
                          fail->kafka_message,
                          corrupt ? " (Kafka recovers the segment and rebuilds its indexes)"
                                  : " (loading the log fails)"));
      return !corrupt;
    }
  } catch (const InputError& e) {
    finding(Sev::error, *seg.txnindex, std::nullopt, std::nullopt, e.what());
  }
  return true;
}

SegmentResult Verifier::verify_segment(const SegmentFiles& seg, ReplicaLoader* loader,
                                       std::size_t index) {
  SegmentResult result;
  const auto index_entries = verify_offset_index(seg);
  verify_time_index(seg);
  result.recovered_at_open = !seg.index || !verify_txn_index(seg);

  LogSegmentReader reader(seg.log, /*load_batches=*/true);
  std::size_t next_index = 0;
  // LogSegment.recover's state for this segment.
  std::uint64_t valid_bytes = 0;
  std::int64_t valid_next = seg.base_offset;
  std::uint64_t last_indexed_position = 0;
  std::optional<std::int64_t> last_indexed_offset;

  auto cut = [&](RecoveryStop reason, std::uint64_t position, std::string message) {
    if (result.cut) return;
    result.cut = SegmentCut{reason, position, valid_bytes, valid_next, std::move(message)};
  };

  bool feeding = loader && loader->wants(index);
  while (auto e = reader.next()) {
    const BatchHeader& h = e->header;
    const std::uint64_t pos = h.position;
    // ensureValid: size and CRC.
    const auto invalid = e->loaded ? validate_batch(h, e->bytes) : std::nullopt;
    if (feeding) feeding = loader->batch(index, *e, invalid);
    if (!e->loaded) {
      finding(Sev::warning, seg.log, pos, h.base_offset,
              fmt::format("batch of {} bytes is larger than kepoch loads ({} bytes): its CRC "
                          "was not checked",
                          h.size_in_bytes(), kMaxLoadedBatchBytes));
    } else if (invalid) {
      finding(Sev::error, seg.log, pos, h.base_offset, *invalid);
      cut(RecoveryStop::invalid_batch, pos, *invalid);
    }
    // Offsets: within the batch, against the segment, against the previous batch.
    if (h.last_offset() < h.base_offset) {
      finding(Sev::error, seg.log, pos, h.base_offset,
              fmt::format("last offset {} is below the base offset {} (lastOffsetDelta {})",
                          h.last_offset(), h.base_offset, h.last_offset_delta));
    }
    if (h.base_offset < seg.base_offset || h.last_offset() - seg.base_offset > INT32_MAX) {
      finding(Sev::error, seg.log, pos, h.base_offset,
              fmt::format("offsets {}..{} do not fit the segment at base offset {} (relative "
                          "offsets must lie in [0, 2^31-1]; LogSegmentOffsetOverflowException)",
                          h.base_offset, h.last_offset(), seg.base_offset));
    }
    if (prev_next_offset_ && h.base_offset < *prev_next_offset_) {
      finding(Sev::error, seg.log, pos, h.base_offset,
              fmt::format("offsets go backwards: the batch starts at offset {} but an earlier "
                          "batch already holds offsets up to {}",
                          h.base_offset, *prev_next_offset_ - 1));
    }
    prev_next_offset_ = std::max(prev_next_offset_.value_or(INT64_MIN), h.next_offset());
    // Partition leader epochs never decrease.
    if (h.is_v2() && h.partition_leader_epoch >= 0) {
      if (max_epoch_ && h.partition_leader_epoch < *max_epoch_) {
        finding(Sev::error, seg.log, pos, h.base_offset,
                fmt::format("partition leader epoch {} is below epoch {} of the batch at "
                            "offset {}",
                            h.partition_leader_epoch, *max_epoch_, max_epoch_offset_));
      } else if (!max_epoch_ || h.partition_leader_epoch > *max_epoch_) {
        max_epoch_ = h.partition_leader_epoch;
        max_epoch_offset_ = h.base_offset;
      }
    }
    // Offset-index entries up to this batch.
    for (; next_index < index_entries.size() &&
           static_cast<std::uint64_t>(index_entries[next_index].position) <= pos;
         ++next_index) {
      const auto& ie = index_entries[next_index];
      const auto ie_pos = static_cast<std::uint64_t>(ie.position);
      if (ie_pos < pos) {
        finding(Sev::error, *seg.index, ie.file_position, ie.offset,
                fmt::format("entry (offset {}, position {}) points inside a batch of {}: no "
                            "batch starts at byte {}",
                            ie.offset, ie.position, seg.log.filename().string(), ie.position));
      } else if (ie.offset < h.last_offset()) {
        finding(Sev::error, *seg.index, ie.file_position, ie.offset,
                fmt::format("entry (offset {}, position {}): the batch there holds offsets "
                            "{}..{}; Kafka indexes a batch by its last offset",
                            ie.offset, ie.position, h.base_offset, h.last_offset()));
      } else if (ie.offset > h.last_offset()) {
        finding(Sev::warning, *seg.index, ie.file_position, ie.offset,
                fmt::format("entry (offset {}, position {}): the batch there ends at offset {}; "
                            "brokers before Kafka 3.x indexed an append by its last offset, "
                            "lookups still work",
                            ie.offset, ie.position, h.last_offset()));
      }
    }
    // LogSegment.recover: index entries every index.interval.bytes; a non-increasing offset
    // there is InvalidOffsetException (LogLoader empties the segment).
    if (!result.cut) {
      if (valid_bytes - last_indexed_position > interval_) {
        if (last_indexed_offset && h.last_offset() <= *last_indexed_offset) {
          std::string message = fmt::format(
              "InvalidOffsetException: the offset index entry for offset {} (batch at byte {}) "
              "is no larger than the last offset appended ({}); LogLoader empties the segment",
              h.last_offset(), pos, *last_indexed_offset);
          valid_bytes = 0;
          valid_next = seg.base_offset;
          cut(RecoveryStop::invalid_offset, pos, std::move(message));
        } else {
          last_indexed_offset = h.last_offset();
          last_indexed_position = valid_bytes;
        }
      }
      if (!result.cut) {
        valid_bytes += h.size_in_bytes();
        valid_next = h.next_offset();
      }
    }
  }
  const LogEnd& end = reader.end();
  if (feeding) loader->segment_end(index, end);
  result.end = end;
  for (const auto& ie : index_entries)
    result.last_index_position =
        std::max(result.last_index_position, static_cast<std::uint64_t>(ie.position));
  for (; next_index < index_entries.size(); ++next_index) {
    const auto& ie = index_entries[next_index];
    finding(Sev::error, *seg.index, ie.file_position, ie.offset,
            fmt::format("entry (offset {}, position {}) points past the last whole batch of {} "
                        "(batches end at byte {})",
                        ie.offset, ie.position, seg.log.filename().string(), end.position));
  }
  if (end.reason != LogEndReason::end_of_file) {
    // The hint says what the tail's bytes are, not what such a stop usually means.
    const char* hint = "";
    if (end.reason == LogEndReason::corrupt_size) {
      const auto zeros = tail_is_zeros(seg.log, end.position);
      if (zeros) {
        hint = *zeros ? " (the tail is zeros: preallocated space never written)"
                      : " (the tail is not zeros: damaged bytes, not preallocated space)";
      }
    }
    finding(Sev::error, seg.log, end.position, std::nullopt,
            fmt::format("{} tail of {} bytes: {}{}", log_end_reason_name(end.reason),
                        end.trailing_bytes, end.message, hint));
    const RecoveryStop reason =
        end.reason == LogEndReason::partial_header  ? RecoveryStop::partial_header
        : end.reason == LogEndReason::partial_batch ? RecoveryStop::partial_batch
                                                    : RecoveryStop::corrupt_size;
    cut(reason, end.position, end.message);
  }
  if (result.cut && result.cut->valid_bytes >= seg.size) result.cut.reset();
  return result;
}

void Verifier::verify_snapshot(const fs::path& file, std::int64_t offset) {
  SegmentFileTarget target{SegmentFileKind::snapshot, LeftoverState::none, offset};
  try {
    const auto dump = read_index_file(file, target);
    const auto& snap = std::get<ProducerSnapshot>(dump.content);
    // Kafka's own exception stands for the parser's error findings about the same bytes.
    for (const auto& f : snap.findings)
      if (!snap.failure || f.severity != IndexFinding::Severity::error)
        finding(severity_of(f.severity), file, f.position, std::nullopt, f.message);
    if (snap.failure) {
      finding(Sev::error, file, snap.failure->position, offset,
              fmt::format("{}: {} (Kafka deletes the snapshot and rebuilds producer state from "
                          "an older one and the log)",
                          snap.failure->exception, snap.failure->kafka_message));
    }
  } catch (const InputError& e) {
    finding(Sev::error, file, std::nullopt, offset, e.what());
  }
}

bool same_logs(const std::vector<SegmentFiles>& segs, const std::vector<SegmentSummary>& loaded) {
  return std::equal(segs.begin(), segs.end(), loaded.begin(), loaded.end(),
                    [](const SegmentFiles& a, const SegmentSummary& b) { return a.log == b.file; });
}

RecoveryTruncation truncation(const std::vector<SegmentFiles>& segs, std::size_t i,
                              const SegmentCut& c, bool delete_later) {
  RecoveryTruncation t;
  t.truncate_to_offset = c.next_offset;
  t.truncated_segment = segs[i].log.filename().string();
  t.valid_bytes = c.valid_bytes;
  t.truncated_bytes = segs[i].size - c.valid_bytes;
  t.stop_reason = c.reason;
  t.position = c.position;
  t.message = c.message;
  if (delete_later) {
    for (std::size_t j = i + 1; j < segs.size(); ++j) {
      t.deleted_segments.push_back(segs[j].log.filename().string());
      t.deleted_bytes += segs[j].size;
    }
  }
  return t;
}

}  // namespace

std::string_view severity_name(VerifyFinding::Severity severity) {
  switch (severity) {
    case Sev::error:
      return "error";
    case Sev::warning:
      return "warning";
    case Sev::info:
      return "info";
  }
  return "error";
}

std::string_view recovery_stop_name(RecoveryStop stop) {
  switch (stop) {
    case RecoveryStop::invalid_batch:
      return "invalid-batch";
    case RecoveryStop::invalid_offset:
      return "invalid-offset";
    case RecoveryStop::partial_header:
      return "partial-header";
    case RecoveryStop::partial_batch:
      return "partial-batch";
    case RecoveryStop::corrupt_size:
      return "corrupt-size";
  }
  return "unknown";
}

bool PartitionVerification::has_errors() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const auto& f) { return f.severity == Sev::error; });
}

PartitionVerification verify_partition(const fs::path& dir, std::uint64_t index_interval_bytes) {
  PartitionVerification out;
  ReplicaLoader loader(dir);
  Verifier v(out, index_interval_bytes);
  const auto segs = v.list_files(loader.files());  // the loader's listing of the dir
  // Each segment is read once, for the checks and the loader both, when both list the same
  // .log files (they differ only when two names carry the same offset).
  const bool shared = same_logs(segs, loader.segments());
  if (!shared) loader.walk();
  std::vector<SegmentResult> results;
  results.reserve(segs.size());
  for (std::size_t i = 0; i < segs.size(); ++i)
    results.push_back(v.verify_segment(segs[i], shared ? &loader : nullptr, i));
  out.replica = std::move(loader).finish();
  for (const auto& [file, offset] : v.snapshots)
    v.verify_snapshot(file, offset);

  // Recovering every segment: the first one that loses bytes is cut, later ones deleted.
  for (std::size_t i = 0; i < segs.size(); ++i) {
    if (results[i].cut) {
      out.recovery_full = truncation(segs, i, *results[i].cut, true);
      break;
    }
  }
  // The next start: segments recovered at open, then recoverLog without a clean shutdown
  // from the segment holding the recovery point.
  const std::int64_t recovery_point = out.replica.recovery_point.value_or(0);
  std::size_t recover_from = 0;
  for (std::size_t i = 0; i < segs.size(); ++i)
    if (segs[i].base_offset <= recovery_point) recover_from = i;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const bool in_recover_log = !out.replica.clean_shutdown && i >= recover_from;
    if (!results[i].cut || !(in_recover_log || results[i].recovered_at_open)) continue;
    // A segment cut at open is recovered again by recoverLog with nothing left to cut, so
    // later segments stay.
    out.recovery_next_start = truncation(segs, i, *results[i].cut, !results[i].recovered_at_open);
    break;
  }
  // After a clean shutdown recoverLog is skipped, but LogLoader.load still asks the last
  // segment for its next offset (deleteSegmentsIfLogStartGreaterThanLogEnd ->
  // LogSegment.readNextOffset): FileRecords.lastBatch walks FileLogInputStream from the
  // batch the offset index's last entry points at to the end of the file, and nextBatch
  // throws CorruptRecordException on an entry size below 14. LogManager.loadLogs does not
  // catch it (only IOException takes the log dir offline): the broker exits ("Error
  // starting LogManager"). Segments recovered at open were already cut before that.
  if (out.replica.clean_shutdown && !segs.empty() && !results.back().recovered_at_open) {
    const SegmentResult& last = results.back();
    if (last.end.reason == LogEndReason::corrupt_size &&
        last.last_index_position <= last.end.position) {
      out.next_start_failure = LoadFailure{segs.back().log.filename().string(), last.end.position,
                                           "CorruptRecordException", last.end.message};
      v.finding(Sev::error, segs.back().log, last.end.position, std::nullopt,
                fmt::format("the next start fails: after a clean shutdown Kafka skips "
                            "recovery but reads this segment to find the log end "
                            "(LogSegment.readNextOffset) and throws {}: {}; the broker exits",
                            out.next_start_failure->exception, last.end.message));
    }
  }
  return out;
}

}  // namespace kepoch
