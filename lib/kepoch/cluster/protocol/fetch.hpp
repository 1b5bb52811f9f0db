#pragma once
// Fetch (api key 1), typed, as a consumer sends it: a sessionless full fetch (session id 0,
// session epoch -1, Kafka's FetchMetadata.LEGACY) from a replica id of -1, reading below
// the high watermark. Mirrors FetchRequest.Builder.forConsumer and FetchResponse of Kafka's
// clients. The record data of each partition is kept as the broker sent it: a run of record
// batches, the last of which may be cut short by the size limits (see
// cluster/fetched_batches.hpp for reading their headers).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

// FetchRequest's isolation levels (IsolationLevel).
inline constexpr std::int8_t kReadUncommitted = 0;
inline constexpr std::int8_t kReadCommitted = 1;

struct FetchQuery {
  std::string topic;  // sent below v13
  Uuid topic_id;      // sent from v13 (where the name is not)
  std::int32_t partition = 0;
  std::int64_t fetch_offset = 0;
  std::int32_t partition_max_bytes = 1 << 20;
  std::int32_t current_leader_epoch = -1;  // v9+; -1 = not checked
};

struct FetchOptions {
  std::int32_t max_wait_ms = 0;  // answer at once with whatever there is
  std::int32_t min_bytes = 1;
  std::int32_t max_bytes = 0x7fffffff;  // the whole response; KIP-74 may exceed it by a batch
  std::int8_t isolation_level = kReadUncommitted;
};

// Partitions of a topic are grouped under it (by name), in the order first seen. Both the
// name and the id are set; the version sent keeps the one it has.
Struct make_fetch_request(std::span<const FetchQuery> partitions,
                          const FetchOptions& options = FetchOptions{});

struct FetchedPartition {
  std::string topic;  // empty from v13
  Uuid topic_id;      // zero below v13
  std::int32_t partition = 0;
  std::int16_t error_code = 0;
  std::int64_t high_watermark = -1;
  std::int64_t last_stable_offset = -1;
  std::int64_t log_start_offset = -1;  // -1 below v5
  // The leader the broker knows of (v12+, with NOT_LEADER_OR_FOLLOWER and
  // FENCED_LEADER_EPOCH); -1 when it did not say.
  std::int32_t current_leader_id = -1;
  std::int32_t current_leader_epoch = -1;
  std::int32_t preferred_read_replica = -1;  // v11+
  Bytes records;                             // empty when the broker sent null
};

struct FetchResponse {
  std::int32_t throttle_time_ms = 0;
  std::int16_t error_code = 0;  // v7+: the whole request's error (a fetch session's)
  std::int32_t session_id = 0;
  std::vector<FetchedPartition> partitions;  // every topic's, flattened

  static FetchResponse from(const Struct& body);
};

}  // namespace kepoch::cluster::protocol
