#include "kepoch/storage/replica_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>
#include <unordered_map>

#include <sys/stat.h>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/checkpoint_check.hpp"
#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/format/offset_checkpoint.hpp"
#include "kepoch/format/partition_metadata.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/storage/checkpoint_files.hpp"
#include "kepoch/storage/index_files.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/partition_dir.hpp"
#include "kepoch/storage/segment_seek.hpp"

namespace kepoch {
namespace fs = std::filesystem;

// One of a log dir's offset checkpoints, parsed once per process: `logdir scan` loads every
// partition of the dir, and re-parsing the dir's checkpoints (one line per partition) for each
// of them made the scan quadratic in the partition count (10,000 partitions: 3 x 10^8 lines).
// A topic partition as a key, looked up without building a string per lookup.
struct TopicPartitionKey {
  std::string topic;
  std::int32_t partition = 0;
};
struct TopicPartitionRef {
  std::string_view topic;
  std::int32_t partition = 0;
};
struct TopicPartitionHash {
  using is_transparent = void;
  std::size_t operator()(const TopicPartitionRef& k) const {
    return std::hash<std::string_view>{}(k.topic) ^
           (static_cast<std::size_t>(static_cast<std::uint32_t>(k.partition)) *
            0x9e3779b97f4a7c15ull);
  }
  std::size_t operator()(const TopicPartitionKey& k) const {
    return (*this)(TopicPartitionRef{k.topic, k.partition});
  }
};
struct TopicPartitionEqual {
  using is_transparent = void;
  static TopicPartitionRef ref(const TopicPartitionKey& k) { return {k.topic, k.partition}; }
  static TopicPartitionRef ref(const TopicPartitionRef& k) { return k; }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    return ref(a).partition == ref(b).partition && ref(a).topic == ref(b).topic;
  }
};

struct ParsedOffsetCheckpoint {
  std::optional<std::string> failure;  // Kafka's explanation when it cannot read the file
  std::unordered_map<TopicPartitionKey, std::int64_t, TopicPartitionHash, TopicPartitionEqual>
      offsets;
};

namespace {

// The partition's live segments (partition_dir.hpp), by base offset.
std::vector<SegmentSummary> list_segments(const PartitionDirListing& listing) {
  std::vector<SegmentSummary> segments;
  for (auto& live : live_segments(listing)) {
    SegmentSummary s;
    s.file = std::move(live.path);
    s.base_offset = live.base_offset;
    s.size_bytes = live.size_error ? 0 : live.size;  // fs::file_size's answer, or 0
    segments.push_back(std::move(s));
  }
  return segments;
}

// The partition dir held open by its listing, or -1.
int dir_fd(const PartitionDirListing* listing) {
  return listing && listing->handle ? listing->handle->fd() : -1;
}

// fs::exists of a file in the partition dir, from its listing when there is one.
bool exists_in(const PartitionDirListing* listing, const fs::path& file) {
  if (listing) return listing->exists(file.filename().string());
  std::error_code ec;
  return fs::exists(file, ec);
}

std::shared_ptr<const ParsedOffsetCheckpoint> parse_offset_checkpoint_file(const fs::path& file) {
  auto parsed = std::make_shared<ParsedOffsetCheckpoint>();
  const std::string text = read_small_file(file, kMaxCheckpointBytes);
  const auto c = read_offset_checkpoint(text, file.string());
  if (c.failure) {
    parsed->failure = c.failure->explanation;
  } else {
    for (const auto& e : c.entries)
      parsed->offsets[TopicPartitionKey{e.topic, e.partition}] = e.offset;  // the last one wins
  }
  return parsed;
}

// Cached by path, size and modification time (a rewritten file is parsed again), from the
// one stat the caller made.
std::shared_ptr<const ParsedOffsetCheckpoint> offset_checkpoint_file(const fs::path& file,
                                                                     const struct stat& st) {
  const std::string key = fmt::format("{}\n{}\n{}.{}", file.string(), st.st_size, st.st_mtim.tv_sec,
                                      st.st_mtim.tv_nsec);
  static std::mutex mutex;
  // Never destroyed: freeing tens of thousands of entries at exit is work for nothing.
  static auto& cache = *new std::map<std::string, std::shared_ptr<const ParsedOffsetCheckpoint>>;
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
void refuse_dangling_link(const fs::path& file, const PartitionDirListing* listing = nullptr) {
  if (listing && !listing->listed(file.filename().string())) return;  // no entry at all
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(file, ec))) {
    throw InputError(file.string(),
                     fmt::format("a dangling symbolic link (to {}): Kafka cannot read it",
                                 fs::read_symlink(file, ec).string()));
  }
}

// LogSegment.sanityCheck, which LogLoader.loadSegmentFiles runs on every segment it opens,
// clean shutdown or not: without its offset index it throws NoSuchFileException; otherwise
// TransactionIndex.sanityCheck throws CorruptIndexException for an aborted transaction whose
// lastOffset lies below the segment's base offset. Either way loadSegmentFiles recovers the
// segment (recoverSegment: indexes rebuilt, the log cut at its first invalid batch). The time
// and offset indexes are not checked there. A version byte above 0 makes the index's
// iterator throw KafkaException, which escapes LogLoader: LogManager fails and the broker
// exits, so how Kafka loads the replica cannot be told.
// `name` is scratch space for the file names. The .txnindex is read only when the listing
// holds one (Kafka creates it with the first aborted transaction).
bool recovered_when_opened(const PartitionDirListing& listing, const SegmentSummary& segment,
                           std::string_view stem, std::string& name) {
  name.assign(stem).append(".index");
  if (!listing.exists(name)) return true;
  name.assign(stem).append(".txnindex");
  if (!listing.exists(name)) return false;
  const std::string path = (listing.dir / name).string();
  const int dir_fd = listing.handle ? listing.handle->fd() : -1;
  const IndexFileDump dump =
      read_index_file(ReadOnlyFile(dir_fd, name.c_str(), path),
                      {SegmentFileKind::txnindex, LeftoverState::none, segment.base_offset, {}});
  const auto fail = std::get<TransactionIndex>(dump.content).sanity_check(path);
  if (!fail) return false;
  if (fail->exception == kCorruptIndexException) return true;
  throw InputError(path,
                   fmt::format("TransactionIndex.sanityCheck fails at load: {}: {}: the broker "
                               "exits (LogManager), so how Kafka loads this replica cannot be told",
                               fail->exception, fail->kafka_message),
                   0, fail->position);
}

// The entry for topic-partition in one of the parent log dir's offset checkpoints.
std::optional<std::int64_t> checkpointed_offset(const fs::path& file, const PartitionReplica& r,
                                                std::vector<std::string>& notes) {
  // One stat (following links, as fs::exists does) for existence, size and time.
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    refuse_dangling_link(file);
    notes.push_back(fmt::format("{} is missing", file.filename().string()));
    return std::nullopt;
  }
  const auto parsed = offset_checkpoint_file(file, st);
  if (parsed->failure) {
    notes.push_back(
        fmt::format("{} is unreadable to Kafka: {}", file.filename().string(), *parsed->failure));
    return std::nullopt;
  }
  const auto it = parsed->offsets.find(TopicPartitionRef{r.topic, r.partition});
  if (it == parsed->offsets.end()) return std::nullopt;
  return it->second;
}

// fs::exists of the file `name` in the replica dir, from its listing when there is one
// (no path built for a file the listing answers for).
bool exists_in(const PartitionDirListing* listing, const fs::path& dir, std::string_view name) {
  if (listing) return listing->exists(name);
  return exists_in(nullptr, dir / name);
}

// A small file of the replica dir, opened relative to the dir; without a stat when the
// listing shows it as a plain regular file.
ReadOnlyFile open_listed(const PartitionDirListing* listing, const fs::path& dir,
                         std::string_view name) {
  // The names are constants (NUL-terminated).
  if (listing && dir_fd(listing) >= 0 && listing->regular_entry(name))
    return ReadOnlyFile::listed_regular(dir_fd(listing), name.data(), path_text(dir, name));
  return ReadOnlyFile(dir_fd(listing), name.data(), path_text(dir, name));
}

void read_epoch_checkpoint(PartitionReplica& r, const PartitionDirListing* listing) {
  if (!exists_in(listing, r.dir, kLeaderEpochCheckpointName)) {
    refuse_dangling_link(r.dir / kLeaderEpochCheckpointName, listing);
    r.notes.push_back("no leader-epoch-checkpoint: the epoch cache starts empty");
    return;
  }
  // check_checkpoint_file's reading, minus what only validation asks of the file's
  // neighbours (a .tmp sibling, the metadata log dir): the file opened relative to the dir.
  const ReadOnlyFile opened = open_listed(listing, r.dir, kLeaderEpochCheckpointName);
  const std::string& file = opened.path();
  std::string storage;
  const auto report = check_checkpoint(read_small_view(opened, kMaxCheckpointBytes, storage), file,
                                       *checkpoint_type_from_name(kLeaderEpochCheckpointName),
                                       CheckpointContext{}, CheckDepth::dump);
  if (!report.valid || !report.loaded_entries) {
    throw InputError(
        file, fmt::format("Kafka would not load this file ({}): {}", outcome_name(report.outcome),
                          report.problems.empty() ? "" : report.problems.front().message));
  }
  r.checkpoint_entries = *report.loaded_entries;
}

void read_topic_id(PartitionReplica& r, const PartitionDirListing* listing) {
  if (!exists_in(listing, r.dir, kPartitionMetadataName)) {
    refuse_dangling_link(r.dir / kPartitionMetadataName, listing);
    return;
  }
  const ReadOnlyFile opened = open_listed(listing, r.dir, kPartitionMetadataName);
  std::string storage;
  const auto m =
      read_partition_metadata(read_small_view(opened, kMaxCheckpointBytes, storage), opened.path());
  r.topic_id = m.topic_id;
}

}  // namespace

fs::path LogDirCheckpoints::parent_of_partitions(const fs::path& log_dir) {
  return (absolute_path(log_dir) / "p-0").lexically_normal().parent_path();
}

ReplicaOverrides LogDirCheckpoints::known_offsets(std::string_view topic,
                                                  std::int32_t partition) const {
  auto known = [&](const File& f) -> std::optional<std::int64_t> {
    if (f.error || f.missing || f.parsed->failure) return std::nullopt;
    const auto it = f.parsed->offsets.find(TopicPartitionRef{topic, partition});
    if (it == f.parsed->offsets.end()) return std::nullopt;
    return it->second;
  };
  ReplicaOverrides out;
  out.high_watermark = known(high_watermark_);
  out.recovery_point = known(recovery_point_);
  out.log_start_offset = known(log_start_);
  return out;
}

std::string_view LogDirCheckpoints::listed_name(const fs::path& partition_dir) const {
  const std::string& text = partition_dir.native();
  const std::string& prefix = listed_prefix_;
  if (prefix.empty() || text.size() <= prefix.size() || text.compare(0, prefix.size(), prefix) != 0)
    return {};
  const std::string_view name = std::string_view(text).substr(prefix.size());
  if (name.find('/') != std::string_view::npos || name == "." || name == "..") return {};
  return name;
}

bool LogDirCheckpoints::is_parent_of(const fs::path& partition_dir) const {
  // A plain name in the listed dir (what logdir scan hands the loader): its parent, computed
  // as the loader computes it, is dir_ (a plain last component does not change under
  // lexically_normal, and what is before it is the listed dir).
  if (!listed_name(partition_dir).empty()) return true;
  return dir_ == absolute_path(partition_dir).lexically_normal().parent_path();
}

std::shared_ptr<const DirFd> LogDirCheckpoints::open_partition_dir(
    const fs::path& partition_dir) const {
  const std::string_view name = listed_name(partition_dir);
  // The name is the tail of the path's text: NUL-terminated.
  if (!name.empty() && listed_fd_ && listed_fd_->fd() >= 0)
    return std::make_shared<const DirFd>(listed_fd_->fd(), name.data());
  return std::make_shared<const DirFd>(partition_dir);
}

LogDirCheckpoints::LogDirCheckpoints(const fs::path& log_dir, const fs::path& listed)
    : dir_(log_dir), listed_prefix_(listed.empty() ? "" : path_text(listed, "")) {
  if (!listed.empty()) listed_fd_ = std::make_unique<const DirFd>(listed);
  std::error_code ec;
  clean_shutdown_ = fs::exists(dir_ / ".kafka_cleanshutdown", ec);
  // checkpointed_offset's reading, its outcome kept.
  auto read = [this](File& f, const char* name) {
    f.name = name;
    const fs::path file = dir_ / name;
    try {
      struct stat st {};
      if (::stat(file.c_str(), &st) != 0) {
        refuse_dangling_link(file);
        f.missing = true;
        return;
      }
      f.parsed = offset_checkpoint_file(file, st);
    } catch (const InputError&) {
      f.error = std::current_exception();
    }
  };
  read(high_watermark_, "replication-offset-checkpoint");
  read(recovery_point_, "recovery-point-offset-checkpoint");
  read(log_start_, "log-start-offset-checkpoint");
}

std::optional<std::int64_t> LogDirCheckpoints::offset(const File& f, const PartitionReplica& r,
                                                      std::vector<std::string>& notes) const {
  if (f.error) std::rethrow_exception(f.error);
  if (f.missing) {
    notes.push_back(fmt::format("{} is missing", f.name));
    return std::nullopt;
  }
  if (f.parsed->failure) {
    notes.push_back(fmt::format("{} is unreadable to Kafka: {}", f.name, *f.parsed->failure));
    return std::nullopt;
  }
  const auto it = f.parsed->offsets.find(TopicPartitionRef{r.topic, r.partition});
  if (it == f.parsed->offsets.end()) return std::nullopt;
  return it->second;
}

ReplicaLoader::ReplicaLoader(const fs::path& dir, const ReplicaOverrides& overrides,
                             const LogDirCheckpoints* log_dir) {
  PartitionReplica& r = replica_;
  r.dir = dir;
  std::error_code dir_ec;
  // Held open for the listing and the files' opens; a dir that opens is a directory (as
  // fs::is_directory, following links), so only one that does not is asked again.
  auto handle = log_dir ? log_dir->open_partition_dir(dir) : std::make_shared<const DirFd>(dir);
  if (handle->fd() < 0 && !fs::is_directory(dir, dir_ec)) {
    throw InputError(dir.string(),
                     "not a directory (expected a partition dir such as "
                     "<log dir>/orders-0)");
  }
  // A broker log dir given where a partition dir is expected (a partition dir reached
  // through a symbolic link is read where it leads, as Kafka reads it).
  // The dir is listed once (partition_dir.hpp); the questions below are asked of the
  // listing. A dir that cannot be listed is asked file by file, and fails where it did.
  std::optional<PartitionDirListing> listing;
  std::exception_ptr list_error;
  try {
    listing = list_partition_dir(dir, std::move(handle));
  } catch (const InputError&) {
    list_error = std::current_exception();
  }
  const PartitionDirListing* listed = listing ? &*listing : nullptr;
  if ((listed ? holds_log_dir_files(*listed) : holds_log_dir_files(dir)) &&
      !fs::is_symlink(dir, dir_ec))
    throw InputError(dir.string(),
                     fmt::format("a broker log dir, not a partition dir: to check every "
                                 "partition in it, run `kepoch logdir scan {}`",
                                 dir.string()));
  const auto parsed = partition_dir_name_of(dir);
  if (!parsed.name)
    throw InputError(dir.string(), parsed.kafka_failure.value_or("not a partition dir"));
  r.topic = parsed.name->topic;
  r.partition = parsed.name->partition;
  read_topic_id(r, listed);
  read_epoch_checkpoint(r, listed);
  if (list_error) std::rethrow_exception(list_error);
  r.segments = list_segments(*listing);
  recovered_at_open_.reserve(r.segments.size());
  std::string index_name;
  for (const auto& segment : r.segments) {
    // "<stem>.index" and "<stem>.txnindex" beside "<stem>.log" (a live segment's name ends in
    // ".log").
    const std::string& path = segment.file.native();
    const std::size_t slash = path.rfind('/');
    const std::string_view log_name =
        std::string_view(path).substr(slash == std::string::npos ? 0 : slash + 1);
    recovered_at_open_.push_back(recovered_when_opened(
        *listing, segment, log_name.substr(0, log_name.size() - 4), index_name));
  }
  files_ = std::move(listing->files);
  handle_ = std::move(listing->handle);

  if (log_dir && log_dir->is_parent_of(dir)) {
    const LogDirCheckpoints& c = *log_dir;
    r.clean_shutdown = overrides.clean_shutdown.value_or(c.clean_shutdown_);
    r.high_watermark = overrides.high_watermark ? overrides.high_watermark
                                                : c.offset(c.high_watermark_, r, r.notes);
    r.recovery_point = overrides.recovery_point ? overrides.recovery_point
                                                : c.offset(c.recovery_point_, r, r.notes);
    r.log_start_checkpoint = overrides.log_start_offset ? overrides.log_start_offset
                                                        : c.offset(c.log_start_, r, r.notes);
  } else {
    read_parent_checkpoints(r, absolute_path(dir).lexically_normal().parent_path(), overrides);
  }
  finish_setup();
}

void ReplicaLoader::read_parent_checkpoints(PartitionReplica& r, const fs::path& parent,
                                            const ReplicaOverrides& overrides) {
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
}

void ReplicaLoader::finish_setup() {
  PartitionReplica& r = replica_;
  cache_ = LeaderEpochCache::load(r.checkpoint_entries);
  // Without a clean shutdown, recoverLog recovers from the segment holding the recovery point.
  const std::int64_t recovery_point = r.recovery_point.value_or(0);
  for (std::size_t i = 0; i < r.segments.size(); ++i)
    if (r.segments[i].base_offset <= recovery_point) recover_from_ = i;
}

namespace {

// Offsets below the segment's base, negative, or wrapping past INT64_MAX (the CRC does not
// cover the base offset: damage or a hostile file) are none Kafka can place: recovery's
// LogSegment.ensureOffsetInRange throws LogSegmentOffsetOverflowException, whose segment
// split would start a segment at that offset, and LeaderEpochFileCache.assign throws
// IllegalArgumentException for a negative one (shared/spec kafka-formats 2.7). kepoch cannot
// tell how Kafka loads such a replica, so a recovered segment holding one is an input it
// cannot judge; `partition verify` reports the batch.
bool offsets_fit(const BatchHeader& h, std::int64_t segment_base) {
  // ensureOffsetInRange(batch.lastOffset()): AbstractIndex.toRelative, 0 <= last - base <=
  // Integer.MAX_VALUE (segment bases come from file names, never negative).
  const std::int64_t last = h.last_offset();
  const bool in_range = last >= segment_base && last - segment_base <= INT32_MAX;
  return in_range && h.base_offset >= 0 && last >= h.base_offset;
}

InputError offsets_error(const fs::path& file, const BatchHeader& h, std::int64_t segment_base) {
  return InputError(file.string(),
                    fmt::format("batch at offset {}: offsets {}..{} do not fit a segment at base "
                                "offset {} that Kafka recovers (LogSegmentOffsetOverflowException; "
                                "its epoch cache refuses negative offsets): how Kafka loads this "
                                "replica cannot be told",
                                h.base_offset, h.base_offset, h.last_offset(), segment_base),
                    0, h.position);
}

}  // namespace

bool ReplicaLoader::recovers(std::size_t i) const {
  const bool at_open = i < recovered_at_open_.size() && recovered_at_open_[i];
  return (!replica_.clean_shutdown && i >= recover_from_) || at_open;
}

void ReplicaLoader::enter(std::size_t i) {
  if (i == segment_) return;
  segment_ = i;
  valid_bytes_ = 0;
}

bool ReplicaLoader::batch(std::size_t i, const LogSegmentReader::Entry& e,
                          const std::optional<std::string>& invalid) {
  if (!wants(i)) return false;
  enter(i);
  SegmentSummary& s = replica_.segments[i];
  const BatchHeader& h = e.header;
  const bool recover = recovers(i);
  // LogSegment.recover: the log ends before the first entry that fails ensureValid.
  if (recover && (!e.loaded || invalid)) {
    const std::optional<std::string> bad = e.loaded ? invalid : validate_batch(h, e.bytes);
    replica_.recovery_stop = LogEnd{LogEndReason::corrupt_size, h.position,
                                    s.size_bytes - h.position, bad.value_or("batch too large")};
    cut_log(i, valid_bytes_);
    return false;
  }
  ++s.batches;
  valid_bytes_ = h.position + h.size_in_bytes();
  s.next_offset = h.next_offset();
  if (recover && !offsets_fit(h, s.base_offset)) throw offsets_error(s.file, h, s.base_offset);
  if (h.is_v2() && h.partition_leader_epoch >= 0) {
    const EpochEntry entry{h.partition_leader_epoch, h.base_offset};
    if (h.base_offset >= 0) rebuilt_.assign(entry);  // the batches' history skips it
    if (recover) cache_.assign_if_newer(entry);      // LogSegment.recover's rule
  }
  return true;
}

namespace {
// Epoch entries a SegmentLoad holds before it gives up and lets apply() read the segment
// again (a log whose epoch changes at almost every batch): 1 MiB.
constexpr std::size_t kMaxSegmentLoadEpochs = 65536;
}  // namespace

bool SegmentLoad::batch(const LogSegmentReader::Entry& e,
                        const std::optional<std::string>& invalid) {
  if (stop_) return false;
  const BatchHeader& h = e.header;
  if (recovers_ && (!e.loaded || invalid)) {
    const std::optional<std::string> bad = e.loaded ? invalid : validate_batch(h, e.bytes);
    stop_ = LogEnd{LogEndReason::corrupt_size, h.position, size_bytes_ - h.position,
                   bad.value_or("batch too large")};
    return false;
  }
  if (recovers_ && !offsets_fit(h, base_offset_)) {  // apply() throws, as batch() does here
    misplaced_ = h;
    return false;
  }
  ++batches_;
  valid_bytes_ = h.position + h.size_in_bytes();
  next_offset_ = h.next_offset();
  // The batches' history skips a negative offset, as ReplicaLoader::batch does.
  if (h.is_v2() && h.partition_leader_epoch >= 0 && h.base_offset >= 0) {
    const EpochEntry entry{h.partition_leader_epoch, h.base_offset};
    if (!last_epoch_ || last_epoch_->epoch != entry.epoch ||
        entry.start_offset < last_epoch_->start_offset) {
      if (epochs_.size() < kMaxSegmentLoadEpochs)
        epochs_.push_back(entry);
      else
        overflow_ = true;
    }
    last_epoch_ = entry;
  }
  return true;
}

void SegmentLoad::end(const LogEnd& end) {
  if (stop_) return;
  if (recovers_ && end.reason != LogEndReason::end_of_file) stop_ = end;
}

SegmentLoad ReplicaLoader::start(std::size_t i) const {
  SegmentLoad load;
  load.recovers_ = recovers(i);
  load.size_bytes_ = i < replica_.segments.size() ? replica_.segments[i].size_bytes : 0;
  load.base_offset_ = i < replica_.segments.size() ? replica_.segments[i].base_offset : 0;
  return load;
}

void ReplicaLoader::apply(std::size_t i, const SegmentLoad& load) {
  if (!wants(i)) return;
  if (load.overflow_) {
    walk_segment(i, 0);
    return;
  }
  enter(i);
  SegmentSummary& s = replica_.segments[i];
  if (load.misplaced_) throw offsets_error(s.file, *load.misplaced_, s.base_offset);
  s.batches += load.batches_;
  if (load.next_offset_) s.next_offset = load.next_offset_;
  for (const EpochEntry& entry : load.epochs_) {
    rebuilt_.assign(entry);
    if (load.recovers_) cache_.assign_if_newer(entry);
  }
  valid_bytes_ = load.valid_bytes_;
  if (load.stop_) {
    replica_.recovery_stop = *load.stop_;
    cut_log(i, valid_bytes_);
  }
}

void ReplicaLoader::segment_end(std::size_t i, const LogEnd& end) {
  if (!wants(i)) return;
  enter(i);
  if (recovers(i) && end.reason != LogEndReason::end_of_file) {
    replica_.recovery_stop = end;
    cut_log(i, valid_bytes_);
  }
}

// Recovery truncates segment i after its valid bytes; LogLoader deletes every later segment.
// A segment recovered when it is opened (no offset index) is cut alone: loadSegmentFiles
// keeps the segments after it, and recoverLog, recovering it again, finds nothing to cut
// (partition_verify's recovery_next_start says the same).
void ReplicaLoader::cut_log(std::size_t i, std::uint64_t valid_bytes) {
  PartitionReplica& r = replica_;
  r.recovery_truncated_bytes += r.segments[i].size_bytes - valid_bytes;
  if (recovered_at_open_.at(i)) {
    cut_ = i + 1 == r.segments.size();
    return;
  }
  for (std::size_t j = i + 1; j < r.segments.size(); ++j)
    r.recovery_truncated_bytes += r.segments[j].size_bytes;
  r.segments.resize(i + 1);
  cut_ = true;
}

void ReplicaLoader::walk_segment(std::size_t i, std::uint64_t from_position) {
  LogSegmentReader reader(replica_.segments[i].file, /*load_batches=*/recovers(i));
  reader.seek(from_position);
  while (auto e = reader.next()) {
    const auto invalid =
        e->loaded && recovers(i) ? validate_batch(e->header, e->bytes) : std::nullopt;
    if (!batch(i, *e, invalid)) return;
  }
  segment_end(i, reader.end());
}

void ReplicaLoader::walk() {
  for (std::size_t i = 0; wants(i); ++i)
    walk_segment(i, 0);
}

void ReplicaLoader::walk_tail() {
  replica_.depth = LoadDepth::tail;
  const std::size_t last = replica_.segments.size() - 1;  // wants() is false when empty
  for (std::size_t i = 0; wants(i); ++i) {
    if (recovers(i)) {
      walk_segment(i, 0);  // LogSegment.recover reads the whole segment
    } else if (i == last) {
      // Not recovered, so nothing in it can cut the log: only its last batch matters.
      const SegmentSummary& s = replica_.segments[i];
      walk_segment(i, seek_position(s.file, s.base_offset, INT64_MAX));
    } else {
      // Opened though not read, so a segment Kafka cannot open (a directory named like one)
      // fails the load as walk() fails it.
      const LogSegmentReader opened(replica_.segments[i].file, /*load_batches=*/false);
    }
  }
}

PartitionReplica ReplicaLoader::finish() && {
  PartitionReplica& r = replica_;
  r.rebuilt_entries = rebuilt_.entries();
  r.log_end_offset = r.segments.empty()
                         ? r.log_start_checkpoint.value_or(0)
                         : r.segments.back().next_offset.value_or(r.segments.back().base_offset);
  const std::int64_t log_start_checkpoint = r.log_start_checkpoint.value_or(0);
  // LogLoader: truncateFromEnd(LEO), then truncateFromStart(the raw checkpoint value).
  LeaderEpochCache leader_cache = cache_;
  leader_cache.truncate_from_end(r.log_end_offset + 1);  // stale entries beyond the end only
  leader_cache.truncate_from_start(log_start_checkpoint);
  cache_.truncate_from_end(r.log_end_offset);
  cache_.truncate_from_start(log_start_checkpoint);
  r.loaded.cache = std::move(cache_);  // the loader is done with both caches
  r.loaded.log_end_offset = r.log_end_offset;
  r.loaded.log_start_offset =
      std::max(log_start_checkpoint,
               r.segments.empty() ? log_start_checkpoint : r.segments.front().base_offset);
  if (!r.high_watermark)
    r.notes.push_back("no high watermark recorded: taken as the log start offset");
  r.loaded.high_watermark =
      std::min(r.high_watermark.value_or(r.loaded.log_start_offset), r.log_end_offset);
  r.as_leader.cache = std::move(leader_cache);
  r.as_leader.log_end_offset = r.loaded.log_end_offset;
  r.as_leader.high_watermark = r.loaded.high_watermark;
  r.as_leader.log_start_offset = r.loaded.log_start_offset;
  return std::move(r);
}

}  // namespace kepoch
