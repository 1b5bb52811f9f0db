#pragma once
// Judging a checkpoint as Kafka would when loading it, then linting it more strictly.
// Pure: the caller supplies the bytes and what it knows about the file's surroundings.
//
// Validity follows Kafka exactly: `valid` is false when Kafka would reject the file or
// throw its content away. Lint findings are warnings and never change `valid`.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/java_properties.hpp"
#include "kepoch/base/uuid.hpp"
#include "kepoch/epoch/epoch_entry.hpp"
#include "kepoch/format/checkpoint_kind.hpp"
#include "kepoch/format/java_failure.hpp"
#include "kepoch/format/offset_checkpoint.hpp"

namespace kepoch {

// info: a note that is no fault (kept out of --strict's warnings)
enum class Severity { error, warning, info };

struct Problem {
  Severity severity = Severity::error;
  int line = 0;  // 1-based; 0 when the problem is about the whole file
  std::string message;
  std::string kafka_exception;  // for errors: the Java exception Kafka raises
  std::string kafka_message;    // for errors: Kafka's own message
};

// What Kafka does with the file on load (shared/spec kafka-formats 2.7, and the Kafka
// reader named in each case's `kafka_action`).
enum class KafkaOutcome {
  ok,               // loaded as written (possibly normalised: see loaded_entries)
  not_read,         // a .tmp leftover: Kafka never reads it and overwrites it on the next write
  discarded,        // read error caught; Kafka continues as if the file were empty
  cleaner_stopped,  // the log cleaner thread dies on it; compaction stops on this broker
  metadata_fault,   // ReplicaManager.applyDelta fails: partitions of that delta are not started
  dir_offline,      // the log dir is marked offline: all its partitions go offline here
  startup_fatal,    // the broker fails to start
};
std::string_view outcome_name(KafkaOutcome outcome);  // "ok", "dir-offline", ...

// What kepoch knows about where the file lives.
struct CheckpointContext {
  bool tmp_sibling = false;       // "<file>.tmp" exists beside the file
  bool metadata_log_dir = false;  // the dir holding meta.properties also holds __cluster_metadata-0
  // (a KRaft node's log dir: a ZooKeeper-mode broker keeps its metadata in ZooKeeper)
};

enum class CheckDepth { dump, validate };  // validate adds lint warnings

struct CheckpointReport {
  std::string file;
  CheckpointType type;
  std::optional<std::int32_t> version;
  std::optional<std::int32_t> count;
  std::vector<EpochEntry> epoch_entries;      // leader-epoch, as in the file
  int first_entry_line = 3;                   // entry i is on line first_entry_line + i
  std::vector<TopicPartitionOffset> offsets;  // offsets kinds, as in the file
  std::optional<Uuid> topic_id;               // partition-metadata
  std::vector<java::Property> properties;     // meta-properties, as in the file
  std::optional<std::int32_t> node_id;        // meta-properties
  std::optional<std::string> cluster_id;      // meta-properties
  std::optional<Uuid> directory_id;           // meta-properties

  bool valid = true;
  KafkaOutcome outcome = KafkaOutcome::ok;
  std::string kafka_action;                               // one sentence: what Kafka does with it
  std::optional<std::vector<EpochEntry>> loaded_entries;  // leader-epoch: the cache Kafka holds
  std::vector<Problem> problems;

  bool has_warnings() const;
  int entry_line(std::size_t i) const { return first_entry_line + static_cast<int>(i); }
};

// A file of millions of lines can break a lint rule on every one: each rule lists its first
// kMaxWarningsPerRule warnings and counts the rest in one more.
inline constexpr int kMaxWarningsPerRule = 100;

CheckpointReport check_checkpoint(std::string_view text, std::string_view path,
                                  const CheckpointType& type, const CheckpointContext& context,
                                  CheckDepth depth);

// Lint across files: partition.metadata of one partition (same directory name, e.g. the
// replicas under broker-1/t-0 and broker-2/t-0) must name one topic id.
void lint_topic_ids_across_replicas(std::vector<CheckpointReport>& reports);

// Lint of a leader-epoch-checkpoint against its partition's log end offset: entries that
// start beyond it are stale (epoch-cache truncations are flushed asynchronously); Kafka
// drops them when it loads the log (truncateFromEnd(LEO)). An entry exactly at the log end
// is the normal data-less entry of a newly elected leader and is not flagged.
void lint_epochs_against_log_end(CheckpointReport& report, std::int64_t log_end_offset);

}  // namespace kepoch
