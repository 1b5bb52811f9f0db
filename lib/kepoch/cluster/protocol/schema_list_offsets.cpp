// ListOffsetsRequest / ListOffsetsResponse (api key 2), as Kafka 4.1.1's
// ListOffsetsRequest.json and ListOffsetsResponse.json define them: valid versions 1-10,
// flexible from 6. Wire layout of the response body:
//   throttle_time_ms int32 (v2+), topics [name string, partitions [partition_index int32,
//   error_code int16, timestamp int64, offset int64, leader_epoch int32 (v4+)]]
// Request: replica_id int32, isolation_level int8 (v2+), topics [name, partitions
// [partition_index, current_leader_epoch (v4+), timestamp]], timeout_ms int32 (v10+).
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestPartitionFields[] = {
    {.name = "partition_index", .type = kInt32, .versions = since(0)},
    {.name = "current_leader_epoch",
     .type = kInt32,
     .versions = since(4),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "timestamp", .type = kInt64, .versions = since(0)},
};
constexpr StructSchema kRequestPartition{"ListOffsetsPartition", kRequestPartitionFields};

constexpr FieldSchema kRequestTopicFields[] = {
    {.name = "name", .type = kString, .versions = since(0)},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kRequestPartition},
};
constexpr StructSchema kRequestTopic{"ListOffsetsTopic", kRequestTopicFields};

constexpr FieldSchema kRequestFields[] = {
    {.name = "replica_id", .type = kInt32, .versions = since(0)},
    {.name = "isolation_level", .type = kInt8, .versions = since(2)},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kRequestTopic},
    {.name = "timeout_ms", .type = kInt32, .versions = since(10), .ignorable = true},
};

constexpr FieldSchema kResponsePartitionFields[] = {
    {.name = "partition_index", .type = kInt32, .versions = since(0)},
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "timestamp", .type = kInt64, .versions = since(1), .default_value = "-1"},
    {.name = "offset", .type = kInt64, .versions = since(1), .default_value = "-1"},
    {.name = "leader_epoch", .type = kInt32, .versions = since(4), .default_value = "-1"},
};
constexpr StructSchema kResponsePartition{"ListOffsetsPartitionResponse", kResponsePartitionFields};

constexpr FieldSchema kResponseTopicFields[] = {
    {.name = "name", .type = kString, .versions = since(0)},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kResponsePartition},
};
constexpr StructSchema kResponseTopic{"ListOffsetsTopicResponse", kResponseTopicFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(2), .ignorable = true},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kResponseTopic},
};

}  // namespace

constinit const MessageSchema kListOffsetsRequest{
    ApiKey::kListOffsets, MessageKind::kRequest, between(1, 10), since(6),
    StructSchema{"ListOffsetsRequest", kRequestFields}};

constinit const MessageSchema kListOffsetsResponse{
    ApiKey::kListOffsets, MessageKind::kResponse, between(1, 10), since(6),
    StructSchema{"ListOffsetsResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
