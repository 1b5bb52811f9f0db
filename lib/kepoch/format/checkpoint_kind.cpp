#include "kepoch/format/checkpoint_kind.hpp"

#include <array>

#include "kepoch/base/java_text.hpp"

namespace kepoch {
namespace {

struct Named {
  std::string_view name;  // Kafka's file name
  std::string_view flag;  // --kind value
  CheckpointType type;
};

constexpr std::array kNamed = {
    Named{"leader-epoch-checkpoint", "leader-epoch", {CheckpointKind::leader_epoch}},
    Named{"recovery-point-offset-checkpoint",
          "recovery-point",
          {CheckpointKind::offsets, OffsetsRole::recovery_point}},
    Named{"log-start-offset-checkpoint",
          "log-start-offset",
          {CheckpointKind::offsets, OffsetsRole::log_start_offset}},
    Named{"replication-offset-checkpoint",
          "replication-offset",
          {CheckpointKind::offsets, OffsetsRole::high_watermark}},
    Named{"cleaner-offset-checkpoint",
          "cleaner-offset",
          {CheckpointKind::offsets, OffsetsRole::cleaner_offset}},
    Named{"partition.metadata", "partition-metadata", {CheckpointKind::partition_metadata}},
    Named{"meta.properties", "meta-properties", {CheckpointKind::meta_properties}},
};

constexpr std::string_view kTmpSuffix = ".tmp";

bool is_checkpoint_header(const std::optional<java::Line>& first,
                          const std::optional<java::Line>& second) {
  return first && second && java::parse_int(first->text) && java::parse_int(second->text);
}

}  // namespace

std::string_view kafka_file_name(const CheckpointType& type) {
  for (const auto& n : kNamed)
    if (n.type.kind == type.kind && n.type.role == type.role) return n.name;
  return "";
}

std::string_view kind_name(CheckpointKind kind) {
  switch (kind) {
    case CheckpointKind::leader_epoch:
      return "leader-epoch";
    case CheckpointKind::offsets:
      return "offsets";
    case CheckpointKind::partition_metadata:
      return "partition-metadata";
    case CheckpointKind::meta_properties:
      return "meta-properties";
  }
  return "unknown";
}

std::string_view role_name(OffsetsRole role) {
  switch (role) {
    case OffsetsRole::unknown:
      return "unknown";
    case OffsetsRole::recovery_point:
      return "recovery-point";
    case OffsetsRole::log_start_offset:
      return "log-start-offset";
    case OffsetsRole::high_watermark:
      return "high-watermark";
    case OffsetsRole::cleaner_offset:
      return "cleaner-offset";
  }
  return "unknown";
}

std::optional<CheckpointType> checkpoint_type_from_name(std::string_view file_name) {
  bool tmp = false;
  if (file_name.ends_with(kTmpSuffix)) {
    tmp = true;
    file_name.remove_suffix(kTmpSuffix.size());
  }
  for (const auto& n : kNamed) {
    if (n.name == file_name) {
      CheckpointType t = n.type;
      t.tmp = tmp;
      return t;
    }
  }
  return std::nullopt;
}

std::optional<CheckpointType> checkpoint_type_from_content(std::string_view text) {
  if (text.empty() || text.find('\0') != std::string_view::npos) return std::nullopt;
  if (java::first_invalid_utf8(text)) return std::nullopt;
  // Line by line: a file of millions of lines is not copied into a vector of them.
  java::LineReader reader(text);
  const auto first = reader.next();
  if (!first) return std::nullopt;
  if (first->text.starts_with("version:"))
    return CheckpointType{CheckpointKind::partition_metadata};
  java::LineReader scan(text);
  while (const auto l = scan.next()) {
    if (l->text.starts_with("cluster.id=") || l->text.starts_with("node.id=") ||
        l->text.starts_with("broker.id=")) {
      return CheckpointType{CheckpointKind::meta_properties};
    }
  }
  const auto second = reader.next();
  const auto third = reader.next();
  if (!is_checkpoint_header(first, second) || !third) return std::nullopt;
  // Entry lines decide: 2 fields is an epoch checkpoint, 3 an offsets checkpoint.
  const auto fields = java::split_whitespace(third->text);
  if (fields.size() == 2) return CheckpointType{CheckpointKind::leader_epoch};
  if (fields.size() == 3) return CheckpointType{CheckpointKind::offsets};
  return std::nullopt;
}

std::optional<CheckpointType> checkpoint_type_from_flag(std::string_view value) {
  if (value == "offsets") return CheckpointType{CheckpointKind::offsets};
  for (const auto& n : kNamed)
    if (n.flag == value) return n.type;
  return std::nullopt;
}

std::string kind_flag_values() {
  std::string out = "offsets";
  for (const auto& n : kNamed) {
    out += ", ";
    out += n.flag;
  }
  return out;
}

}  // namespace kepoch
