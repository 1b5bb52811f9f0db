#pragma once
// The records of a control batch (attributes bit 5), decoded into their types, as Kafka's
// ControlRecordType, EndTransactionMarker and ControlRecordUtils read them.
//
// Key (ControlRecordType.parseTypeId), at least 4 bytes:
//   0 version int16   negative: InvalidRecordException; other than 0: read as version 0
//   2 type int16      0 ABORT, 1 COMMIT, 2 LEADER_CHANGE, 3 SNAPSHOT_HEADER,
//                     4 SNAPSHOT_FOOTER, 5 KRAFT_VERSION, 6 KRAFT_VOTERS, other UNKNOWN
//
// Value of ABORT/COMMIT (EndTransactionMarker.deserializeValue), at least 6 bytes:
//   0 version int16   negative: InvalidRecordException; above 0: read as version 0
//   2 coordinatorEpoch int32
//
// Values of the KRaft types: the bare flexible-version encoding (compact arrays and
// strings, a tagged-field section closing every struct; no apiKey/version prefix) of
// clients/src/main/resources/common/message/<Name>.json, always read at schema version 0
// (ControlRecordUtils.*_CURRENT_VERSION; the writers use the same constants):
//   LeaderChangeMessage   Version int16, LeaderId int32, Voters []{VoterId int32},
//                         GrantingVoters []{VoterId int32}
//   SnapshotHeaderRecord  Version int16, LastContainedLogTimestamp int64
//   SnapshotFooterRecord  Version int16
//   KRaftVersionRecord    Version int16, KRaftVersion int16
//   VotersRecord          Version int16, Voters []{VoterId int32, VoterDirectoryId uuid,
//                         Endpoints []{Name string, Host string, Port uint16},
//                         KRaftVersionFeature {MinSupportedVersion int16,
//                         MaxSupportedVersion int16}}
// A short value throws (Kafka's generated readers throw too); unknown tagged fields are
// skipped; bytes after the message are ignored by Kafka and noted here.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/uuid.hpp"

namespace kepoch {

enum class ControlRecordType : std::int16_t {
  abort = 0,
  commit = 1,
  leader_change = 2,
  snapshot_header = 3,
  snapshot_footer = 4,
  kraft_version = 5,
  kraft_voters = 6,
  unknown = -1,
};

// "abort", "commit", "leader_change", "snapshot_header", "snapshot_footer",
// "kraft_version", "kraft_voters", "unknown".
std::string_view control_type_name(ControlRecordType type);

struct ControlEndpoint {
  std::string name;
  std::string host;
  std::uint16_t port = 0;
};

struct ControlVoter {
  std::int32_t voter_id = -1;
  std::optional<Uuid> voter_directory_id;  // VotersRecord only
  std::vector<ControlEndpoint> endpoints;  // VotersRecord only
  std::int16_t min_supported_version = 0;  // VotersRecord's KRaftVersionFeature
  std::int16_t max_supported_version = 0;
};

struct ControlRecord {
  std::int16_t key_version = 0;
  std::int16_t type_id = -1;
  ControlRecordType type = ControlRecordType::unknown;
  std::optional<std::int16_t> version;                       // the value's Version field
  std::optional<std::int32_t> coordinator_epoch;             // ABORT, COMMIT
  std::optional<std::int32_t> leader_id;                     // LEADER_CHANGE
  std::vector<ControlVoter> voters;                          // LEADER_CHANGE, KRAFT_VOTERS
  std::vector<ControlVoter> granting_voters;                 // LEADER_CHANGE
  std::optional<std::int64_t> last_contained_log_timestamp;  // SNAPSHOT_HEADER
  std::optional<std::int16_t> kraft_version;                 // KRAFT_VERSION
  // What Kafka reads past without failing: a key or value version it parses as another, an
  // unknown type, unknown tagged fields, bytes after the message.
  std::vector<std::string> notes;
};

// Reads the key only (ControlRecordType.parseTypeId). `position` is the file position of
// the key's first byte (or of the batch, for compressed data). Throws FormatError with
// Kafka's message when the key is null, shorter than 4 bytes or of negative version.
ControlRecord parse_control_key(std::optional<std::span<const std::uint8_t>> key,
                                std::uint64_t position);

// Decodes the value into `record` (whose key parse_control_key read). Throws FormatError
// with Kafka's message when the value is null, short, or of negative version (markers).
void parse_control_value(ControlRecord& record, std::optional<std::span<const std::uint8_t>> value,
                         std::uint64_t position);

}  // namespace kepoch
