#pragma once
// ListOffsets (api key 2), typed: a partition's offset at a timestamp, or its earliest /
// latest offsets (the special timestamps below). Mirrors ListOffsetsRequest and
// ListOffsetsResponse of Kafka's clients.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/offset_for_leader_epoch.hpp"
#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

// ListOffsetsRequest's special timestamps.
inline constexpr std::int64_t kLatestTimestamp = -1;
inline constexpr std::int64_t kEarliestTimestamp = -2;
inline constexpr std::int64_t kMaxTimestamp = -3;            // v7+
inline constexpr std::int64_t kEarliestLocalTimestamp = -4;  // v8+
inline constexpr std::int64_t kLatestTieredTimestamp = -5;   // v9+

// The lowest ListOffsets version that carries `timestamp` (ListOffsetsRequest.Builder's
// minVersion: 9 with requireTieredStorageTimestamp (KIP-1005, Kafka 3.9), 8 with
// requireEarliestLocalTimestamp (KIP-405, 3.4), 7 with requireMaxTimestamp (KIP-734, 3.0),
// else 0). A broker whose highest version is below it cannot be asked: the Java client throws
// UnsupportedVersionException rather than send it.
std::int16_t list_offsets_min_version(std::int64_t timestamp);

struct OffsetQuery {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t timestamp = kLatestTimestamp;
  std::int32_t current_leader_epoch = -1;  // v4+; -1 = not checked
};

// isolation_level: 0 read uncommitted, 1 read committed (v2+, an error below with 1).
// timeout_ms (v10+, dropped below): how long a broker may wait for tiered storage.
Struct make_list_offsets_request(std::span<const OffsetQuery> queries,
                                 std::int8_t isolation_level = 0,
                                 std::int32_t replica_id = kConsumerReplicaId,
                                 std::int32_t timeout_ms = 0);

struct ListedOffset {
  std::string topic;
  std::int32_t partition = 0;
  std::int16_t error_code = 0;
  std::int64_t timestamp = -1;
  std::int64_t offset = -1;
  std::int32_t leader_epoch = -1;  // -1 below v4
};

struct ListOffsetsResponse {
  std::int32_t throttle_time_ms = 0;
  std::vector<ListedOffset> partitions;  // every topic's, flattened

  static ListOffsetsResponse from(const Struct& body);
};

}  // namespace kepoch::cluster::protocol
