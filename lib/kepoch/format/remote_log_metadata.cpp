#include "kepoch/format/remote_log_metadata.hpp"

#include <fmt/format.h>

#include <map>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/flexible_reader.hpp"

namespace kepoch {
namespace {

#include "kepoch/format/remote_log_metadata_schema_table.inc"

constexpr std::uint32_t kFrameVersion = 1;  // AbstractApiMessageSerde.DEFAULT_FRAME_VERSION
constexpr std::uint32_t kMaxShort = 0x7fff;

std::uint32_t frame_short(ByteReader& in, std::string_view entity) {
  const std::uint32_t v = in.unsigned_varint(entity);
  if (v > kMaxShort) in.fail(fmt::format("Value for {} was too large.", entity));
  return v;
}

const SchemaValue* member(const SchemaValue& v, std::string_view name) {
  for (const auto& m : v.members)
    if (m.name == name) return &m.value;
  return nullptr;
}

// The decoder wrote every non-tagged field of version 0, so these are there.
std::int64_t integer(const SchemaValue& v, std::string_view name) {
  const SchemaValue* m = member(v, name);
  return m ? m->integer : 0;
}

RemoteTopicIdPartition topic_id_partition(const SchemaValue& v) {
  RemoteTopicIdPartition out;
  if (const SchemaValue* m = member(v, "name")) out.topic = m->text;
  if (const SchemaValue* m = member(v, "id")) out.topic_id = parse_uuid(m->text).uuid;
  out.partition = static_cast<std::int32_t>(integer(v, "partition"));
  return out;
}

void segment_id(const SchemaValue& fields, RemoteLogMetadata& out) {
  const SchemaValue* id = member(fields, "remote_log_segment_id");
  if (!id) return;
  if (const SchemaValue* tp = member(*id, "topic_id_partition"))
    out.partition = topic_id_partition(*tp);
  if (const SchemaValue* m = member(*id, "id")) out.segment_id = parse_uuid(m->text).uuid;
}

// RemoteLogSegmentMetadataTransform / RemoteLogSegmentMetadataSnapshotTransform: the fields a
// segment and a snapshot share, with the checks of RemoteLogSegmentMetadata's constructor.
void segment_fields(const SchemaValue& fields, RemoteLogMetadata& out, std::uint64_t position) {
  out.start_offset = integer(fields, "start_offset");
  out.end_offset = integer(fields, "end_offset");
  out.max_timestamp_ms = integer(fields, "max_timestamp_ms");
  out.segment_size_in_bytes = static_cast<std::int32_t>(integer(fields, "segment_size_in_bytes"));
  std::map<std::int32_t, std::int64_t> epochs;  // the HashMap the transform builds
  if (const SchemaValue* list = member(fields, "segment_leader_epochs")) {
    for (const auto& e : list->items) {
      const auto epoch = static_cast<std::int32_t>(integer(e, "leader_epoch"));
      const std::int64_t offset = integer(e, "offset");
      out.segment_leader_epochs.emplace_back(epoch, offset);
      epochs[epoch] = offset;
    }
  }
  if (const SchemaValue* t = member(fields, "txn_index_empty")) out.txn_index_empty = t->boolean;
  if (out.start_offset < 0) {
    throw FormatError(position, fmt::format("Unexpected start offset = {}. StartOffset for a "
                                            "remote segment cannot be negative",
                                            out.start_offset));
  }
  if (out.end_offset < out.start_offset) {
    throw FormatError(position,
                      fmt::format("Unexpected end offset = {}. EndOffset for a remote segment "
                                  "cannot be less than startOffset = {}",
                                  out.end_offset, out.start_offset));
  }
  if (epochs.empty()) throw FormatError(position, "segmentLeaderEpochs can not be null or empty");
}

RemoteLogMetadata typed(const SchemaValue& fields, std::uint32_t api_key, std::uint64_t position) {
  RemoteLogMetadata out;
  out.broker_id = static_cast<std::int32_t>(integer(fields, "broker_id"));
  out.event_timestamp_ms = integer(fields, "event_timestamp_ms");
  if (const SchemaValue* c = member(fields, "custom_metadata"))
    out.custom_metadata = c->kind != SchemaValue::Kind::null;
  switch (api_key) {
    case 0:
      out.kind = RemoteLogMetadata::Kind::segment;
      segment_id(fields, out);
      segment_fields(fields, out, position);
      out.state = static_cast<std::int8_t>(integer(fields, "remote_log_segment_state"));
      break;
    case 1:
      out.kind = RemoteLogMetadata::Kind::segment_update;
      segment_id(fields, out);
      out.state = static_cast<std::int8_t>(integer(fields, "remote_log_segment_state"));
      break;
    case 2:
      out.kind = RemoteLogMetadata::Kind::partition_delete;
      if (const SchemaValue* tp = member(fields, "topic_id_partition"))
        out.partition = topic_id_partition(*tp);
      out.state = static_cast<std::int8_t>(integer(fields, "remote_partition_delete_state"));
      if (!remote_partition_delete_state_name(out.state))
        throw FormatError(position, "state can not be null");
      return out;
    default:
      out.kind = RemoteLogMetadata::Kind::segment_snapshot;
      if (const SchemaValue* m = member(fields, "segment_id"))
        out.segment_id = parse_uuid(m->text).uuid;
      segment_fields(fields, out, position);
      out.state = static_cast<std::int8_t>(integer(fields, "remote_log_segment_state"));
      break;
  }
  // RemoteLogSegmentState.forId gives null for an unknown id; the update (or the snapshot)
  // refuses it with Objects.requireNonNull.
  if (!remote_segment_state_name(out.state)) throw FormatError(position, "state can not be null");
  return out;
}

}  // namespace

std::optional<std::string> remote_segment_state_name(std::int8_t id) {
  switch (id) {
    case 0:
      return "COPY_SEGMENT_STARTED";
    case 1:
      return "COPY_SEGMENT_FINISHED";
    case 2:
      return "DELETE_SEGMENT_STARTED";
    case 3:
      return "DELETE_SEGMENT_FINISHED";
    default:
      return std::nullopt;
  }
}

std::optional<std::string> remote_partition_delete_state_name(std::int8_t id) {
  switch (id) {
    case 0:
      return "DELETE_PARTITION_MARKED";
    case 1:
      return "DELETE_PARTITION_STARTED";
    case 2:
      return "DELETE_PARTITION_FINISHED";
    default:
      return std::nullopt;
  }
}

std::span<const RecordSchema> remote_log_metadata_schemas() {
  return kRemoteLogMetadataSchemas;
}

const RecordSchema* remote_log_metadata_schema(std::uint32_t api_key) {
  for (const auto& s : kRemoteLogMetadataSchemas)
    if (s.api_key == api_key) return &s;
  return nullptr;
}

std::string remote_log_metadata_type_name(std::uint32_t api_key) {
  if (const RecordSchema* s = remote_log_metadata_schema(api_key)) return std::string(s->type_name);
  return fmt::format("UNKNOWN({})", api_key);
}

RemoteLogMetadataRecord decode_remote_log_metadata_record(std::span<const std::uint8_t> value,
                                                          std::uint64_t position) {
  ByteReader in(value, position);
  RemoteLogMetadataRecord r;
  r.frame_version = in.unsigned_varint("frame version");
  if (r.frame_version != kFrameVersion) {
    in.fail(fmt::format(
        "Could not deserialize metadata record due to unknown frame version {}(only frame "
        "version {} is supported)",
        r.frame_version, kFrameVersion));
  }
  const std::uint64_t key_at = in.position();
  r.api_key = frame_short(in, "type");
  const std::uint64_t version_at = in.position();
  r.version = frame_short(in, "version");
  const RecordSchema* schema = remote_log_metadata_schema(r.api_key);
  // MetadataRecordType.fromId, then the generated message's read; the error names the byte
  // of the api key or version it is about.
  if (!schema) throw FormatError(key_at, fmt::format("Unknown metadata id {}", r.api_key));
  if (r.version < static_cast<std::uint32_t>(schema->first_version) ||
      r.version > static_cast<std::uint32_t>(schema->last_version))
    throw FormatError(version_at,
                      fmt::format("Can't read version {} of {}", r.version, schema->name));
  FlexibleReader f(in, r.notes);
  r.fields = decode_schema_fields(f, *schema, r.version);
  if (!in.at_end())
    in.fail(fmt::format("Found {} byte(s) of garbage after {}", in.remaining(), r.api_key));
  r.metadata = typed(r.fields, r.api_key, position);
  return r;
}

}  // namespace kepoch
