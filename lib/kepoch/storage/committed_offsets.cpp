#include "kepoch/storage/committed_offsets.hpp"

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/partition_dir.hpp"
#include "kepoch/storage/segment_dump.hpp"

namespace kepoch {
namespace {

const SchemaValue* member(const SchemaValue& object, std::string_view name) {
  for (const auto& m : object.members)
    if (m.name == name) return &m.value;
  return nullptr;
}

// The record's group/topic/partition; nullopt for a record that is not an offset commit.
std::optional<GroupTopicPartition> offset_key(const CoordinatorRecord& r) {
  if (!r.type || (r.type->type != 0 && r.type->type != 1)) return std::nullopt;
  const SchemaValue* group = member(r.key, "group");
  const SchemaValue* topic = member(r.key, "topic");
  const SchemaValue* partition = member(r.key, "partition");
  if (!group || !topic || !partition) return std::nullopt;
  return GroupTopicPartition{group->text, topic->text,
                             static_cast<std::int32_t>(partition->integer)};
}

CommittedOffset offset_value(const CoordinatorRecord& r, std::int64_t record_offset) {
  CommittedOffset c;
  c.record_offset = record_offset;
  if (const auto* v = member(r.value, "offset")) c.offset = v->integer;
  // OffsetCommitValue v3+ carries the epoch; -1 (RecordBatch.NO_PARTITION_LEADER_EPOCH) is
  // none, as OffsetAndMetadata reads it back (Optional.empty()).
  if (const auto* v = member(r.value, "leader_epoch"); v && v->integer >= 0)
    c.leader_epoch = static_cast<std::int32_t>(v->integer);
  if (const auto* v = member(r.value, "metadata")) c.metadata = v->text;
  if (const auto* v = member(r.value, "commit_timestamp")) c.commit_timestamp = v->integer;
  return c;
}

void read_partition(const std::filesystem::path& dir, CommittedOffsetsFold& fold) {
  SegmentDumpOptions options;
  options.records = true;
  options.walk_records = true;
  options.coordinator = CoordinatorLog::offsets;
  for (const auto& segment : live_segments(dir)) {
    const std::string file = segment.path.string();
    dump_segment(segment.path, options, [&](DumpedBatch& batch) {
      const BatchHeader& h = batch.header;
      if (batch.invalid)
        throw InputError(file, fmt::format("batch at offset {}: {}", h.base_offset, *batch.invalid),
                         0, h.position);
      const std::optional<std::int64_t> producer =
          h.is_transactional() ? std::optional<std::int64_t>(h.producer_id) : std::nullopt;
      walk_records(batch, [&](const Record& r, const DumpedControl* control,
                              const DumpedCoordinator* coordinator) {
        if (control) {
          // CoordinatorLoaderImpl: a control batch's COMMIT/ABORT ends the producer's
          // transaction (replayEndTransactionMarker); other control types are skipped.
          if (control->control && (control->control->type == ControlRecordType::commit ||
                                   control->control->type == ControlRecordType::abort))
            fold.end_transaction(h.producer_id,
                                 control->control->type == ControlRecordType::commit);
          return;
        }
        if (!coordinator) return;
        // CoordinatorLoaderImpl: a record type it does not know (UnknownRecordTypeException,
        // "a left over from an aborted upgrade") is skipped; any other failure fails the load.
        if (r.key && r.key->size() >= 2) {
          const auto type = static_cast<std::int16_t>(((*r.key)[0] << 8) | (*r.key)[1]);
          if (!coordinator_record_type(CoordinatorLog::offsets, type)) return;
        }
        if (coordinator->error) throw InputError(file, *coordinator->error, 0, h.position);
        if (coordinator->record) fold.apply(*coordinator->record, r.offset, producer);
      });
      if (batch.records_error)
        throw InputError(file,
                         fmt::format("batch at offset {}: {}", h.base_offset, *batch.records_error),
                         0, h.position);
    });
  }
}

bool is_offsets_partition(const std::filesystem::path& dir) {
  const auto parsed = partition_dir_name_of(dir);
  return parsed.name && parsed.name->state == PartitionDirState::normal &&
         parsed.name->topic == "__consumer_offsets";
}

}  // namespace

void CommittedOffsetsFold::apply(const CoordinatorRecord& record, std::int64_t record_offset,
                                 std::optional<std::int64_t> producer_id) {
  const auto key = offset_key(record);
  if (!key) return;  // group records: no offsets
  if (!record.value_version) {
    // OffsetMetadataManager.replay, a tombstone: the offset and any pending one removed.
    offsets_.erase(*key);
    for (auto& [producer, pending] : pending_)
      pending.erase(*key);
    return;
  }
  CommittedOffset value = offset_value(record, record_offset);
  if (producer_id)
    pending_[*producer_id][*key] = std::move(value);
  else
    offsets_[*key] = std::move(value);
}

void CommittedOffsetsFold::end_transaction(std::int64_t producer_id, bool commit) {
  const auto it = pending_.find(producer_id);
  if (it == pending_.end()) return;
  if (commit) {
    // replayEndTransactionMarker: a pending offset is applied unless a commit written after it
    // already holds the key.
    for (auto& [key, value] : it->second) {
      const auto current = offsets_.find(key);
      if (current == offsets_.end() || current->second.record_offset < value.record_offset)
        offsets_[key] = std::move(value);
    }
  }
  pending_.erase(it);
}

std::size_t CommittedOffsetsFold::pending() const {
  std::size_t n = 0;
  for (const auto& [producer, pending] : pending_)
    n += pending.size();
  return n;
}

std::vector<GroupTopicPartition> CommittedOffsetsFold::pending_keys() const {
  std::vector<GroupTopicPartition> out;
  for (const auto& [producer, pending] : pending_)
    for (const auto& [key, value] : pending)
      out.push_back(key);
  return out;
}

CommittedOffsets read_committed_offsets(const std::filesystem::path& path) {
  CommittedOffsets out;
  std::vector<std::filesystem::path> dirs;
  if (is_offsets_partition(path)) {
    dirs.push_back(path);
  } else {
    const LogDirListing listing = list_log_dir(path);
    for (const auto* entry : listing.of_kind(LogDirEntryKind::replica))
      if (entry->partition && entry->partition->state == PartitionDirState::normal &&
          entry->partition->topic == "__consumer_offsets")
        dirs.push_back(entry->path);
    if (dirs.empty())
      throw InputError(path.string(),
                       "holds no __consumer_offsets partition: give a __consumer_offsets-N dir "
                       "or the log dir of the broker that led the group coordinator's partition");
  }
  for (const auto& dir : dirs) {
    CommittedOffsetsFold fold;
    read_partition(dir, fold);
    // A group's offsets live in one partition, its coordinator's (the group id's hash).
    for (const auto& [key, value] : fold.offsets())
      out.offsets[key] = value;
    out.pending_transactional += fold.pending();
    for (const auto& key : fold.pending_keys())
      out.pending_keys.insert(key);
    out.partitions.push_back(dir);
  }
  return out;
}

}  // namespace kepoch
