#include "kepoch/format/leader_epoch_checkpoint.hpp"

#include <fmt/format.h>

#include "kepoch/base/text.hpp"

namespace kepoch {

EntryParse<EpochEntry> parse_epoch_entry(std::string_view line) {
  using Status = EntryParse<EpochEntry>::Status;
  EntryParse<EpochEntry> p;
  const auto fields = java::split_whitespace(line);
  if (fields.size() != 2) {
    p.status = Status::malformed;
    p.detail =
        fields.size() == 3 && fields[0].empty()
            ? "expected \"<epoch> <start offset>\", found leading white space"
            : fmt::format("expected 2 fields \"<epoch> <start offset>\", found {}", fields.size());
    return p;
  }
  const auto epoch = java::parse_int(fields[0]);
  if (!epoch) {
    p.status = Status::number_format;
    p.detail = fmt::format("epoch \"{}\" is not an int", excerpt(fields[0]));
    p.field = fields[0];
    return p;
  }
  const auto start = java::parse_long(fields[1]);
  if (!start) {
    p.status = Status::number_format;
    p.detail = fmt::format("start offset \"{}\" is not a long", excerpt(fields[1]));
    p.field = fields[1];
    return p;
  }
  p.entry = {*epoch, *start};
  return p;
}

LeaderEpochCheckpoint read_leader_epoch_checkpoint(std::string_view text, std::string_view path) {
  return read_checkpoint<EpochEntry>(text, path, kLeaderEpochCheckpointVersion, parse_epoch_entry);
}

}  // namespace kepoch
