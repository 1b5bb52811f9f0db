#include "kepoch/format/control_record.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/flexible_reader.hpp"

namespace kepoch {
namespace {

constexpr std::size_t kControlKeySize = 4;    // CURRENT_CONTROL_RECORD_KEY_SIZE
constexpr std::size_t kEndTxnMarkerSize = 6;  // CURRENT_END_TXN_MARKER_VALUE_SIZE

ControlRecordType type_from_id(std::int16_t id) {
  return id >= 0 && id <= 6 ? static_cast<ControlRecordType>(id) : ControlRecordType::unknown;
}

std::vector<ControlVoter> leader_change_voters(ByteReader& in, FlexibleReader& f,
                                               std::string_view field) {
  const std::size_t n = f.array_length(field);
  std::vector<ControlVoter> out;
  out.reserve(f.reservable(n, 5));  // VoterId, a tagged section
  for (std::size_t i = 0; i < n; ++i) {
    ControlVoter& v = out.emplace_back();
    v.voter_id = in.i32("VoterId");
    f.tagged_fields("Voter");
  }
  return out;
}

void read_leader_change(ControlRecord& r, ByteReader& in, FlexibleReader& f) {
  r.leader_id = in.i32("LeaderId");
  r.voters = leader_change_voters(in, f, "voters");
  r.granting_voters = leader_change_voters(in, f, "grantingVoters");
}

ControlEndpoint read_endpoint(ByteReader& in, FlexibleReader& f) {
  ControlEndpoint e;
  e.name = f.string("name");
  e.host = f.string("host");
  e.port = in.u16("Port");
  f.tagged_fields("Endpoint");
  return e;
}

void read_voters(ControlRecord& r, ByteReader& in, FlexibleReader& f) {
  const std::size_t voters = f.array_length("voters");
  r.voters.reserve(f.reservable(voters, 27));  // a voter without endpoints: 27 bytes
  for (std::size_t i = 0; i < voters; ++i) {
    ControlVoter& v = r.voters.emplace_back();
    v.voter_id = in.i32("VoterId");
    v.voter_directory_id = f.uuid("VoterDirectoryId");
    const std::size_t endpoints = f.array_length("endpoints");
    v.endpoints.reserve(f.reservable(endpoints, 5));  // two empty strings, Port, tags
    for (std::size_t k = 0; k < endpoints; ++k)
      v.endpoints.push_back(read_endpoint(in, f));
    v.min_supported_version = in.i16("MinSupportedVersion");
    v.max_supported_version = in.i16("MaxSupportedVersion");
    f.tagged_fields("KRaftVersionFeature");
    f.tagged_fields("Voter");
  }
}

// EndTransactionMarker.deserializeValue.
void read_end_txn_marker(ControlRecord& r, std::span<const std::uint8_t> value,
                         std::uint64_t position) {
  ByteReader in(value, position);
  if (value.size() < kEndTxnMarkerSize) {
    in.fail(
        fmt::format("Invalid value size found for end transaction marker. Must have at least "
                    "{} bytes, but found only {}",
                    kEndTxnMarkerSize, value.size()));
  }
  r.version = in.i16("version");
  if (*r.version < 0) {
    throw FormatError(position, fmt::format("Invalid version found for end transaction marker: "
                                            "{}. May indicate data corruption",
                                            *r.version));
  }
  if (*r.version > 0)
    r.notes.push_back(
        fmt::format("end transaction marker version {} read as version 0", *r.version));
  r.coordinator_epoch = in.i32("coordinatorEpoch");
  if (!in.at_end()) r.notes.push_back(fmt::format("{} bytes after the marker", in.remaining()));
}

// The KRaft messages, read at schema version 0.
void read_kraft_message(ControlRecord& r, std::span<const std::uint8_t> value,
                        std::uint64_t position) {
  ByteReader in(value, position);
  FlexibleReader f(in, r.notes);
  r.version = in.i16("Version");
  switch (r.type) {
    case ControlRecordType::leader_change:
      read_leader_change(r, in, f);
      break;
    case ControlRecordType::snapshot_header:
      r.last_contained_log_timestamp = in.i64("LastContainedLogTimestamp");
      break;
    case ControlRecordType::kraft_version:
      r.kraft_version = in.i16("KRaftVersion");
      break;
    case ControlRecordType::kraft_voters:
      read_voters(r, in, f);
      break;
    default:
      break;
  }
  f.tagged_fields(control_type_name(r.type));
  if (!in.at_end())
    r.notes.push_back(
        fmt::format("{} bytes after the message, which Kafka ignores", in.remaining()));
}

}  // namespace

std::string_view control_type_name(ControlRecordType type) {
  switch (type) {
    case ControlRecordType::abort:
      return "abort";
    case ControlRecordType::commit:
      return "commit";
    case ControlRecordType::leader_change:
      return "leader_change";
    case ControlRecordType::snapshot_header:
      return "snapshot_header";
    case ControlRecordType::snapshot_footer:
      return "snapshot_footer";
    case ControlRecordType::kraft_version:
      return "kraft_version";
    case ControlRecordType::kraft_voters:
      return "kraft_voters";
    case ControlRecordType::unknown:
      break;
  }
  return "unknown";
}

ControlRecord parse_control_key(std::optional<std::span<const std::uint8_t>> key,
                                std::uint64_t position) {
  if (!key) throw FormatError(position, "Invalid control record: the key is null");
  ByteReader in(*key, position);
  if (key->size() < kControlKeySize) {
    in.fail(
        fmt::format("Invalid value size found for end control record key. Must have at least "
                    "{} bytes, but found only {}",
                    kControlKeySize, key->size()));
  }
  ControlRecord r;
  r.key_version = in.i16("control record key version");
  if (r.key_version < 0) {
    throw FormatError(position, fmt::format("Invalid version found for control record: {}. May "
                                            "indicate data corruption",
                                            r.key_version));
  }
  if (r.key_version != 0)
    r.notes.push_back(
        fmt::format("control record key version {} read as version 0", r.key_version));
  r.type_id = in.i16("control record type");
  r.type = type_from_id(r.type_id);
  if (r.type == ControlRecordType::unknown)
    r.notes.push_back(
        fmt::format("unknown control record type {}, which Kafka ignores", r.type_id));
  return r;
}

void parse_control_value(ControlRecord& record, std::optional<std::span<const std::uint8_t>> value,
                         std::uint64_t position) {
  if (record.type == ControlRecordType::unknown) return;
  if (!value) throw FormatError(position, "Invalid control record: the value is null");
  if (record.type == ControlRecordType::abort || record.type == ControlRecordType::commit) {
    read_end_txn_marker(record, *value, position);
  } else {
    read_kraft_message(record, *value, position);
  }
}

}  // namespace kepoch
