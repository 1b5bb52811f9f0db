// DescribeTopicPartitionsRequest / DescribeTopicPartitionsResponse (api key 75), as Kafka
// 4.1.1's DescribeTopicPartitionsRequest.json and DescribeTopicPartitionsResponse.json
// define them: version 0 only, flexible. Wire layout of the response body:
//   throttle_time_ms int32, topics [error_code int16, name nullable string, topic_id uuid,
//   is_internal bool, partitions [error_code int16, partition_index int32, leader_id int32,
//   leader_epoch int32, replica_nodes [int32], isr_nodes [int32], eligible_leader_replicas
//   nullable [int32], last_known_elr nullable [int32], offline_replicas [int32]],
//   topic_authorized_operations int32], next_cursor nullable struct (int8 -1 / 1, then
//   topic_name string, partition_index int32)
// Request: topics [name], response_partition_limit int32 (default 2000), cursor nullable.
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kCursorFields[] = {
    {.name = "topic_name", .type = kString, .versions = since(0)},
    {.name = "partition_index", .type = kInt32, .versions = since(0)},
};
constexpr StructSchema kCursor{"Cursor", kCursorFields};

constexpr FieldSchema kTopicRequestFields[] = {
    {.name = "name", .type = kString, .versions = since(0)},
};
constexpr StructSchema kTopicRequest{"TopicRequest", kTopicRequestFields};

constexpr FieldSchema kRequestFields[] = {
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kTopicRequest},
    {.name = "response_partition_limit",
     .type = kInt32,
     .versions = since(0),
     .default_value = "2000"},
    {.name = "cursor",
     .type = kStruct,
     .versions = since(0),
     .nullable_versions = since(0),
     .default_value = "null",
     .fields = &kCursor},
};

constexpr FieldSchema kPartitionFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "partition_index", .type = kInt32, .versions = since(0)},
    {.name = "leader_id", .type = kInt32, .versions = since(0)},
    {.name = "leader_epoch",
     .type = kInt32,
     .versions = since(0),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "replica_nodes", .type = kArray, .versions = since(0), .element_type = kInt32},
    {.name = "isr_nodes", .type = kArray, .versions = since(0), .element_type = kInt32},
    {.name = "eligible_leader_replicas",
     .type = kArray,
     .versions = since(0),
     .nullable_versions = since(0),
     .default_value = "null",
     .element_type = kInt32},
    {.name = "last_known_elr",
     .type = kArray,
     .versions = since(0),
     .nullable_versions = since(0),
     .default_value = "null",
     .element_type = kInt32},
    {.name = "offline_replicas",
     .type = kArray,
     .versions = since(0),
     .ignorable = true,
     .element_type = kInt32},
};
constexpr StructSchema kPartition{"DescribeTopicPartitionsResponsePartition", kPartitionFields};

constexpr FieldSchema kTopicFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "name", .type = kString, .versions = since(0), .nullable_versions = since(0)},
    {.name = "topic_id", .type = kUuid, .versions = since(0), .ignorable = true},
    {.name = "is_internal",
     .type = kBool,
     .versions = since(0),
     .ignorable = true,
     .default_value = "false"},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kPartition},
    {.name = "topic_authorized_operations",
     .type = kInt32,
     .versions = since(0),
     .default_value = "-2147483648"},
};
constexpr StructSchema kTopic{"DescribeTopicPartitionsResponseTopic", kTopicFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(0), .ignorable = true},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kTopic},
    {.name = "next_cursor",
     .type = kStruct,
     .versions = since(0),
     .nullable_versions = since(0),
     .default_value = "null",
     .fields = &kCursor},
};

}  // namespace

constinit const MessageSchema kDescribeTopicPartitionsRequest{
    ApiKey::kDescribeTopicPartitions, MessageKind::kRequest, between(0, 0), since(0),
    StructSchema{"DescribeTopicPartitionsRequest", kRequestFields}};

constinit const MessageSchema kDescribeTopicPartitionsResponse{
    ApiKey::kDescribeTopicPartitions, MessageKind::kResponse, between(0, 0), since(0),
    StructSchema{"DescribeTopicPartitionsResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
