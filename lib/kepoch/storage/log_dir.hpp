#pragma once
// A broker log dir and what LogManager makes of each directory in it: the one definition
// every walk of storage/ uses (logdir scan, logdir snapshot, the replica sources of diff,
// predict and restart, checkpoint validate, the metadata log), so the commands cannot
// disagree on which directories are partition replicas.
//
// LogManager.loadLogs lists the log dir and keeps each entry that
//   - File.isDirectory accepts (a symbolic link to a directory is followed; a file or a
//     dangling link is not a directory and is ignored),
//   - is not remote-log-index-cache (RemoteIndexCache.DIR_NAME, tiered storage's index cache),
//   - and whose UnifiedLog.parseTopicPartitionName topic is not __cluster_metadata
//     (KafkaRaftServer.MetadataTopic: the Raft layer loads that log, not LogManager).
// parseTopicPartitionName runs in that filter for every other directory, and its
// KafkaException ("Found directory ..., 'lost+found' is not in the form of topic-partition
// or topic-partition.uniqueId-delete ...") is not the IOException loadLogs catches to take a
// log dir offline: it leaves LogManager.startup, BrokerMetadataPublisher.initializeManagers
// reports "Error starting LogManager" to its fatal fault handler, and the broker process
// stops (tests/oracle/logdir-names-vs-kafka.sh starts a broker on each). Every kept
// directory is loaded as a replica (loadLog): -delete dirs to be deleted, -stray dirs as
// stray, -future dirs as future replicas.
// Read-only: directories are listed, never created or changed.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/format/segment_file_name.hpp"

namespace kepoch {

inline constexpr std::string_view kMetadataTopic = "__cluster_metadata";
inline constexpr std::string_view kMetadataLogDirName = "__cluster_metadata-0";
inline constexpr std::string_view kRemoteIndexCacheDirName = "remote-log-index-cache";

enum class LogDirEntryKind {
  replica,             // loaded by LogManager.loadLog (partition->state says which kind)
  metadata_log,        // topic __cluster_metadata: skipped by LogManager, the Raft layer's
  remote_index_cache,  // skipped by LogManager
  refused_name,        // parseTopicPartitionName throws: the broker does not start
};

struct LogDirEntry {
  std::filesystem::path path;  // <log dir>/<name>
  std::string name;
  LogDirEntryKind kind = LogDirEntryKind::replica;
  std::optional<PartitionDirName> partition;  // replica and metadata_log
  std::optional<std::string> kafka_failure;   // refused_name: the KafkaException's message
  // A symbolic link (which File.isDirectory follows): its target as written.
  std::optional<std::filesystem::path> link_target;
  // The link resolves to the log dir itself or a directory above it ("." or ".."): Kafka
  // loads that directory's files as the partition's.
  bool link_to_log_dir_or_above = false;
};

struct LogDirListing {
  std::filesystem::path dir;
  std::vector<LogDirEntry> dirs;                        // every directory entry, in name order
  std::vector<std::filesystem::path> checkpoint_files;  // root checkpoint files, name order

  std::vector<const LogDirEntry*> of_kind(LogDirEntryKind kind) const;
};

// Lists `dir` as LogManager.loadLogs does (see the header). InputError when it is missing,
// not a directory, cannot be listed, or is a partition dir (partition_dir.hpp's
// holds_partition_files without holds_log_dir_files), naming the command that reads it.
LogDirListing list_log_dir(const std::filesystem::path& dir);

// What only a broker log dir holds at its root: meta.properties or one of the offset
// checkpoints LogManager writes (replication-offset-checkpoint,
// recovery-point-offset-checkpoint, log-start-offset-checkpoint).
bool holds_log_dir_files(const std::filesystem::path& dir);
// The same, from a listing of the dir already made (no system call for a plain file).
bool holds_log_dir_files(const struct PartitionDirListing& listing);

// The directory of a KRaft metadata log an argument means: `target` itself when it is
// named __cluster_metadata-0 or holds no such directory, else target/__cluster_metadata-0.
std::filesystem::path metadata_log_dir_of(const std::filesystem::path& target);

// One sentence on what Kafka does with a log dir entry that is not a plain replica dir
// ("" for a plain one): the refusal that stops the broker, a skipped dir, a followed link.
std::string kafka_reading(const LogDirEntry& entry);

}  // namespace kepoch
