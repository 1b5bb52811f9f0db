#pragma once
// The files of a segment besides its .log, as `segment dump` reads them: offset index,
// time index, transaction index and producer-state snapshot. Tells a file's kind from its
// name as Kafka's loader does (format/segment_file_name.hpp), reads the file read-only with
// a size cap, and hands the bytes to the pure parsers in format/.
//
// Memory: the file is read whole and parsed once (Kafka itself maps an index whole and reads
// a snapshot with Files.readAllBytes). The cap keeps a huge or hostile file a one-line error;
// a default-sized preallocated index (segment.index.bytes = 10 MiB) costs about 40 MB.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <variant>

#include "kepoch/base/read_only_file.hpp"
#include "kepoch/base/uuid.hpp"

#include "kepoch/format/offset_index.hpp"
#include "kepoch/format/producer_snapshot.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/format/time_index.hpp"
#include "kepoch/format/transaction_index.hpp"

namespace kepoch {

// Index and snapshot files above this size are refused (InputError) rather than read.
inline constexpr std::uint64_t kMaxIndexFileBytes = 1ull << 30;

// What a segment-file argument is.
struct SegmentFileTarget {
  SegmentFileKind kind = SegmentFileKind::other;  // log, index, timeindex, txnindex, snapshot
  LeftoverState state = LeftoverState::none;      // a .deleted/.cleaned/.swap leftover
  // The offset in the name (LogFileUtils.offsetFromFileName), or the forced one. Always set
  // for index, timeindex and txnindex (their entries are relative to it).
  std::optional<std::int64_t> base_offset;
  // A file of tiered storage's remote index cache (remote_index_cache.hpp): named
  // <start offset>_<segment id>.index, .timeindex or .txnindex, its base offset the number
  // before the '_' (RemoteIndexCache.offsetFromRemoteIndexFileName) and this its segment id.
  std::optional<Uuid> remote_segment_id;
};

// Tells the kind of `path` from its file name, leftovers included ("<offset>.index.swap"),
// unless `forced_kind` (one of the five segment kinds) says otherwise; `forced_base_offset`
// replaces the offset in the name. Throws InputError naming the file when the name is not
// one of a segment file (a checkpoint, or anything else) and no kind is forced, or when an
// index kind's base offset cannot be told. The remote index cache's names
// (<offset>_<segment id>.index, ...; their .deleted leftovers too) take the offset before the
// '_' as the base offset.
SegmentFileTarget classify_segment_file(const std::filesystem::path& path,
                                        std::optional<SegmentFileKind> forced_kind,
                                        std::optional<std::int64_t> forced_base_offset);

// One parsed index or snapshot file.
struct IndexFileDump {
  SegmentFileTarget target;
  std::variant<OffsetIndex, TimeIndex, TransactionIndex, ProducerSnapshot> content;
};

// Reads `path` (kind index, timeindex, txnindex or snapshot) read-only and parses it.
// Throws InputError naming the file: unreadable, not a regular file, or larger than
// max_bytes.
IndexFileDump read_index_file(const std::filesystem::path& path, const SegmentFileTarget& target,
                              std::uint64_t max_bytes = kMaxIndexFileBytes);
// The same, of a file already open.
IndexFileDump read_index_file(const ReadOnlyFile& file, const SegmentFileTarget& target,
                              std::uint64_t max_bytes = kMaxIndexFileBytes);

}  // namespace kepoch
