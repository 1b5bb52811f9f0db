#pragma once
// Which of Kafka's small text files a file is: from its name (how Kafka finds them), else
// from its content (for renamed copies), else --kind.

#include <optional>
#include <string>
#include <string_view>

namespace kepoch {

enum class CheckpointKind { leader_epoch, offsets, partition_metadata, meta_properties };

// Which offsets checkpoint: Kafka treats a bad file differently for each.
enum class OffsetsRole {
  unknown,
  recovery_point,
  log_start_offset,
  high_watermark,
  cleaner_offset
};

struct CheckpointType {
  CheckpointKind kind = CheckpointKind::leader_epoch;
  OffsetsRole role = OffsetsRole::unknown;
  bool tmp = false;  // a "<name>.tmp" left by an interrupted write; Kafka never reads it
};

// The file name Kafka uses for a type ("" for offsets of unknown role).
std::string_view kafka_file_name(const CheckpointType& type);
std::string_view kind_name(CheckpointKind kind);  // "leader-epoch", "offsets", ...
std::string_view role_name(OffsetsRole role);     // "recovery-point", "high-watermark", ...

std::optional<CheckpointType> checkpoint_type_from_name(std::string_view file_name);
// Best guess from content; nullopt when the content fits no kind or fits several.
std::optional<CheckpointType> checkpoint_type_from_content(std::string_view text);
// Values of --kind: leader-epoch, offsets, recovery-point, log-start-offset,
// replication-offset, cleaner-offset, partition-metadata, meta-properties.
std::optional<CheckpointType> checkpoint_type_from_flag(std::string_view value);
std::string kind_flag_values();

}  // namespace kepoch
