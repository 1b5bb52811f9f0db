#include "kepoch/storage/broker_identity.hpp"

#include <fmt/format.h>

#include <system_error>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/meta_properties.hpp"
#include "kepoch/storage/log_dir.hpp"

namespace kepoch {

std::optional<std::int32_t> broker_id_of_replica_dir(const std::filesystem::path& replica_dir) {
  auto dir = replica_dir.lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "b1/orders-0/"
  std::error_code ec;
  auto file = dir / kMetaPropertiesName;  // the argument is a whole log dir
  if (!std::filesystem::is_regular_file(file, ec)) file = dir.parent_path() / kMetaPropertiesName;
  if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
  try {
    const MetaProperties meta = read_meta_properties(read_small_file(file, 64 * 1024));
    if (meta.failure) return std::nullopt;
    return meta.node_id;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

LogDirIdentity log_dir_identity(const std::filesystem::path& log_dir) {
  LogDirIdentity out;
  std::error_code ec;
  const auto file = log_dir / kMetaPropertiesName;
  if (!std::filesystem::is_regular_file(file, ec)) return out;
  try {
    const MetaProperties meta = read_meta_properties(read_small_file(file, 64 * 1024));
    if (meta.failure) return out;
    out.node_id = meta.node_id;
    out.cluster_id = meta.cluster_id;
    if (out.node_id || out.cluster_id) out.file = file.string();
  } catch (const InputError&) {
  }
  return out;
}

LogDirIdentity metadata_identity(const std::filesystem::path& target) {
  std::error_code ec;
  auto dir = target.lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();
  if (!std::filesystem::is_directory(dir, ec)) dir = dir.parent_path();
  if (dir.empty()) dir = ".";
  LogDirIdentity id = log_dir_identity(dir);
  if (id.file.empty() && !dir.parent_path().empty()) id = log_dir_identity(dir.parent_path());
  return id;
}

std::optional<std::int32_t> zookeeper_mode_broker_id(const std::filesystem::path& log_dir) {
  std::error_code ec;
  const auto file = log_dir / kMetaPropertiesName;
  if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
  if (std::filesystem::exists(log_dir / kMetadataLogDirName, ec)) return std::nullopt;
  try {
    const MetaProperties meta = read_meta_properties(read_small_file(file, 64 * 1024));
    if (meta.failure || meta.version.value_or(0) != 0) return std::nullopt;
    for (const auto& p : meta.properties.properties)
      if (p.key == "broker.id") return meta.node_id;
    return std::nullopt;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::string no_metadata_log_reason(const std::filesystem::path& log_dir) {
  const auto id = zookeeper_mode_broker_id(log_dir);
  if (!id) return "";
  return fmt::format(
      "; this is a ZooKeeper-mode broker's log dir (meta.properties version 0, broker.id {}), "
      "and such a broker keeps its metadata in ZooKeeper, not in a {} log",
      *id, kMetadataLogDirName);
}

}  // namespace kepoch
