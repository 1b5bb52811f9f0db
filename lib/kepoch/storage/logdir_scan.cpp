#include "kepoch/storage/logdir_scan.hpp"
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include <string_view>
#include <unordered_map>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/checkpoint_kind.hpp"
#include "kepoch/format/partition_metadata.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/storage/broker_identity.hpp"
#include "kepoch/storage/checkpoint_files.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/replica_loader.hpp"

namespace kepoch {
namespace fs = std::filesystem;

void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& task,
                  const std::function<void(std::size_t)>& on_done) {
  if (count == 0) return;
  const std::size_t threads = std::min<std::size_t>(std::max(jobs, 1u), count);
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;  // guards `done`, `first_error` and the on_done calls
  std::size_t done = 0;
  std::exception_ptr first_error;

  auto worker = [&] {
    for (std::size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      std::exception_ptr error;
      try {
        task(i);
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(done_mutex);
      if (error && !first_error) first_error = error;
      ++done;
      if (on_done) on_done(done);
    }
  };

  if (threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t)
      pool.emplace_back(worker);
    for (auto& th : pool)
      th.join();
  }
  if (first_error) std::rethrow_exception(first_error);
}

unsigned default_jobs() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1u : n;
}

namespace {

FindingSummary summarise(const VerifyFinding& f) {
  return FindingSummary{f.file, f.position, f.offset, f.message};
}

void fill_from_verification(PartitionScan& scan, PartitionVerification&& v) {
  const PartitionReplica& r = v.replica;
  scan.topic = r.topic;
  scan.partition = r.partition;
  scan.log_start_offset = r.loaded.log_start_offset;
  scan.log_end_offset = r.log_end_offset;
  scan.high_watermark = r.high_watermark;
  scan.segments = r.segments.size();
  for (const auto& s : r.segments) {
    scan.bytes += s.size_bytes;
    scan.batches += s.batches;
  }
  for (const auto& f : v.findings) {
    if (f.severity == VerifyFinding::Severity::error) {
      ++scan.errors;
      if (!scan.first_error) scan.first_error = summarise(f);
    } else if (f.severity == VerifyFinding::Severity::warning) {
      ++scan.warnings;
      if (!scan.first_warning) scan.first_warning = summarise(f);
    }
  }
  scan.recovery_next_start = std::move(v.recovery_next_start);
  scan.recovery_full = std::move(v.recovery_full);
}

void mark_unreadable(PartitionScan& scan, const InputError& e) {
  scan.unreadable = e.what();
  scan.errors = 1;
  scan.first_error = FindingSummary{scan.name, std::nullopt, std::nullopt, e.what()};
}

// The scan's workers. Work items are partitions, in order, and the segments of a large
// partition: the worker that opens a partition (lists it, reads its checkpoints) queues its
// segments 1..n-1 for whichever worker is free and verifies segment 0; whoever verifies a
// partition's last segment merges it (PartitionVerifier::finish) and frees its state. Queued
// segments go before new partitions, so few partitions are open at once.
class ScanPool {
 public:
  // A partition whose .log files hold at least split_bytes is split: its segments become
  // work items of their own (when it has more than one and there is more than one worker).
  struct Item {
    PartitionScan* scan;
    const LogDirCheckpoints* log_dir;  // its log dir's files, read once
    // Its offsets in those files, looked up in one pass before the scan (the lookups miss
    // the cache when each partition's load makes them between reads).
    ReplicaOverrides offsets;
  };
  ScanPool(std::vector<Item> work, unsigned jobs, std::uint64_t split_bytes,
           std::function<void(std::size_t)> on_done)
      : work_(std::move(work)),
        jobs_(std::max(jobs, 1u)),
        split_bytes_(split_bytes),
        on_done_(std::move(on_done)) {}

  void run() {
    if (work_.empty()) return;
    // More workers than partitions still help: a large partition's segments are split.
    const std::size_t threads = jobs_;
    if (threads <= 1) {
      worker();
    } else {
      std::vector<std::thread> pool;
      pool.reserve(threads);
      for (std::size_t t = 0; t < threads; ++t)
        pool.emplace_back([this] { worker(); });
      for (auto& th : pool)
        th.join();
    }
    if (first_error_) std::rethrow_exception(first_error_);
  }

 private:
  struct Open {
    PartitionScan* scan = nullptr;
    std::unique_ptr<PartitionVerifier> verifier;
    std::atomic<std::size_t> left{0};  // segments not yet verified
  };
  struct Segment {
    Open* open;
    std::size_t index;
  };

  void worker() {
    for (;;) {
      std::optional<Segment> segment;
      std::size_t partition = 0;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        // Wait while a partition being opened may still queue segments.
        ready_.wait(lock,
                    [this] { return !segments_.empty() || next_ < work_.size() || opening_ == 0; });
        if (!segments_.empty()) {
          segment = segments_.front();
          segments_.pop_front();
        } else if (next_ < work_.size()) {
          partition = next_++;
          ++opening_;
        } else {
          return;
        }
      }
      if (segment)
        verify(*segment->open, segment->index);
      else
        open(partition);
    }
  }

  void open(std::size_t index) {
    PartitionScan& scan = *work_[index].scan;
    auto o = std::make_unique<Open>();
    o->scan = &scan;
    bool split = false;
    try {
      o->verifier = std::make_unique<PartitionVerifier>(scan.dir, 4096, work_[index].offsets,
                                                        work_[index].log_dir);
      const std::size_t n = o->verifier->segment_count();
      std::uint64_t bytes = 0;
      for (std::size_t i = 0; i < n; ++i)
        bytes += o->verifier->segment_bytes(i);
      o->left = n;
      split = jobs_ > 1 && n > 1 && bytes >= split_bytes_;
    } catch (...) {
      o->verifier.reset();
      fail(scan, std::current_exception());
    }
    Open* opened = o->verifier ? o.get() : nullptr;
    if (opened) {
      std::lock_guard<std::mutex> lock(mutex_);
      opens_.push_back(std::move(o));
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (split)
        for (std::size_t i = 1; i < opened->verifier->segment_count(); ++i)
          segments_.push_back({opened, i});
      --opening_;
    }
    ready_.notify_all();
    if (!opened) return done();
    const std::size_t n = opened->verifier->segment_count();
    if (n == 0) return merge(*opened);
    for (std::size_t i = 0; i < (split ? 1 : n); ++i)
      verify(*opened, i);
  }

  void verify(Open& o, std::size_t i) {
    o.verifier->verify_segment(i);  // keeps a segment's error for finish()
    if (o.left.fetch_sub(1) == 1) merge(o);
  }

  void merge(Open& o) {
    PartitionScan& scan = *o.scan;
    try {
      fill_from_verification(scan, o.verifier->finish());
    } catch (...) {
      fail(scan, std::current_exception());
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      opens_.erase(std::find_if(opens_.begin(), opens_.end(),
                                [&o](const std::unique_ptr<Open>& p) { return p.get() == &o; }));
    }
    done();
  }

  // An InputError makes the partition unreadable; anything else stops the scan once every
  // worker is done (as parallel_for does).
  void fail(PartitionScan& scan, const std::exception_ptr& error) {
    try {
      std::rethrow_exception(error);
    } catch (const InputError& e) {
      mark_unreadable(scan, e);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!first_error_) first_error_ = std::current_exception();
    }
  }

  void done() {
    std::lock_guard<std::mutex> lock(done_mutex_);
    ++done_;
    if (on_done_) on_done_(done_);
  }

  std::vector<Item> work_;
  unsigned jobs_;
  std::uint64_t split_bytes_;
  std::function<void(std::size_t)> on_done_;
  std::mutex mutex_;  // guards what follows
  std::condition_variable ready_;
  std::deque<Segment> segments_;
  std::size_t next_ = 0;     // the next partition to open
  std::size_t opening_ = 0;  // partitions being opened (they may queue segments)
  std::vector<std::unique_ptr<Open>> opens_;
  std::exception_ptr first_error_;
  std::mutex done_mutex_;  // serialises on_done
  std::size_t done_ = 0;
};

RootCheckpointSummary check_root_file(const fs::path& path) {
  RootCheckpointSummary out;
  out.file = path.filename().string();
  try {
    const CheckpointReport report = check_checkpoint_file(path, std::nullopt, CheckDepth::validate);
    out.kind = std::string(kind_name(report.type.kind));
    out.valid = report.valid;
    for (const auto& p : report.problems) {
      if (p.severity == Severity::info) continue;  // a note, no fault
      if (p.severity == Severity::error)
        ++out.errors;
      else
        ++out.warnings;
      if (out.first_problem.empty()) out.first_problem = p.message;
    }
    if (!report.valid && out.errors == 0) out.errors = 1;
  } catch (const InputError& e) {
    if (auto type = checkpoint_type_from_name(out.file)) out.kind = kind_name(type->kind);
    out.valid = false;
    out.errors = 1;
    out.first_problem = e.what();
  }
  return out;
}

// Lists the log dir (log_dir.hpp): partition dirs (scan slots, not yet verified), root
// checkpoint files (checked here: they are small), notes for what is skipped, problems for
// the entries Kafka refuses or follows.
void list_scan_dir(LogDirScan& scan) {
  const fs::path& dir = scan.dir;
  LogDirListing listing;
  try {
    listing = kepoch::list_log_dir(dir);
  } catch (const InputError& e) {
    scan.unreadable = e.what();
    return;
  }
  scan.partitions.reserve(listing.dirs.size());
  for (auto& e : listing.dirs) {
    switch (e.kind) {
      case LogDirEntryKind::remote_index_cache:
        scan.notes.push_back(e.name + ": " + kafka_reading(e));
        scan.remote_index_cache = e.path;
        continue;
      case LogDirEntryKind::refused_name:
        scan.problems.push_back({e.path.string(), "error", kafka_reading(e), "startup-fatal"});
        continue;
      case LogDirEntryKind::metadata_log:
        scan.notes.push_back(e.name + ": " + kafka_reading(e) + "; verified like the others");
        break;
      case LogDirEntryKind::replica:
        // A link to the log dir or above makes Kafka write a replica's files there: a
        // warning; a link elsewhere (a partition moved to another disk) a note.
        if (e.link_to_log_dir_or_above)
          scan.problems.push_back({e.path.string(), "warning", kafka_reading(e), "ok"});
        else if (e.link_target)
          scan.notes.push_back(e.name + ": " + kafka_reading(e));
        break;
    }
    PartitionScan p;
    p.dir = std::move(e.path);
    p.name = std::move(e.name);
    p.topic = std::move(e.partition->topic);
    p.partition = e.partition->partition;
    p.state = std::string(to_string(e.partition->state));
    p.metadata_log = e.kind == LogDirEntryKind::metadata_log;
    scan.partitions.push_back(std::move(p));
  }
  for (const auto& file : listing.checkpoint_files)
    scan.checkpoints.push_back(check_root_file(file));

  // Nothing of a log dir in it: not one, whatever else it holds (/proc's entries are not
  // partitions Kafka refuses, they are not Kafka's at all; a scan of them would be a verdict
  // on a directory that is no log dir).
  if (scan.partitions.empty() && scan.checkpoints.empty()) {
    scan.unreadable =
        InputError(
            dir.string(),
            scan.problems.empty()
                ? std::string("not a Kafka log dir: no partition dirs and no checkpoint files")
                : fmt::format("not a Kafka log dir: no partition dirs and no checkpoint "
                              "files, and {} entries whose names Kafka does not load "
                              "(first: {})",
                              scan.problems.size(), scan.problems.front().file))
            .what();
    scan.notes.clear();
    scan.problems.clear();
    scan.remote_index_cache.reset();
  }
}

// The topic id in a partition dir's partition.metadata, or nothing (missing, unreadable).
std::optional<Uuid> topic_id_of(const fs::path& partition_dir) {
  const fs::path file = partition_dir / kPartitionMetadataName;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  try {
    const auto m =
        read_partition_metadata(read_small_file(file, kMaxCheckpointBytes), file.string());
    if (m.failure) return std::nullopt;
    return m.topic_id;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

// The same partition in two log dirs of one broker (the same node.id in their
// meta.properties): LogManager.loadLog puts each loaded log in currentLogs (futureLogs for a
// -future dir) by topic partition, and a second one throws IllegalStateException, which
// fails loadLogs and so the broker's startup. -delete and -stray dirs are not put there, nor
// a log isStray finds (KRaft, LogManager.isStrayKraftReplica: no topic id, or a topic id
// the metadata does not assign here): so two copies with the same topic id stop the broker
// (while the partition is assigned to it), and copies with different or missing topic ids
// leave all but at most one stray. The problem goes to the later log dir, naming both.
void find_duplicate_partitions(std::vector<LogDirScan>& scans) {
  // The topic id is read only when a second copy turns up (a log dir alone, or log dirs of
  // different brokers, cost no read of partition.metadata per partition).
  struct Seen {
    std::size_t scan;
    const fs::path& dir;
    std::optional<std::optional<Uuid>> topic_id;  // read once asked
    const std::optional<Uuid>& id() {
      if (!topic_id) topic_id = topic_id_of(dir);
      return *topic_id;
    }
  };
  // Keyed by views of the scans' own strings (nothing is copied per partition).
  using Key = std::tuple<std::int32_t, std::string_view, std::int32_t, bool>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::size_t h = std::hash<std::string_view>{}(std::get<1>(k));
      for (const std::uint64_t v :
           {static_cast<std::uint64_t>(static_cast<std::uint32_t>(std::get<0>(k))),
            static_cast<std::uint64_t>(static_cast<std::uint32_t>(std::get<2>(k))),
            static_cast<std::uint64_t>(std::get<3>(k))})
        h = (h ^ v) * 0x100000001b3ull;
      return h;
    }
  };
  std::unordered_map<Key, Seen, KeyHash> seen;
  std::vector<std::optional<std::int32_t>> broker(scans.size());
  std::size_t partitions = 0;
  for (std::size_t i = 0; i < scans.size(); ++i) {
    if (!scans[i].unreadable) broker[i] = broker_id_of_replica_dir(scans[i].dir);
    if (broker[i]) partitions += scans[i].partitions.size();
  }
  seen.reserve(partitions);
  for (std::size_t i = 0; i < scans.size(); ++i) {
    if (!broker[i]) continue;
    // The same dir given twice is not a second copy.
    bool repeated = false;
    for (std::size_t j = 0; j < i && !repeated; ++j) {
      std::error_code ec;
      repeated = broker[j] && fs::equivalent(scans[i].dir, scans[j].dir, ec);
    }
    if (repeated) continue;
    for (const auto& p : scans[i].partitions) {
      if (p.metadata_log || (!p.state.empty() && p.state != "future")) continue;
      const bool future = p.state == "future";
      const Key key{*broker[i], p.topic, p.partition, future};
      const auto [it, inserted] = seen.try_emplace(key, Seen{i, p.dir, std::nullopt});
      if (inserted) continue;
      Seen& first = it->second;
      const auto id = topic_id_of(p.dir);
      const std::string a = fs::absolute(p.dir).lexically_normal().string();
      const std::string b = fs::absolute(first.dir).lexically_normal().string();
      const std::string tp = fmt::format("{}-{}", p.topic, p.partition);
      if (id && first.id() && *id == *first.id()) {
        const std::string kafka =
            future ? fmt::format("Duplicate log directories found: {}, {}", a, b)
                   : fmt::format("Duplicate log directories for {} are found in both {} and {}", tp,
                                 a, b);
        scans[i].problems.push_back(
            {p.dir.string(), "error",
             fmt::format("Kafka does not start while {} is assigned to broker {}: {} is also in "
                         "its log dir {} with the same topic id {}, and LogManager.loadLog throws "
                         "IllegalStateException ({}); delete one of the two copies",
                         tp, *broker[i], tp, first.dir.parent_path().string(), id->to_string(),
                         kafka),
             "startup-fatal"});
      } else {
        scans[i].problems.push_back(
            {p.dir.string(), "warning",
             fmt::format("{} is also in log dir {} of broker {}, with {}: Kafka loads the copy "
                         "whose topic id the metadata assigns to this broker and renames the "
                         "other -stray (LogManager.isStrayKraftReplica; a copy without "
                         "partition.metadata is always stray)",
                         tp, first.dir.parent_path().string(), *broker[i],
                         id && first.id() ? fmt::format("topic id {} there and {} here",
                                                        first.id()->to_string(), id->to_string())
                                          : std::string("a topic id missing on one side")),
             "ok"});
      }
    }
  }
}

}  // namespace

bool LogDirScan::checkpoints_valid() const {
  return std::all_of(checkpoints.begin(), checkpoints.end(),
                     [](const RootCheckpointSummary& c) { return c.valid; });
}

std::size_t LogDirScan::with_errors() const {
  return static_cast<std::size_t>(std::count_if(
      partitions.begin(), partitions.end(), [](const PartitionScan& p) { return p.errors > 0; }));
}

std::size_t LogDirScan::with_warnings() const {
  return static_cast<std::size_t>(std::count_if(
      partitions.begin(), partitions.end(), [](const PartitionScan& p) { return p.warnings > 0; }));
}

std::uint64_t LogDirScan::total_segments() const {
  std::uint64_t n = 0;
  for (const auto& p : partitions)
    n += p.segments;
  return n;
}

std::uint64_t LogDirScan::total_bytes() const {
  std::uint64_t n = 0;
  for (const auto& p : partitions)
    n += p.bytes;
  return n;
}

std::uint64_t LogDirScan::total_batches() const {
  std::uint64_t n = 0;
  for (const auto& p : partitions)
    n += p.batches;
  return n;
}

bool LogDirScan::has_errors() const {
  return with_errors() > 0 || !checkpoints_valid() ||
         std::any_of(problems.begin(), problems.end(),
                     [](const LogDirProblem& p) { return p.severity == "error"; });
}

std::vector<LogDirScan> scan_log_dirs(const std::vector<fs::path>& dirs,
                                      const LogDirScanOptions& options) {
  std::vector<LogDirScan> scans(dirs.size());
  std::vector<ScanPool::Item> work;
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    scans[i].dir = dirs[i];
    list_scan_dir(scans[i]);
  }
  find_duplicate_partitions(scans);
  // Each log dir's checkpoints and clean-shutdown marker, read once for its partitions.
  std::vector<std::unique_ptr<const LogDirCheckpoints>> log_dirs;
  for (auto& scan : scans) {
    if (scan.partitions.empty()) continue;
    log_dirs.push_back(std::make_unique<const LogDirCheckpoints>(
        LogDirCheckpoints::parent_of_partitions(scan.dir), scan.dir));
    const LogDirCheckpoints& files = *log_dirs.back();
    for (auto& p : scan.partitions)
      work.push_back({&p, &files, files.known_offsets(p.topic, p.partition)});
  }
  const unsigned jobs = options.jobs == 0 ? default_jobs() : options.jobs;
  const std::size_t total = work.size();
  if (options.progress) options.progress(0, total);
  ScanPool(std::move(work), jobs, options.split_bytes, [&options, total](std::size_t done) {
    if (options.progress) options.progress(done, total);
  }).run();
  return scans;
}

}  // namespace kepoch
