#include "kepoch/format/checkpoint_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "kepoch/base/java_text.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/epoch/leader_epoch_cache.hpp"
#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/format/meta_properties.hpp"
#include "kepoch/format/partition_metadata.hpp"

namespace kepoch {
namespace {

// Kafka's effect for a failure class, per file. Sources (Kafka 4.x):
// - leader-epoch-checkpoint: read in the LeaderEpochFileCache constructor during
//   LogManager.loadLogs; IOException -> LogDirFailureChannel; anything unchecked is rethrown
//   from the recovery thread and fails startup.
// - recovery-point / log-start-offset: LogManager.loadLogs catches Exception and continues
//   with an empty map, but an IOException was already reported to the failure channel.
// - replication-offset (high watermarks): LazyOffsetCheckpoints, read when a partition is
//   created; unchecked exceptions fail ReplicaManager.applyDelta (a metadata publishing fault).
// - cleaner-offset: LogCleanerManager.allCleanerCheckpoints catches KafkaStorageException
//   only; anything else escapes the cleaner thread, which dies.
// - partition.metadata: UnifiedLog.initializeTopicId during log load, as leader-epoch.
// - meta.properties: MetaPropertiesEnsemble.Loader puts the dir in errorLogDirs; verify()
//   makes that fatal for the metadata log dir.
KafkaOutcome outcome_for(const CheckpointType& type, JavaFailureClass failure,
                         const CheckpointContext& context) {
  const bool io = failure == JavaFailureClass::io_exception;
  switch (type.kind) {
    case CheckpointKind::leader_epoch:
    case CheckpointKind::partition_metadata:
      return io ? KafkaOutcome::dir_offline : KafkaOutcome::startup_fatal;
    case CheckpointKind::meta_properties:
      return context.metadata_log_dir ? KafkaOutcome::startup_fatal : KafkaOutcome::dir_offline;
    case CheckpointKind::offsets:
      if (io) return KafkaOutcome::dir_offline;
      switch (type.role) {
        case OffsetsRole::recovery_point:
        case OffsetsRole::log_start_offset:
          return KafkaOutcome::discarded;
        case OffsetsRole::high_watermark:
          return KafkaOutcome::metadata_fault;
        case OffsetsRole::cleaner_offset:
          return KafkaOutcome::cleaner_stopped;
        case OffsetsRole::unknown:
          return KafkaOutcome::discarded;
      }
  }
  return KafkaOutcome::dir_offline;
}

std::string action_for(const CheckpointType& type, KafkaOutcome outcome) {
  switch (outcome) {
    case KafkaOutcome::ok:
      return "Kafka loads it";
    case KafkaOutcome::not_read:
      return "Kafka never reads a .tmp file; the next checkpoint write replaces it";
    case KafkaOutcome::discarded:
      if (type.role == OffsetsRole::recovery_point)
        return "Kafka logs a warning and resets every recovery point in this log dir to 0 "
               "(full recovery of every partition)";
      if (type.role == OffsetsRole::log_start_offset)
        return "Kafka logs a warning and takes each log start offset from the first segment";
      return "Kafka ignores the content (which checkpoint this is decides the rest; name it "
             "with --kind)";
    case KafkaOutcome::cleaner_stopped:
      return "the log cleaner thread dies on it: compaction stops on this broker";
    case KafkaOutcome::metadata_fault:
      return "ReplicaManager.applyDelta fails when partitions of this dir are created: they "
             "are not started (logged as a metadata publishing fault)";
    case KafkaOutcome::dir_offline:
      return "Kafka marks this log dir offline: every partition in it goes offline on this "
             "broker";
    case KafkaOutcome::startup_fatal:
      return "the broker fails to start";
  }
  return "";
}

Problem error_from(const JavaFailure& f) {
  return {Severity::error, f.line, f.explanation, f.exception, f.kafka_message};
}

void warn(CheckpointReport& r, int line, std::string message) {
  r.problems.push_back({Severity::warning, line, std::move(message), "", ""});
}

// One lint rule's warnings: the first kMaxWarningsPerRule listed, the rest counted.
class RuleWarnings {
 public:
  RuleWarnings(CheckpointReport& r, std::string_view rule) : r_(r), rule_(rule) {}
  RuleWarnings(const RuleWarnings&) = delete;
  // The count of the warnings not listed (not a destructor: it allocates, and may throw).
  void finish() {
    if (more_ > 0) {
      warn(r_, 0,
           fmt::format("{} more line{} where {} (not listed; the first {} are)", more_,
                       more_ == 1 ? "" : "s", rule_, kMaxWarningsPerRule));
    }
  }
  // `message` is only called for a listed warning.
  template <typename Message>
  void add(int line, Message message) {
    if (shown_ < kMaxWarningsPerRule) {
      ++shown_;
      warn(r_, line, message());
    } else {
      ++more_;
    }
  }

 private:
  CheckpointReport& r_;
  std::string_view rule_;
  int shown_ = 0;
  std::int64_t more_ = 0;
};

void note(CheckpointReport& r, int line, std::string message) {
  r.problems.push_back({Severity::info, line, std::move(message), "", ""});
}

void apply_failure(CheckpointReport& r, const std::optional<JavaFailure>& failure,
                   const CheckpointContext& context) {
  if (!failure) return;
  r.valid = false;
  r.outcome = outcome_for(r.type, failure->failure_class, context);
  r.problems.push_back(error_from(*failure));
}

// What CheckpointFile's reader gives for every versioned kind: the header, where the entries
// start and how Kafka's read failed, if it did. Returns the entries.
template <typename Entry>
std::vector<Entry> take_content(CheckpointReport& r, CheckpointContent<Entry> c,
                                const CheckpointContext& context) {
  r.version = c.version;
  r.count = c.count;
  r.first_entry_line = c.first_entry_line;
  apply_failure(r, c.failure, context);
  return std::move(c.entries);
}

// ---- lint shared by the text checkpoints -------------------------------------------------

void lint_lines(CheckpointReport& r, std::string_view text, bool wants_final_newline) {
  bool crlf_reported = false;
  std::optional<java::Line> last;
  RuleWarnings trailing(r, "a line ends with white space");
  java::LineReader reader(text);
  while (auto l = reader.next()) {
    if (!crlf_reported && (l->terminator == "\r\n" || l->terminator == "\r")) {
      warn(r, l->number,
           "line ends with a carriage return (CRLF or CR); Kafka on Linux writes \\n");
      crlf_reported = true;
    }
    if (!l->text.empty() && (l->text.back() == ' ' || l->text.back() == '\t'))
      trailing.add(l->number, [] { return std::string("trailing white space"); });
    last = l;
  }
  trailing.finish();
  if (wants_final_newline && last && last->terminator.empty()) {
    warn(r, last->number,
         "the last line has no newline: Kafka ends every line with one, so the file may be cut "
         "short");
  }
}

void lint_header(CheckpointReport& r, std::string_view text) {
  java::LineReader reader(text);
  for (int i = 0; i < 2; ++i) {
    const auto line = reader.next();
    if (!line) break;
    const auto t = line->text;
    if (!t.empty() && (t[0] == '+' || (t.size() > 1 && t[0] == '0'))) {
      warn(r, line->number,
           fmt::format("\"{}\": Kafka accepts it but never writes it", excerpt(t)));
    }
  }
}

// The versioned checkpoints' text: the header's version and count lines, and every line.
void lint_header_and_lines(CheckpointReport& r, std::string_view text) {
  lint_header(r, text);
  lint_lines(r, text, true);
}

// ---- leader-epoch-checkpoint --------------------------------------------------------------

void lint_epochs(CheckpointReport& r) {
  RuleWarnings epochs(r, "the epoch is not greater than the previous one");
  RuleWarnings offsets(r, "the start offset is not greater than the previous one");
  for (std::size_t i = 1; i < r.epoch_entries.size(); ++i) {
    const auto prev = r.epoch_entries[i - 1];
    const auto cur = r.epoch_entries[i];
    const int line = r.entry_line(i);
    if (cur.epoch <= prev.epoch) {
      epochs.add(line, [&] {
        return fmt::format(
            "epoch {} is not greater than the previous epoch {}: Kafka drops "
            "conflicting entries when it loads the file",
            cur.epoch, prev.epoch);
      });
    }
    if (cur.start_offset <= prev.start_offset) {
      offsets.add(line, [&] {
        return fmt::format(
            "start offset {} is not greater than the previous start offset "
            "{}: Kafka drops conflicting entries when it loads the file",
            cur.start_offset, prev.start_offset);
      });
    }
  }
  epochs.finish();
  offsets.finish();
}

void check_leader_epoch(CheckpointReport& r, std::string_view text, std::string_view path,
                        const CheckpointContext& context, CheckDepth depth) {
  r.epoch_entries = take_content(r, read_leader_epoch_checkpoint(text, path), context);
  if (r.valid) {
    // The cache constructor assigns each entry in file order (LeaderEpochFileCache), held as
    // a vector in epoch order (assign_in_order) rather than a map: millions of entries fit.
    std::vector<EpochEntry> loaded;
    loaded.reserve(r.epoch_entries.size());
    for (std::size_t i = 0; i < r.epoch_entries.size() && r.valid; ++i) {
      try {
        assign_in_order(loaded, r.epoch_entries[i]);
      } catch (const InvalidEpochEntry& e) {
        apply_failure(r,
                      JavaFailure{JavaFailureClass::unchecked, r.entry_line(i),
                                  "java.lang.IllegalArgumentException", e.what(),
                                  "epoch and start offset must not be negative"},
                      context);
      }
    }
    if (r.valid) {
      loaded.shrink_to_fit();
      r.loaded_entries = std::move(loaded);
    }
  }
  if (depth == CheckDepth::validate) {
    lint_header_and_lines(r, text);
    lint_epochs(r);
  }
}

// ---- offsets checkpoints -----------------------------------------------------------------

bool legal_topic_name(std::string_view t) {
  if (t.empty() || t.size() > 249 || t == "." || t == "..") return false;
  for (char ch : t) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
    if (!ok) return false;
  }
  return true;
}

// Kafka reads into a map, the last duplicate wins. The earlier line of each duplicate comes
// from the entries' indices sorted by a hash of (topic, partition), 16 bytes an entry rather
// than a map node, for files of millions of entries; a run of equal hashes holding more than
// one key (a collision) is sorted again by the key itself, so no input is quadratic.
void lint_offsets(CheckpointReport& r) {
  const std::size_t n = r.offsets.size();
  const auto same_key = [&](std::uint32_t a, std::uint32_t b) {
    return r.offsets[a].partition == r.offsets[b].partition &&
           r.offsets[a].topic == r.offsets[b].topic;
  };
  std::vector<std::pair<std::uint64_t, std::uint32_t>> hashed(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& e = r.offsets[i];
    const std::uint64_t h = std::hash<std::string_view>{}(e.topic) ^
                            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.partition)) *
                             0x9e3779b97f4a7c15ull);
    hashed[i] = {h, static_cast<std::uint32_t>(i)};
  }
  std::sort(hashed.begin(), hashed.end());             // by hash, then by line
  std::vector<std::uint32_t> previous(n, UINT32_MAX);  // the same key's entry before this one
  std::vector<std::uint32_t> run;
  for (std::size_t a = 0; a < n;) {
    std::size_t b = a + 1;
    bool one_key = true;
    for (; b < n && hashed[b].first == hashed[a].first; ++b)
      one_key = one_key && same_key(hashed[a].second, hashed[b].second);
    if (one_key) {
      for (std::size_t k = a + 1; k < b; ++k)
        previous[hashed[k].second] = hashed[k - 1].second;
    } else {
      run.clear();
      for (std::size_t k = a; k < b; ++k)
        run.push_back(hashed[k].second);
      std::stable_sort(run.begin(), run.end(), [&](std::uint32_t x, std::uint32_t y) {
        const auto& p = r.offsets[x];
        const auto& q = r.offsets[y];
        return p.topic != q.topic ? p.topic < q.topic : p.partition < q.partition;
      });
      for (std::size_t k = 1; k < run.size(); ++k)
        if (same_key(run[k - 1], run[k])) previous[run[k]] = run[k - 1];
    }
    a = b;
  }
  hashed = {};
  RuleWarnings names(r, "the topic name is not legal");
  RuleWarnings partitions(r, "the partition is negative");
  RuleWarnings offsets(r, "the offset is negative");
  RuleWarnings duplicates(r, "the partition already appears on an earlier line");
  for (std::size_t i = 0; i < n; ++i) {
    const auto& e = r.offsets[i];
    const int line = r.entry_line(i);
    if (!legal_topic_name(e.topic)) {
      names.add(line,
                [&] { return fmt::format("\"{}\" is not a legal topic name", excerpt(e.topic)); });
    }
    if (e.partition < 0)
      partitions.add(line, [&] { return fmt::format("partition {} is negative", e.partition); });
    if (e.offset < 0)
      offsets.add(line, [&] { return fmt::format("offset {} is negative", e.offset); });
    if (previous[i] != UINT32_MAX) {
      duplicates.add(line, [&] {
        return fmt::format("{}-{} already appears on line {}: Kafka keeps this later value",
                           excerpt(e.topic), e.partition, r.entry_line(previous[i]));
      });
    }
  }
  names.finish();
  partitions.finish();
  offsets.finish();
  duplicates.finish();
}

void check_offsets(CheckpointReport& r, std::string_view text, std::string_view path,
                   const CheckpointContext& context, CheckDepth depth) {
  r.offsets = take_content(r, read_offset_checkpoint(text, path), context);
  if (depth == CheckDepth::validate) {
    lint_header_and_lines(r, text);
    lint_offsets(r);
  }
}

// ---- partition.metadata and meta.properties ----------------------------------------------

void check_partition_metadata(CheckpointReport& r, std::string_view text, std::string_view path,
                              const CheckpointContext& context, CheckDepth depth) {
  const PartitionMetadata m = read_partition_metadata(text, path);
  r.version = m.version;
  r.topic_id = m.topic_id;
  apply_failure(r, m.failure, context);
  if (depth != CheckDepth::validate) return;
  lint_lines(r, text, false);
  const std::string_view keys[] = {"version", "topic_id"};
  for (std::size_t i = 0; i < 2 && i < m.lines.size(); ++i) {
    const auto parts = java::split_colon_whitespace(m.lines[i].text);
    if (parts.size() == 2 && parts[0] != keys[i]) {
      warn(r, m.lines[i].number,
           fmt::format("key \"{}\": Kafka writes \"{}\" (it does not check "
                       "the key)",
                       parts[0], keys[i]));
    }
  }
  if (m.version && *m.version > 0) {
    warn(r, 1,
         fmt::format("version {} is newer than this Kafka's 0; accepted for downgrades",
                     *m.version));
  }
  if (m.lines.size() > 2) warn(r, m.lines[2].number, "lines after topic_id are ignored by Kafka");
}

void check_meta_properties(CheckpointReport& r, std::string_view text,
                           const CheckpointContext& context, CheckDepth depth) {
  const MetaProperties m = read_meta_properties(text);
  r.version = m.version;
  r.properties = m.properties.properties;
  r.node_id = m.node_id;
  r.cluster_id = m.cluster_id;
  r.directory_id = m.directory_id;
  apply_failure(r, m.failure, context);
  if (m.verify_failure) {
    r.valid = false;
    r.outcome = KafkaOutcome::startup_fatal;
    r.problems.push_back(error_from(*m.verify_failure));
  }
  if (depth != CheckDepth::validate) return;
  const std::string_view known[] = {"version", "node.id", "broker.id", "cluster.id",
                                    "directory.id"};
  std::map<std::string, int> seen;
  for (const auto& p : m.properties.properties) {
    if (std::find(std::begin(known), std::end(known), std::string_view(p.key)) == std::end(known)) {
      warn(r, p.line, fmt::format("unknown key \"{}\"", excerpt(p.key)));
    }
    if (auto [it, inserted] = seen.emplace(p.key, p.line); !inserted) {
      warn(r, p.line,
           fmt::format("\"{}\" already set on line {}: Kafka keeps this later value", p.key,
                       it->second));
    }
  }
  // Version 0 (broker.id) is what a ZooKeeper-mode broker writes (MetaProperties,
  // MetaPropertiesVersion.V0), and KRaft nodes write version 1: on a ZooKeeper-mode broker it
  // is the expected format, said as a note. A log dir that also holds the KRaft metadata log
  // says KRaft, and then version 0 is a mismatch worth a warning.
  // Without broker.id it is no ZooKeeper-mode broker's file either: the old warning.
  if (m.version && *m.version == 0 && !m.failure) {
    const bool broker_id = seen.count("broker.id") > 0;
    if (context.metadata_log_dir)
      warn(r, 0,
           "version 0 is the ZooKeeper-mode format (broker.id), but this log dir holds a "
           "__cluster_metadata-0 directory (KRaft), whose nodes write version 1");
    else if (broker_id)
      note(r, 0,
           "version 0 with broker.id: the format a ZooKeeper-mode broker writes (a KRaft node "
           "writes version 1)");
    else
      warn(r, 0, "version 0 is the ZooKeeper-era format; KRaft brokers write version 1");
  }
}

}  // namespace

std::string_view outcome_name(KafkaOutcome outcome) {
  switch (outcome) {
    case KafkaOutcome::ok:
      return "ok";
    case KafkaOutcome::not_read:
      return "not-read";
    case KafkaOutcome::discarded:
      return "discarded";
    case KafkaOutcome::cleaner_stopped:
      return "cleaner-stopped";
    case KafkaOutcome::metadata_fault:
      return "metadata-fault";
    case KafkaOutcome::dir_offline:
      return "dir-offline";
    case KafkaOutcome::startup_fatal:
      return "startup-fatal";
  }
  return "unknown";
}

bool CheckpointReport::has_warnings() const {
  for (const auto& p : problems)
    if (p.severity == Severity::warning) return true;
  return false;
}

CheckpointReport check_checkpoint(std::string_view text, std::string_view path,
                                  const CheckpointType& type, const CheckpointContext& context,
                                  CheckDepth depth) {
  CheckpointReport r;
  r.file = std::string(path);
  r.type = type;
  switch (type.kind) {
    case CheckpointKind::leader_epoch:
      check_leader_epoch(r, text, path, context, depth);
      break;
    case CheckpointKind::offsets:
      check_offsets(r, text, path, context, depth);
      break;
    case CheckpointKind::partition_metadata:
      check_partition_metadata(r, text, path, context, depth);
      break;
    case CheckpointKind::meta_properties:
      check_meta_properties(r, text, context, depth);
      break;
  }
  if (type.tmp) {
    r.outcome = KafkaOutcome::not_read;
    if (depth == CheckDepth::validate) {
      warn(r, 0, "leftover of an interrupted checkpoint write; Kafka ignores it");
    }
  } else if (context.tmp_sibling && depth == CheckDepth::validate) {
    warn(r, 0,
         fmt::format("a stale {}.tmp lies beside this file: a checkpoint write was "
                     "interrupted (Kafka overwrites it on its next write)",
                     std::filesystem::path(path).filename().string()));
  }
  r.kafka_action = action_for(type, r.outcome);
  return r;
}

void lint_topic_ids_across_replicas(std::vector<CheckpointReport>& reports) {
  // Group by partition directory name (the replicas of one partition share it).
  std::map<std::string, std::vector<CheckpointReport*>> by_partition;
  for (auto& r : reports) {
    if (r.type.kind != CheckpointKind::partition_metadata || r.type.tmp || !r.topic_id) continue;
    by_partition[std::filesystem::path(r.file).parent_path().filename().string()].push_back(&r);
  }
  for (auto& [partition, replicas] : by_partition) {
    for (auto* r : replicas) {
      for (auto* other : replicas) {
        if (*other->topic_id == *r->topic_id) continue;
        warn(*r, 2,
             fmt::format("topic id {} differs from {} in {}: the replicas of {} belong to "
                         "different topics (deleted and re-created?)",
                         r->topic_id->to_string(), other->topic_id->to_string(), other->file,
                         partition));
        break;
      }
    }
  }
}

void lint_epochs_against_log_end(CheckpointReport& report, std::int64_t log_end_offset) {
  if (report.type.kind != CheckpointKind::leader_epoch) return;
  RuleWarnings stale(report, "the entry starts beyond the log end offset");
  for (std::size_t i = 0; i < report.epoch_entries.size(); ++i) {
    const auto e = report.epoch_entries[i];
    if (e.start_offset <= log_end_offset) continue;
    stale.add(report.entry_line(i), [&] {
      return fmt::format(
          "epoch {} starts at {}, beyond the log end offset {}: a stale entry; Kafka "
          "drops it when it loads the log",
          e.epoch, e.start_offset, log_end_offset);
    });
  }
  stale.finish();
}

}  // namespace kepoch
