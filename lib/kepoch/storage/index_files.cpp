// Reading index and snapshot files; see index_files.hpp.
#include "kepoch/storage/index_files.hpp"

#include <fmt/format.h>

#include <vector>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/storage/remote_index_cache.hpp"

namespace kepoch {

namespace {

bool is_segment_kind(SegmentFileKind kind) {
  return kind == SegmentFileKind::log || kind == SegmentFileKind::index ||
         kind == SegmentFileKind::timeindex || kind == SegmentFileKind::txnindex ||
         kind == SegmentFileKind::snapshot;
}

}  // namespace

SegmentFileTarget classify_segment_file(const std::filesystem::path& path,
                                        std::optional<SegmentFileKind> forced_kind,
                                        std::optional<std::int64_t> forced_base_offset) {
  const std::string name = path.filename().string();
  const SegmentFileName parsed = parse_segment_file_name(name);
  SegmentFileTarget t;
  t.kind = forced_kind ? *forced_kind : parsed.kind;
  t.state = parsed.state;
  t.base_offset = forced_base_offset ? forced_base_offset : parsed.offset;
  // KRaft snapshots (<endOffset>-<epoch>.checkpoint, bootstrap.checkpoint) are record
  // batches like a .log; DumpLogSegments reads them as one too.
  if (!forced_kind && name.ends_with(".checkpoint")) {
    t.kind = SegmentFileKind::log;
    t.base_offset = forced_base_offset;
  }
  if (!is_segment_kind(t.kind)) {
    if (parsed.kind == SegmentFileKind::leader_epoch_checkpoint ||
        parsed.kind == SegmentFileKind::partition_metadata) {
      throw InputError(path.string(),
                       fmt::format("a {} file, not a segment file (use `kepoch checkpoint dump`)",
                                   to_string(parsed.kind)));
    }
    throw InputError(path.string(),
                     "cannot tell the kind of segment file from its name (expected "
                     "<offset>.log, .index, .timeindex, .txnindex or .snapshot, optionally "
                     "followed by .deleted, .cleaned or .swap); use --kind");
  }
  const bool relative = t.kind == SegmentFileKind::index || t.kind == SegmentFileKind::timeindex ||
                        t.kind == SegmentFileKind::txnindex;
  if (relative && !t.base_offset) {
    // The remote index cache's <start offset>_<segment id>.<kind>: Kafka reads the offset
    // before the '_' (RemoteIndexCache.offsetFromRemoteIndexFileName) and the entries are
    // relative to it, the remote segment's start offset.
    const RemoteIndexFileName remote = parse_remote_index_file_name(name);
    if (remote.start_offset && remote.segment_id) {
      t.base_offset = remote.start_offset;
      t.remote_segment_id = remote.segment_id;
    }
  }
  if (relative && !t.base_offset) {
    throw InputError(path.string(),
                     fmt::format("cannot tell the segment base offset from the name (Kafka "
                                 "reads it as the number before the first '.', or in the remote "
                                 "index cache's <offset>_<segment id> names before the '_'); the "
                                 "{} entries are relative to it: use --base-offset",
                                 to_string(t.kind)));
  }
  return t;
}

IndexFileDump read_index_file(const std::filesystem::path& path, const SegmentFileTarget& target,
                              std::uint64_t max_bytes) {
  return read_index_file(open_input(path), target, max_bytes);
}

IndexFileDump read_index_file(const ReadOnlyFile& file, const SegmentFileTarget& target,
                              std::uint64_t max_bytes) {
  if (file.size() > max_bytes) {
    throw InputError(file.path(), fmt::format("file is {} bytes, larger than the {} bytes kepoch "
                                              "reads for this kind of file",
                                              file.size(), max_bytes));
  }
  // A small file held since its open is parsed in place.
  std::vector<std::uint8_t> storage;
  std::span<const std::uint8_t> bytes;
  if (const auto held = file.held()) {
    bytes = *held;
  } else {
    storage.resize(static_cast<std::size_t>(file.size()));
    storage.resize(file.read_at(0, storage));
    bytes = storage;
  }
  const std::int64_t base = target.base_offset.value_or(0);

  IndexFileDump dump{target, OffsetIndex{}};
  switch (target.kind) {
    case SegmentFileKind::index:
      dump.content = parse_offset_index(bytes, base);
      break;
    case SegmentFileKind::timeindex:
      dump.content = parse_time_index(bytes, base);
      break;
    case SegmentFileKind::txnindex:
      dump.content = parse_transaction_index(bytes, base);
      break;
    case SegmentFileKind::snapshot:
      dump.content = parse_producer_snapshot(bytes);
      break;
    default:
      throw InputError(file.path(), fmt::format("not an index or snapshot file (kind {})",
                                                to_string(target.kind)));
  }
  return dump;
}

}  // namespace kepoch
