#include "kepoch/storage/partition_dir.hpp"

#include <algorithm>
#include <system_error>

#include "kepoch/base/error.hpp"
#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/format/partition_metadata.hpp"

namespace kepoch {
namespace fs = std::filesystem;

std::vector<PartitionFile> partition_files(const fs::path& dir) {
  std::vector<PartitionFile> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    // File.isFile follows symbolic links; a dangling link or a directory is not a file.
    const bool is_file = it->is_regular_file(type_ec);
    std::string name = it->path().filename().string();
    auto parsed = parse_segment_file_name(name);
    if (!is_file && it->is_directory(type_ec) && parsed.kind == SegmentFileKind::other) continue;
    out.push_back({it->path(), std::move(name), std::move(parsed), is_file});
  }
  if (ec) throw InputError(dir.string(), "cannot list directory: " + ec.message());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

bool is_live_segment(const SegmentFileName& name) {
  return name.kind == SegmentFileKind::log && name.state == LeftoverState::none &&
         name.offset.has_value();
}

std::vector<LiveSegment> live_segments(const fs::path& dir) {
  std::vector<LiveSegment> out;
  for (const auto& f : partition_files(dir))
    if (is_live_segment(f.parsed)) out.push_back({f.path, *f.parsed.offset});
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.base_offset < b.base_offset; });
  return out;
}

PartitionDirParse partition_dir_name_of(const fs::path& dir) {
  const fs::path norm = fs::absolute(dir).lexically_normal();
  const std::string name = (norm.has_filename() ? norm : norm.parent_path()).filename().string();
  return parse_partition_dir_name(name, dir.string());
}

bool holds_partition_files(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_regular_file(dir / kLeaderEpochCheckpointName, ec) ||
      fs::is_regular_file(dir / kPartitionMetadataName, ec))
    return true;
  try {
    for (const auto& f : partition_files(dir))
      if (is_live_segment(f.parsed)) return true;
  } catch (const InputError&) {
  }
  return false;
}

}  // namespace kepoch
