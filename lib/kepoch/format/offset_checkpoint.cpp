#include "kepoch/format/offset_checkpoint.hpp"

#include <fmt/format.h>

#include "kepoch/base/text.hpp"

namespace kepoch {

EntryParse<TopicPartitionOffset> parse_topic_partition_offset(std::string_view line) {
  using Status = EntryParse<TopicPartitionOffset>::Status;
  EntryParse<TopicPartitionOffset> p;
  const auto fields = java::split_whitespace(line);
  if (fields.size() != 3) {
    p.status = Status::malformed;
    p.detail =
        fmt::format("expected 3 fields \"<topic> <partition> <offset>\", found {}{}", fields.size(),
                    !fields.empty() && fields[0].empty() ? " (leading white space)" : "");
    return p;
  }
  const auto partition = java::parse_int(fields[1]);
  if (!partition) {
    p.status = Status::number_format;
    p.detail = fmt::format("partition \"{}\" is not an int", excerpt(fields[1]));
    p.field = fields[1];
    return p;
  }
  const auto offset = java::parse_long(fields[2]);
  if (!offset) {
    p.status = Status::number_format;
    p.detail = fmt::format("offset \"{}\" is not a long", excerpt(fields[2]));
    p.field = fields[2];
    return p;
  }
  p.entry = {std::string(fields[0]), *partition, *offset};
  return p;
}

OffsetCheckpoint read_offset_checkpoint(std::string_view text, std::string_view path) {
  return read_checkpoint<TopicPartitionOffset>(text, path, kOffsetCheckpointVersion,
                                               parse_topic_partition_offset);
}

}  // namespace kepoch
