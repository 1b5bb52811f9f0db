// DescribeLogDirsRequest / DescribeLogDirsResponse (api key 35), as Kafka 4.1.1's
// DescribeLogDirsRequest.json and DescribeLogDirsResponse.json define them: valid versions
// 1-4, flexible from 2. Wire layout of the response body (v4):
//   throttle_time_ms int32, error_code int16 (v3+), results [error_code int16, log_dir
//   string, topics [name string, partitions [partition_index int32, partition_size int64,
//   offset_lag int64, is_future_key bool]], total_bytes int64, usable_bytes int64 (v4+)]
// Request: topics nullable [topic string, partitions [int32]]; null asks for every topic.
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestTopicFields[] = {
    {.name = "topic", .type = kString, .versions = since(0)},
    {.name = "partitions", .type = kArray, .versions = since(0), .element_type = kInt32},
};
constexpr StructSchema kRequestTopic{"DescribableLogDirTopic", kRequestTopicFields};

constexpr FieldSchema kRequestFields[] = {
    {.name = "topics",
     .type = kArray,
     .versions = since(0),
     .nullable_versions = since(0),
     .fields = &kRequestTopic},
};

constexpr FieldSchema kPartitionFields[] = {
    {.name = "partition_index", .type = kInt32, .versions = since(0)},
    {.name = "partition_size", .type = kInt64, .versions = since(0)},
    {.name = "offset_lag", .type = kInt64, .versions = since(0)},
    {.name = "is_future_key", .type = kBool, .versions = since(0)},
};
constexpr StructSchema kPartition{"DescribeLogDirsPartition", kPartitionFields};

constexpr FieldSchema kTopicFields[] = {
    {.name = "name", .type = kString, .versions = since(0)},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kPartition},
};
constexpr StructSchema kTopic{"DescribeLogDirsTopic", kTopicFields};

constexpr FieldSchema kResultFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "log_dir", .type = kString, .versions = since(0)},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kTopic},
    {.name = "total_bytes",
     .type = kInt64,
     .versions = since(4),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "usable_bytes",
     .type = kInt64,
     .versions = since(4),
     .ignorable = true,
     .default_value = "-1"},
};
constexpr StructSchema kResult{"DescribeLogDirsResult", kResultFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(0)},
    {.name = "error_code", .type = kInt16, .versions = since(3), .ignorable = true},
    {.name = "results", .type = kArray, .versions = since(0), .fields = &kResult},
};

}  // namespace

constinit const MessageSchema kDescribeLogDirsRequest{
    ApiKey::kDescribeLogDirs, MessageKind::kRequest, between(1, 4), since(2),
    StructSchema{"DescribeLogDirsRequest", kRequestFields}};

constinit const MessageSchema kDescribeLogDirsResponse{
    ApiKey::kDescribeLogDirs, MessageKind::kResponse, between(1, 4), since(2),
    StructSchema{"DescribeLogDirsResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
