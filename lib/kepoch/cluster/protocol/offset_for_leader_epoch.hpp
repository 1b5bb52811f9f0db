#pragma once
// OffsetForLeaderEpoch (api key 23), typed: for a partition and a leader epoch, the end
// offset of that epoch on the broker's log (the follower-truncation question of
// epoch/truncation.hpp, asked of a live leader). Mirrors OffsetsForLeaderEpochRequest and
// OffsetsForLeaderEpochResponse of Kafka's clients.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

// Kafka's replica ids for a client (OffsetsForLeaderEpochRequest).
inline constexpr std::int32_t kConsumerReplicaId = -1;
inline constexpr std::int32_t kDebuggingReplicaId = -2;

struct EpochQuery {
  std::string topic;
  std::int32_t partition = 0;
  std::int32_t leader_epoch = 0;           // the epoch whose end offset is wanted
  std::int32_t current_leader_epoch = -1;  // fences stale metadata; -1 = not checked
};

// Partitions of a topic are grouped under it, in the order first seen. replica_id is v3+.
Struct make_offset_for_leader_epoch_request(std::span<const EpochQuery> queries,
                                            std::int32_t replica_id = kConsumerReplicaId);

struct EpochEndOffset {
  std::string topic;
  std::int32_t partition = 0;
  std::int16_t error_code = 0;
  std::int32_t leader_epoch = -1;  // the largest epoch <= the one asked for
  std::int64_t end_offset = -1;
};

struct OffsetForLeaderEpochResponse {
  std::int32_t throttle_time_ms = 0;
  std::vector<EpochEndOffset> partitions;  // every topic's, flattened

  static OffsetForLeaderEpochResponse from(const Struct& body);
};

}  // namespace kepoch::cluster::protocol
