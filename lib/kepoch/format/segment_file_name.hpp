#pragma once
// Names inside a log dir, as Kafka reads them.
//
// Files in a partition dir (LogFileUtils.java, LogLoader.java, ProducerStateManager.java):
//
//   <20-digit base offset>.log | .index | .timeindex | .txnindex     segment files
//   <20-digit offset>.snapshot                                       producer-state snapshot
//   leader-epoch-checkpoint, partition.metadata (+ ".tmp" while being rewritten)
//   any of the segment/snapshot names + ".deleted" | ".cleaned" | ".swap"   leftovers
//
// The digits are LogFileUtils.filenamePrefixFromOffset (at least 20 digits, zero-padded, no
// grouping). LogFileUtils.offsetFromFileName reads it back as Long.parseLong of the text
// before the FIRST '.', so "+7.log" or "7.junk.log" also yield an offset. Kafka matches
// suffixes with String.endsWith. At load (LogLoader.removeTempFilesAndCollectSwapFiles,
// loadSegmentFiles) Kafka:
//   - deletes "*.deleted" files without reading their offset (except "*.checkpoint.deleted",
//     which belong to KRaft snapshots);
//   - reads the offset of every "*.cleaned" and "*.swap" file, then deletes the .cleaned ones;
//   - reads the offset of every "*.log", "*.index", "*.timeindex", "*.txnindex" and
//     "*.snapshot" file.
// Where Kafka reads an offset it cannot parse, Long.parseLong throws NumberFormatException,
// which nothing catches: loading the log fails.
//
// Partition dir names (LocalLog.parseTopicPartitionName):
//
//   <topic>-<partition>                                      the partition is after the LAST '-'
//   <topic>-<partition>.<uniqueId>-delete | -future | -stray
//
// A name ending in one of the three suffixes must match ^(\S+)-(\S+)\.(\S+)-<suffix>$; the
// topic-partition is then the text before the LAST '.'. The partition is
// Integer.parseInt (a leading '+' is accepted). uniqueId is a random UUID without dashes
// (32 lowercase hex) when Kafka made the name, but Kafka never checks that. A -delete or
// -stray name is capped at 255 characters by truncating the topic.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kepoch {

enum class SegmentFileKind {
  log,
  index,
  timeindex,
  txnindex,
  snapshot,
  leader_epoch_checkpoint,
  partition_metadata,
  other,
};

enum class LeftoverState { none, deleted, cleaned, swap };

std::string_view to_string(SegmentFileKind kind);  // "log", "index", ..., "leader-epoch-checkpoint"
std::string_view to_string(LeftoverState state);   // "", "deleted", "cleaned", "swap"

struct SegmentFileName {
  SegmentFileKind kind = SegmentFileKind::other;
  LeftoverState state = LeftoverState::none;
  bool tmp = false;  // a checkpoint being rewritten: "<name>.tmp" (kind is the target's)
  // LogFileUtils.offsetFromFileName: Long.parseLong of the text before the first '.';
  // nullopt when that throws (or there is no '.').
  std::optional<std::int64_t> offset;
  // The name is exactly what Kafka writes for a segment file or snapshot: 20 ASCII digits,
  // the kind's suffix, and the leftover suffix if any.
  bool canonical = false;
  // Kafka's loader calls offsetFromFileName on this name (see above).
  bool offset_read_by_kafka = false;
  // Set when Kafka reads the offset and Long.parseLong throws: Java's message.
  std::optional<std::string> kafka_failure;
};

SegmentFileName parse_segment_file_name(std::string_view name);

enum class PartitionDirState { normal, deleted, future, stray };
std::string_view to_string(PartitionDirState state);  // "", "delete", "future", "stray"

struct PartitionDirName {
  std::string topic;
  std::int32_t partition = 0;
  PartitionDirState state = PartitionDirState::normal;
  std::string unique_id;           // text between the last '.' and the suffix; "" if normal
  bool unique_id_is_uuid = false;  // 32 lowercase hex digits, as Kafka generates it
};

struct PartitionDirParse {
  std::optional<PartitionDirName> name;      // set when Kafka accepts the name
  std::optional<std::string> kafka_failure;  // KafkaException text otherwise
};

// `path` stands in for the canonical path Kafka prints in its message (defaults to name).
PartitionDirParse parse_partition_dir_name(std::string_view name, std::string_view path = {});

}  // namespace kepoch
