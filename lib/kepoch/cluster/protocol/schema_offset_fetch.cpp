// OffsetFetchRequest / OffsetFetchResponse (api key 9), as Kafka 4.1.1's JSON defines them:
// valid versions 1-10, flexible from 6. Asked of the group's coordinator (FindCoordinator,
// key type group). Request, v1-7 one group: group_id string, topics [name string,
// partition_indexes [int32]] (nullable v2+: null is every topic); v8+ many: groups
// [group_id, member_id nullable string (v9+), member_epoch int32 (v9+), topics (nullable)
// [name (v8-9), topic_id uuid (v10+), partition_indexes]]; require_stable bool (v7+).
// Response: throttle_time_ms int32 (v3+); v1-7: topics [name, partitions [partition_index
// int32, committed_offset int64, committed_leader_epoch int32 (v5+), metadata nullable
// string, error_code int16]], error_code int16 (v2+); v8+: groups [group_id, topics [name
// (v8-9), topic_id (v10+), partitions [the same five]], error_code].
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestTopicFields[] = {
    {.name = "name", .type = kString, .versions = between(0, 7)},
    {.name = "partition_indexes",
     .type = kArray,
     .versions = between(0, 7),
     .element_type = kInt32},
};
constexpr StructSchema kRequestTopic{"OffsetFetchRequestTopic", kRequestTopicFields};

constexpr FieldSchema kRequestGroupTopicFields[] = {
    {.name = "name", .type = kString, .versions = between(8, 9), .ignorable = true},
    {.name = "topic_id", .type = kUuid, .versions = since(10), .ignorable = true},
    {.name = "partition_indexes", .type = kArray, .versions = since(8), .element_type = kInt32},
};
constexpr StructSchema kRequestGroupTopic{"OffsetFetchRequestTopics", kRequestGroupTopicFields};

constexpr FieldSchema kRequestGroupFields[] = {
    {.name = "group_id", .type = kString, .versions = since(8)},
    {.name = "member_id",
     .type = kString,
     .versions = since(9),
     .nullable_versions = since(9),
     .ignorable = true,
     .default_value = "null"},
    {.name = "member_epoch",
     .type = kInt32,
     .versions = since(9),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "topics",
     .type = kArray,
     .versions = since(8),
     .nullable_versions = since(8),
     .fields = &kRequestGroupTopic},
};
constexpr StructSchema kRequestGroup{"OffsetFetchRequestGroup", kRequestGroupFields};

constexpr FieldSchema kRequestFields[] = {
    {.name = "group_id", .type = kString, .versions = between(0, 7)},
    {.name = "topics",
     .type = kArray,
     .versions = between(0, 7),
     .nullable_versions = between(2, 7),
     .fields = &kRequestTopic},
    {.name = "groups", .type = kArray, .versions = since(8), .fields = &kRequestGroup},
    {.name = "require_stable", .type = kBool, .versions = since(7), .default_value = "false"},
};

constexpr FieldSchema kPartitionFields[] = {
    {.name = "partition_index", .type = kInt32, .versions = between(0, 7)},
    {.name = "committed_offset", .type = kInt64, .versions = between(0, 7)},
    {.name = "committed_leader_epoch",
     .type = kInt32,
     .versions = between(5, 7),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "metadata",
     .type = kString,
     .versions = between(0, 7),
     .nullable_versions = between(0, 7)},
    {.name = "error_code", .type = kInt16, .versions = between(0, 7)},
};
constexpr StructSchema kPartition{"OffsetFetchResponsePartition", kPartitionFields};

constexpr FieldSchema kTopicFields[] = {
    {.name = "name", .type = kString, .versions = between(0, 7)},
    {.name = "partitions", .type = kArray, .versions = between(0, 7), .fields = &kPartition},
};
constexpr StructSchema kTopic{"OffsetFetchResponseTopic", kTopicFields};

constexpr FieldSchema kGroupPartitionFields[] = {
    {.name = "partition_index", .type = kInt32, .versions = since(8)},
    {.name = "committed_offset", .type = kInt64, .versions = since(8)},
    {.name = "committed_leader_epoch",
     .type = kInt32,
     .versions = since(8),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "metadata", .type = kString, .versions = since(8), .nullable_versions = since(8)},
    {.name = "error_code", .type = kInt16, .versions = since(8)},
};
constexpr StructSchema kGroupPartition{"OffsetFetchResponsePartitions", kGroupPartitionFields};

constexpr FieldSchema kGroupTopicFields[] = {
    {.name = "name", .type = kString, .versions = between(8, 9), .ignorable = true},
    {.name = "topic_id", .type = kUuid, .versions = since(10), .ignorable = true},
    {.name = "partitions", .type = kArray, .versions = since(8), .fields = &kGroupPartition},
};
constexpr StructSchema kGroupTopic{"OffsetFetchResponseTopics", kGroupTopicFields};

constexpr FieldSchema kGroupFields[] = {
    {.name = "group_id", .type = kString, .versions = since(8)},
    {.name = "topics", .type = kArray, .versions = since(8), .fields = &kGroupTopic},
    {.name = "error_code", .type = kInt16, .versions = since(8), .default_value = "0"},
};
constexpr StructSchema kGroup{"OffsetFetchResponseGroup", kGroupFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(3), .ignorable = true},
    {.name = "topics", .type = kArray, .versions = between(0, 7), .fields = &kTopic},
    {.name = "error_code",
     .type = kInt16,
     .versions = between(2, 7),
     .ignorable = true,
     .default_value = "0"},
    {.name = "groups", .type = kArray, .versions = since(8), .fields = &kGroup},
};

}  // namespace

constinit const MessageSchema kOffsetFetchRequest{
    ApiKey::kOffsetFetch, MessageKind::kRequest, between(1, 10), since(6),
    StructSchema{"OffsetFetchRequest", kRequestFields}};

constinit const MessageSchema kOffsetFetchResponse{
    ApiKey::kOffsetFetch, MessageKind::kResponse, between(1, 10), since(6),
    StructSchema{"OffsetFetchResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
