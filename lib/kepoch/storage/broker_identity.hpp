#pragma once
// Which broker a partition replica directory (or a whole log dir) belongs to: node.id from
// meta.properties in the log dir (MetaProperties; broker.id for a ZooKeeper-era v0 file).
// Read-only.

#include <cstdint>
#include <filesystem>
#include <optional>

namespace kepoch {

// The broker id, or nothing when the log dir has no readable meta.properties with an id.
// Never throws for a missing file: copies of replica dirs often come without it.
std::optional<std::int32_t> broker_id_of_replica_dir(const std::filesystem::path& replica_dir);

}  // namespace kepoch
