#include "kepoch/storage/broker_identity.hpp"

#include <system_error>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/meta_properties.hpp"

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

}  // namespace kepoch
