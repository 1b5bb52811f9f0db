#include "kepoch/storage/partition_verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
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

// A file of the partition dir: its name (findings name it) and its path as text (errors
// and Kafka's messages name it), with no std::filesystem::path per file. The name is the
// loader's listing's, the dir text the verifier's: both outlive the partition's checks, and
// no string is copied per file until one is opened.
struct DirFile {
  const std::string* name_ = nullptr;
  const std::string* dir_ = nullptr;  // the partition dir as its path's text
  bool regular_entry = false;         // listed as a regular file, not a link

  const std::string& name() const { return *name_; }
  // `dir / name` as std::filesystem::path's operator/ spells it (path_text).
  std::string path() const {
    std::string out;
    out.reserve(dir_->size() + 1 + name_->size());
    out += *dir_;
    if (!dir_->empty() && dir_->back() != '/') out += '/';
    out += *name_;
    return out;
  }
  // Whether path() is `full`, without building it.
  bool has_path(std::string_view full) const {
    const std::string_view d = *dir_;
    const bool separator = !d.empty() && d.back() != '/';
    return full.size() == d.size() + separator + name_->size() && full.starts_with(d) &&
           (!separator || full[d.size()] == '/') && full.ends_with(*name_);
  }
};

// A file of the partition dir, opened relative to the dir when it is held open (a small
// file the listing showed as regular with no stat: ReadOnlyFile::listed_regular).
ReadOnlyFile open_in(int dir_fd, const DirFile& file) {
  if (dir_fd >= 0 && file.regular_entry)
    return ReadOnlyFile::listed_regular(dir_fd, file.name().c_str(), file.path());
  return ReadOnlyFile(dir_fd, file.name().c_str(), file.path());
}

// Whether every byte of file from position on is zero, read in bounded chunks; nullopt
// when the file cannot be read now. Holes are skipped unread (a preallocated segment is a
// sparse file of up to segment.bytes: 4 GiB of hole took minutes byte by byte).
std::optional<bool> tail_is_zeros(const DirFile& file, std::uint64_t position) {
  try {
    const ReadOnlyFile f(-1, nullptr, file.path());
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
  DirFile log;
  std::int64_t base_offset = 0;
  std::uint64_t size = 0;
  std::optional<DirFile> index, timeindex, txnindex;
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

// The rules that carry across segments, in offset order: offsets never go backwards, v2
// partition leader epochs never decrease. The state after some batches; combine() chains it,
// so segments can be walked apart (each from an empty state) and the state at each segment's
// start computed afterwards.
struct CrossState {
  std::optional<std::int64_t> next_offset;  // the highest next offset so far
  std::optional<std::int32_t> max_epoch;    // the highest epoch so far
  std::int64_t max_epoch_offset = 0;        // the first batch with that epoch
};

// The state after `in` and then `later` (the state of a walk from an empty state).
CrossState combine(const CrossState& in, const CrossState& later) {
  CrossState out = in;
  if (later.next_offset)
    out.next_offset = std::max(in.next_offset.value_or(INT64_MIN), *later.next_offset);
  if (later.max_epoch && (!in.max_epoch || *later.max_epoch > *in.max_epoch)) {
    out.max_epoch = later.max_epoch;
    out.max_epoch_offset = later.max_epoch_offset;
  }
  return out;
}

// One segment verified: its findings in order, what recovery would do with it, and what a
// walk from an empty cross-segment state needs to tell whether the true state changes it.
struct SegmentOutcome {
  bool done = false;
  bool exact = false;  // walked from the true cross-segment state
  CrossState end;      // the state after the walk
  std::vector<VerifyFinding> findings;
  SegmentResult result;
  std::optional<SegmentLoad> load;  // the batches for the replica loader
  std::exception_ptr error;         // an InputError (the segment cannot be read)
  // The segment's first batch, first v2 batch with an epoch, and whether an epoch finding
  // came while the highest epoch of the walk was still that first epoch.
  std::optional<std::int64_t> first_base, first_next;
  std::optional<std::int32_t> first_epoch;
  bool epoch_finding_at_first_epoch = false;
};

// Whether walking the segment from `in` gives what the walk from an empty state gave:
//   - offsets: the first batch is checked against in.next_offset; every later batch against
//     max(in.next_offset, the highest next offset before it in the segment), which is the
//     segment's own once the first batch reaches in.next_offset;
//   - epochs: while the segment's own highest epoch is below in.max_epoch, every batch is
//     held to in.max_epoch; when the segment's first epoch equals in.max_epoch the checks
//     agree, only a finding's text names the earlier batch that first had it.
bool unaffected_by(const SegmentOutcome& o, const CrossState& in) {
  if (in.next_offset && o.first_base &&
      (*o.first_base < *in.next_offset || *o.first_next < *in.next_offset))
    return false;
  if (in.max_epoch && o.first_epoch &&
      (*o.first_epoch < *in.max_epoch ||
       (*o.first_epoch == *in.max_epoch && o.epoch_finding_at_first_epoch)))
    return false;
  return true;
}

class Verifier {
 public:
  Verifier(PartitionVerification& out, std::uint64_t interval) : out_(out), interval_(interval) {}

  void finding(Sev sev, const std::string& name, std::optional<std::uint64_t> position,
               std::optional<std::int64_t> offset, std::string message) {
    out_.findings.push_back({sev, name, position, offset, std::move(message)});
  }
  void finding(Sev sev, const DirFile& file, std::optional<std::uint64_t> position,
               std::optional<std::int64_t> offset, std::string message) {
    finding(sev, file.name(), position, offset, std::move(message));
  }

  std::vector<SegmentFiles> list_files(const fs::path& dir,
                                       const std::vector<PartitionFile>& files);
  void verify_snapshot(const DirFile& file, std::int64_t offset, int dir_fd);

  std::vector<std::pair<DirFile, std::int64_t>> snapshots;
  // The partition dir's path as text, which the DirFiles of list_files point at. `files`
  // given to list_files must outlive them too (the loader's listing does).
  std::string dir_text;

 private:
  PartitionVerification& out_;
  std::uint64_t interval_;
};

// Verifies one segment from the cross-segment state `state` (updated), appending to `o`;
// feeds `load` the segment's batches when given (one read of the file for both). Throws
// InputError when the segment cannot be read.
class SegmentVerifier {
 public:
  SegmentVerifier(SegmentOutcome& o, std::uint64_t interval, int dir_fd, bool read_ahead)
      : o_(o), interval_(interval), dir_fd_(dir_fd), read_ahead_(read_ahead) {}
  void finding(Sev sev, const DirFile& file, std::optional<std::uint64_t> position,
               std::optional<std::int64_t> offset, std::string message) {
    o_.findings.push_back({sev, file.name(), position, offset, std::move(message)});
  }
  SegmentResult verify(const SegmentFiles& seg, CrossState& state, SegmentLoad* load);

 private:
  std::vector<OffsetIndexEntry> verify_offset_index(const SegmentFiles& seg);
  void verify_time_index(const SegmentFiles& seg);
  bool verify_txn_index(const SegmentFiles& seg);  // false: its sanity check fails

  SegmentOutcome& o_;
  std::uint64_t interval_;
  int dir_fd_;  // the partition dir, open (-1: open files by path)
  bool read_ahead_;
};

std::vector<SegmentFiles> Verifier::list_files(const fs::path& dir,
                                               const std::vector<PartitionFile>& files) {
  dir_text = dir.native();
  std::map<std::int64_t, SegmentFiles> logs;
  std::vector<const PartitionFile*> indexes;
  // The partition's files as partition_dir.hpp lists them (one rule for every command).
  for (const auto& file : files) {
    const std::string& p = file.name;
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
        s.log = DirFile{&p, &dir_text, false};
        s.base_offset = *n.offset;
        // fs::file_size's answer, from the listing's stat.
        if (file.size_error) {  // a FIFO or device named like a segment: say what it is
          struct stat st {};
          if (::stat(s.log.path().c_str(), &st) == 0 && !S_ISREG(st.st_mode))
            throw InputError(s.log.path(),
                             S_ISDIR(st.st_mode)
                                 ? std::string("is a directory, expected a file")
                                 : "not a regular file (" + file_type_text(st.st_mode) + ")");
          throw InputError(s.log.path(), "cannot read its size: " + file.size_error.message());
        }
        s.size = file.size;
        logs[*n.offset] = std::move(s);
        break;
      }
      case SegmentFileKind::snapshot:
        snapshots.emplace_back(DirFile{&p, &dir_text, file.is_file && !file.symlink}, *n.offset);
        break;
      default:
        indexes.push_back(&file);
    }
  }
  for (const PartitionFile* f : indexes) {
    const SegmentFileName& n = f->parsed;
    auto it = logs.find(*n.offset);
    if (it == logs.end()) {
      finding(Sev::warning, f->name, std::nullopt, n.offset,
              "orphaned index file (no .log with this base offset): Kafka deletes it at load");
      continue;
    }
    DirFile file{&f->name, &dir_text, f->is_file && !f->symlink};
    if (n.kind == SegmentFileKind::index)
      it->second.index = std::move(file);
    else if (n.kind == SegmentFileKind::timeindex)
      it->second.timeindex = std::move(file);
    else if (n.kind == SegmentFileKind::txnindex)
      it->second.txnindex = std::move(file);
  }
  std::vector<SegmentFiles> out;
  for (auto& [offset, s] : logs)
    out.push_back(std::move(s));
  return out;
}

std::vector<OffsetIndexEntry> SegmentVerifier::verify_offset_index(const SegmentFiles& seg) {
  std::vector<OffsetIndexEntry> entries;
  if (!seg.index) {
    finding(Sev::info, seg.log, std::nullopt, seg.base_offset,
            "no .index beside this segment: Kafka recovers the segment at load and rebuilds its "
            "indexes, even after a clean shutdown");
    return entries;
  }
  SegmentFileTarget target{SegmentFileKind::index, LeftoverState::none, seg.base_offset, {}};
  try {
    const ReadOnlyFile opened = open_in(dir_fd_, *seg.index);
    const auto dump = read_index_file(opened, target);
    const auto& idx = std::get<OffsetIndex>(dump.content);
    for (const auto& f : idx.findings)
      finding(severity_of(f.severity), *seg.index, f.position, std::nullopt, f.message);
    if (auto fail = idx.sanity_check(opened.path()))
      finding(Sev::error, *seg.index, fail->position, std::nullopt,
              fmt::format("OffsetIndex.sanityCheck fails: {}: {}", fail->exception,
                          fail->kafka_message));
    entries.reserve(idx.valid_entries);
    for (std::size_t i = 0; i < idx.valid_entries; ++i)
      if (idx.entries[i].position >= 0) entries.push_back(idx.entries[i]);
    // Kafka writes them in position order: sorted already, unless damaged.
    const auto by_position = [](const auto& a, const auto& b) { return a.position < b.position; };
    if (!std::is_sorted(entries.begin(), entries.end(), by_position))
      std::stable_sort(entries.begin(), entries.end(), by_position);
  } catch (const InputError& e) {
    finding(Sev::error, *seg.index, std::nullopt, std::nullopt, e.what());
  }
  return entries;
}

void SegmentVerifier::verify_time_index(const SegmentFiles& seg) {
  if (!seg.timeindex) return;  // Kafka creates an empty one
  SegmentFileTarget target{SegmentFileKind::timeindex, LeftoverState::none, seg.base_offset, {}};
  try {
    const ReadOnlyFile opened = open_in(dir_fd_, *seg.timeindex);
    const auto dump = read_index_file(opened, target);
    const auto& idx = std::get<TimeIndex>(dump.content);
    for (const auto& f : idx.findings)
      finding(severity_of(f.severity), *seg.timeindex, f.position, std::nullopt, f.message);
    if (auto fail = idx.sanity_check(opened.path())) {
      // Zero padding after valid entries: the broker never runs this check (LogLoader skips
      // it), and Kafka 4.4 leaves __cluster_metadata-0's active segment untrimmed even after a
      // clean shutdown, so nothing of a broker's fails on it: information, as the padded
      // index is; only DumpLogSegments --index-sanity-check throws.
      const bool padding = idx.zero_padding_entries > 0 && idx.valid_entries > 0;
      finding(padding ? Sev::info : Sev::error, *seg.timeindex, fail->position, std::nullopt,
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

bool SegmentVerifier::verify_txn_index(const SegmentFiles& seg) {
  if (!seg.txnindex) return true;
  SegmentFileTarget target{SegmentFileKind::txnindex, LeftoverState::none, seg.base_offset, {}};
  try {
    const ReadOnlyFile opened = open_in(dir_fd_, *seg.txnindex);
    const auto dump = read_index_file(opened, target);
    const auto& idx = std::get<TransactionIndex>(dump.content);
    for (const auto& f : idx.findings)
      finding(severity_of(f.severity), *seg.txnindex, f.position, std::nullopt, f.message);
    if (auto fail = idx.sanity_check(opened.path())) {
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

SegmentResult SegmentVerifier::verify(const SegmentFiles& seg, CrossState& state,
                                      SegmentLoad* load) {
  SegmentResult result;
  const auto index_entries = verify_offset_index(seg);
  verify_time_index(seg);
  result.recovered_at_open = !seg.index || !verify_txn_index(seg);

  // The listing's stat (following links) found a regular file of seg.size bytes.
  LogSegmentReader reader(dir_fd_ >= 0
                              ? ReadOnlyFile::listed_with_size(dir_fd_, seg.log.name().c_str(),
                                                               seg.log.path(), seg.size)
                              : ReadOnlyFile(-1, nullptr, seg.log.path()),
                          /*load_batches=*/true);
  if (read_ahead_) reader.read_ahead();
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

  bool feeding = load != nullptr;
  std::optional<std::int64_t>& prev_next_offset_ = state.next_offset;
  std::optional<std::int32_t>& max_epoch_ = state.max_epoch;
  std::int64_t& max_epoch_offset_ = state.max_epoch_offset;
  while (auto e = reader.next()) {
    const BatchHeader& h = e->header;
    const std::uint64_t pos = h.position;
    if (!o_.first_base) {
      o_.first_base = h.base_offset;
      o_.first_next = h.next_offset();
    }
    // ensureValid: size and CRC.
    const auto invalid = e->loaded ? validate_batch(h, e->bytes) : std::nullopt;
    if (feeding) feeding = load->batch(*e, invalid);
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
      if (!o_.first_epoch) o_.first_epoch = h.partition_leader_epoch;
      if (max_epoch_ && h.partition_leader_epoch < *max_epoch_) {
        if (*max_epoch_ == *o_.first_epoch) o_.epoch_finding_at_first_epoch = true;
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
                            ie.offset, ie.position, seg.log.name(), ie.position));
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
  if (feeding) load->end(end);
  result.end = end;
  for (const auto& ie : index_entries)
    result.last_index_position =
        std::max(result.last_index_position, static_cast<std::uint64_t>(ie.position));
  for (; next_index < index_entries.size(); ++next_index) {
    const auto& ie = index_entries[next_index];
    finding(Sev::error, *seg.index, ie.file_position, ie.offset,
            fmt::format("entry (offset {}, position {}) points past the last whole batch of {} "
                        "(batches end at byte {})",
                        ie.offset, ie.position, seg.log.name(), end.position));
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

void Verifier::verify_snapshot(const DirFile& file, std::int64_t offset, int dir_fd) {
  SegmentFileTarget target{SegmentFileKind::snapshot, LeftoverState::none, offset, {}};
  try {
    const auto dump = read_index_file(open_in(dir_fd, file), target);
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
                    [](const SegmentFiles& a, const SegmentSummary& b) {
                      return a.log.has_path(b.file.native());
                    });
}

RecoveryTruncation truncation(const std::vector<SegmentFiles>& segs, std::size_t i,
                              const SegmentCut& c, bool delete_later) {
  RecoveryTruncation t;
  t.truncate_to_offset = c.next_offset;
  t.truncated_segment = segs[i].log.name();
  t.valid_bytes = c.valid_bytes;
  t.truncated_bytes = segs[i].size - c.valid_bytes;
  t.stop_reason = c.reason;
  t.position = c.position;
  t.message = c.message;
  if (delete_later) {
    for (std::size_t j = i + 1; j < segs.size(); ++j) {
      t.deleted_segments.push_back(segs[j].log.name());
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

struct PartitionVerifier::State {
  State(const fs::path& dir, std::uint64_t index_interval, const ReplicaOverrides& overrides,
        const LogDirCheckpoints* log_dir)
      : loader(dir, overrides, log_dir), v(out, index_interval), interval(index_interval) {}
  PartitionVerification out;
  ReplicaLoader loader;
  Verifier v;
  std::uint64_t interval;
  std::vector<SegmentFiles> segs;
  bool shared = false;  // the checks' walk feeds the loader
  bool read_ahead = false;
  std::vector<SegmentOutcome> outcomes;
  // The cross-segment state at the start of segment i, for i <= known: segment i can be
  // walked from it exactly once every segment before it is done.
  std::mutex mutex;
  std::vector<CrossState> starts;
  std::size_t known = 0;
};

PartitionVerifier::PartitionVerifier(const fs::path& dir, std::uint64_t index_interval_bytes,
                                     const ReplicaOverrides& overrides,
                                     const LogDirCheckpoints* log_dir)
    : s_(std::make_unique<State>(dir, index_interval_bytes, overrides, log_dir)) {
  State& s = *s_;
  s.segs = s.v.list_files(s.loader.dir(), s.loader.files());  // the loader's listing of the dir
  // Each segment is read once, for the checks and the loader both, when both list the same
  // .log files (they differ only when two names carry the same offset).
  s.shared = same_logs(s.segs, s.loader.segments());
  if (!s.shared) s.loader.walk();
  s.outcomes.resize(s.segs.size());
  s.starts.resize(s.segs.size() + 1);
}

PartitionVerifier::~PartitionVerifier() = default;

std::size_t PartitionVerifier::segment_count() const {
  return s_->segs.size();
}

std::uint64_t PartitionVerifier::segment_bytes(std::size_t i) const {
  return s_->segs[i].size;
}

void PartitionVerifier::read_ahead(bool on) {
  s_->read_ahead = on;
}

namespace {
// Walks segment i of `s` from `start`, into a fresh outcome.
SegmentOutcome walk_segment(const SegmentFiles& seg, std::uint64_t interval, int dir_fd,
                            std::optional<SegmentLoad> load, const CrossState& start, bool exact,
                            bool read_ahead) {
  SegmentOutcome o;
  o.exact = exact;
  o.load = std::move(load);
  o.end = start;
  try {
    SegmentVerifier sv(o, interval, dir_fd, read_ahead);
    o.result = sv.verify(seg, o.end, o.load ? &*o.load : nullptr);
  } catch (...) {
    o.error = std::current_exception();
  }
  o.done = true;
  return o;
}
}  // namespace

void PartitionVerifier::verify_segment(std::size_t i) {
  State& s = *s_;
  std::optional<CrossState> start;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (i <= s.known) start = s.starts[i];
  }
  std::optional<SegmentLoad> load;
  if (s.shared) load = s.loader.start(i);
  SegmentOutcome o = walk_segment(s.segs[i], s.interval, s.loader.dir_fd(), std::move(load),
                                  start.value_or(CrossState{}), start.has_value(), s.read_ahead);
  std::lock_guard<std::mutex> lock(s.mutex);
  s.outcomes[i] = std::move(o);
  // The start of the segments after the done ones.
  while (s.known < s.segs.size() && s.outcomes[s.known].done) {
    const SegmentOutcome& d = s.outcomes[s.known];
    s.starts[s.known + 1] = d.exact ? d.end : combine(s.starts[s.known], d.end);
    ++s.known;
  }
}

namespace {
// The log dir's checkpoints against the log they describe (the files are the parent's, so
// named from the partition dir).
void check_log_dir_offsets(PartitionVerification& out) {
  const PartitionReplica& r = out.replica;
  // LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd: every segment deleted, the epoch
  // cache cleared, the log started empty at the checkpoint's log start.
  if (!r.segments.empty() && r.log_start_checkpoint && *r.log_start_checkpoint > r.log_end_offset)
    out.findings.push_back(
        {Sev::error, "../log-start-offset-checkpoint", std::nullopt, *r.log_start_checkpoint,
         fmt::format("log start offset {} is past the log end {}: the next start deletes every "
                     "segment of this replica and starts it empty at {} "
                     "(LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd: segment files deleted "
                     "from the file system, or a checkpoint of another log)",
                     *r.log_start_checkpoint, r.log_end_offset, *r.log_start_checkpoint)});
  // UnifiedLog.updateHighWatermark lowers it to the log end; the offsets between were
  // committed and are gone from this replica.
  if (r.high_watermark && *r.high_watermark > r.log_end_offset)
    out.findings.push_back(
        {Sev::warning, "../replication-offset-checkpoint", std::nullopt, *r.high_watermark,
         fmt::format("high watermark {} is above the log end {}: offsets {} to {} were committed "
                     "and this replica no longer holds them (writes lost in a crash, or segments "
                     "deleted); Kafka lowers its high watermark to the log end",
                     *r.high_watermark, r.log_end_offset, r.log_end_offset,
                     *r.high_watermark - 1)});
}
}  // namespace

PartitionVerification PartitionVerifier::finish() {
  State& s = *s_;
  PartitionVerification& out = s.out;
  Verifier& v = s.v;
  const auto& segs = s.segs;
  // The merge, in offset order: a segment walked from an empty state whose findings the
  // true state would change is walked again from it; then its findings, and its batches
  // to the loader.
  std::vector<SegmentResult> results;
  results.reserve(segs.size());
  for (std::size_t i = 0; i < segs.size(); ++i) {
    SegmentOutcome& o = s.outcomes[i];
    if (!o.done) throw std::logic_error("PartitionVerifier::finish before every segment");
    if (!o.error && !o.exact && !unaffected_by(o, s.starts[i]))
      o = walk_segment(segs[i], s.interval, s.loader.dir_fd(),
                       s.shared ? std::optional(s.loader.start(i)) : std::nullopt, s.starts[i],
                       true, s.read_ahead);
    if (o.load) s.loader.apply(i, *o.load);
    if (o.error) std::rethrow_exception(o.error);
    out.findings.insert(out.findings.end(), std::make_move_iterator(o.findings.begin()),
                        std::make_move_iterator(o.findings.end()));
    results.push_back(std::move(o.result));
    o = SegmentOutcome{};
  }
  out.replica = std::move(s.loader).finish();
  check_log_dir_offsets(out);
  for (const auto& [file, offset] : v.snapshots)
    v.verify_snapshot(file, offset, s.loader.dir_fd());

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
      out.next_start_failure = LoadFailure{segs.back().log.name(), last.end.position,
                                           "CorruptRecordException", last.end.message};
      v.finding(Sev::error, segs.back().log, last.end.position, std::nullopt,
                fmt::format("the next start fails: after a clean shutdown Kafka skips "
                            "recovery but reads this segment to find the log end "
                            "(LogSegment.readNextOffset) and throws {}: {}; the broker exits",
                            out.next_start_failure->exception, last.end.message));
    }
  }
  return std::move(out);
}

PartitionVerification verify_partition(const fs::path& dir, std::uint64_t index_interval_bytes) {
  PartitionVerifier verifier(dir, index_interval_bytes);
  verifier.read_ahead(true);  // one segment at a time: reading overlaps checking
  for (std::size_t i = 0; i < verifier.segment_count(); ++i)
    verifier.verify_segment(i);
  return verifier.finish();
}

}  // namespace kepoch
