#pragma once
// partition.metadata (PartitionMetadataFile.java, PartitionMetadataReadBuffer.java):
//
//   version: 0                    line 1 split on ":\s+" into exactly 2 parts; the key is not
//   topic_id: <22-char base64url> checked; version >= 0; line 2 likewise; Uuid.fromString;
//                                 the zero uuid is rejected. No trailing newline.
//
// Failures (PartitionMetadataReadBuffer.read): a missing line is a NullPointerException
// (unchecked); a bad version number is caught and rethrown as "Malformed line" (IOException);
// an undecodable uuid is an IllegalArgumentException (unchecked).

#include <optional>
#include <string_view>

#include "kepoch/base/java_text.hpp"
#include "kepoch/base/uuid.hpp"
#include "kepoch/format/java_failure.hpp"

namespace kepoch {

inline constexpr std::string_view kPartitionMetadataName = "partition.metadata";

struct PartitionMetadata {
  std::optional<std::int32_t> version;
  std::optional<Uuid> topic_id;
  std::vector<java::Line> lines;       // the first three lines (at most), for lint
  std::optional<JavaFailure> failure;  // set when Kafka would throw
};

PartitionMetadata read_partition_metadata(std::string_view text, std::string_view path);

}  // namespace kepoch
