#include "kepoch/format/snapshot_file_name.hpp"

#include <fmt/format.h>

#include "kepoch/base/java_text.hpp"

namespace kepoch {
namespace {

constexpr std::string_view kSuffix = ".checkpoint";
constexpr std::string_view kPartialSuffix = ".checkpoint.part";
constexpr std::string_view kDeleteSuffix = ".checkpoint.deleted";
constexpr std::size_t kOffsetWidth = 20;
constexpr std::size_t kEpochWidth = 10;

// String.substring(begin, end), or Java's exception message.
std::optional<std::string_view> java_substring(std::string_view s, std::size_t begin,
                                               std::size_t end, std::string& failure) {
  if (end > s.size()) {
    failure = fmt::format("java.lang.StringIndexOutOfBoundsException: begin {}, end {}, length {}",
                          begin, end, s.size());
    return std::nullopt;
  }
  return s.substr(begin, end - begin);
}

}  // namespace

std::string snapshot_file_stem(const SnapshotId& id) {
  return fmt::format("{:020d}-{:010d}", id.end_offset, id.epoch);
}

std::string snapshot_id_text(const SnapshotId& id) {
  return fmt::format("{}-{}", id.end_offset, id.epoch);
}

std::optional<SnapshotFileName> parse_snapshot_file_name(std::string_view name) {
  SnapshotFileName out;
  if (name.ends_with(kPartialSuffix)) {
    out.state = SnapshotFileState::partial;
  } else if (name.ends_with(kDeleteSuffix)) {
    out.state = SnapshotFileState::deleted;
  } else if (!name.ends_with(kSuffix)) {
    return std::nullopt;
  }
  std::string failure;
  const auto offset_text = java_substring(name, 0, kOffsetWidth, failure);
  if (!offset_text) {
    out.kafka_failure = failure;
    return out;
  }
  const auto offset = java::parse_long(*offset_text);
  if (!offset) {
    out.kafka_failure =
        fmt::format("java.lang.NumberFormatException: For input string: \"{}\"", *offset_text);
    return out;
  }
  const auto epoch_text =
      java_substring(name, kOffsetWidth + 1, kOffsetWidth + 1 + kEpochWidth, failure);
  if (!epoch_text) {
    out.kafka_failure = failure;
    return out;
  }
  const auto epoch = java::parse_int(*epoch_text);
  if (!epoch) {
    out.kafka_failure =
        fmt::format("java.lang.NumberFormatException: For input string: \"{}\"", *epoch_text);
    return out;
  }
  out.id = SnapshotId{*offset, *epoch};
  return out;
}

}  // namespace kepoch
