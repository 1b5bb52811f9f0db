#pragma once
// Which broker a partition replica directory (or a whole log dir) belongs to: node.id from
// meta.properties in the log dir (MetaProperties; broker.id for a ZooKeeper-era v0 file).
// Read-only.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace kepoch {

// The broker id, or nothing when the log dir has no readable meta.properties with an id.
// Never throws for a missing file: copies of replica dirs often come without it.
std::optional<std::int32_t> broker_id_of_replica_dir(const std::filesystem::path& replica_dir);

// node.id and cluster.id of `log_dir`'s meta.properties, when it holds one Kafka loads
// (MetaPropertiesEnsemble: a file that fails to load puts the dir in errorLogDirs); `file`
// names it when either is known. Never throws.
struct LogDirIdentity {
  std::optional<std::int32_t> node_id;
  std::optional<std::string> cluster_id;
  std::string file;
};
LogDirIdentity log_dir_identity(const std::filesystem::path& log_dir);

// The same for what `--metadata` names (a log dir, its __cluster_metadata-0 dir, or a file in
// it): the first of the path (a file's dir) and its parent that holds meta.properties.
LogDirIdentity metadata_identity(const std::filesystem::path& target);

// A ZooKeeper-mode broker's log dir: its meta.properties is version 0 with broker.id (what
// such a broker writes) and it holds no __cluster_metadata-0 directory. Returns the
// broker.id; nothing otherwise (no such file, another version, a KRaft metadata log).
std::optional<std::int32_t> zookeeper_mode_broker_id(const std::filesystem::path& log_dir);

// Why a directory has no KRaft metadata log to read, when it is a ZooKeeper-mode broker's
// log dir: "; this is a ZooKeeper-mode broker's log dir (...): ..."; "" otherwise. Appended
// to the "no .log segment" errors of `metadata history|dump`.
std::string no_metadata_log_reason(const std::filesystem::path& log_dir);

}  // namespace kepoch
