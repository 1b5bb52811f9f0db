#pragma once
// The consumer-group APIs, typed, as Kafka's Admin client uses them for
// `kafka-consumer-groups.sh --describe`: ListGroups (the groups one broker coordinates,
// with state and type where the broker has them) and OffsetFetch (a group's committed
// offsets with their leader epochs, KIP-320, at the group's coordinator: FindCoordinator
// with key type group, transactions.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

Struct make_list_groups_request();

struct ListedGroup {
  std::string group_id;
  std::string protocol_type;  // "consumer" for consumer groups, "" for KIP-848 ones too
  std::string state;          // v4+; "" below
  std::string type;           // v5+ ("classic", "consumer", "share", "streams"); "" below
};

struct ListGroupsResult {
  std::int16_t error_code = 0;
  std::vector<ListedGroup> groups;
};

ListGroupsResult list_groups_from(const Struct& body);

// Every topic's committed offsets of each group (topics null). v8+ asks for many groups at
// once; below, `groups` must hold one. require_stable is false, as kafka-consumer-groups'
// listConsumerGroupOffsets asks (a pending transactional commit is not waited for).
Struct make_offset_fetch_request(std::int16_t version, const std::vector<std::string>& groups);

struct FetchedOffset {
  std::string group_id;
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t committed_offset = -1;
  std::int32_t committed_leader_epoch = -1;  // -1: none (or v1-4)
  std::optional<std::string> metadata;
  std::int16_t error_code = 0;
};

struct GroupOffsets {
  std::string group_id;
  std::int16_t error_code = 0;
  std::vector<FetchedOffset> offsets;
};

// Below v8 the one group is `single_group`. v10 names topics by id only: kepoch sends
// OffsetFetch at v9 at most, so names come back.
std::vector<GroupOffsets> offset_fetch_from(const Struct& body, const std::string& single_group);

}  // namespace kepoch::cluster::protocol
