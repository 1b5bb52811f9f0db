// DescribeProducersRequest / DescribeProducersResponse (api key 61, KIP-664), as Kafka
// 4.1.1's JSON defines them: valid version 0, flexible. Asked of a partition's leader.
// Request: topics [name string, partition_indexes [int32]]. Response: throttle_time_ms
// int32, topics [name, partitions [partition_index int32, error_code int16, error_message
// nullable string, active_producers [producer_id int64, producer_epoch int32, last_sequence
// int32, last_timestamp int64, coordinator_epoch int32, current_txn_start_offset int64]]].
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestTopicFields[] = {
    {.name = "name", .type = kString, .versions = since(0)},
    {.name = "partition_indexes", .type = kArray, .versions = since(0), .element_type = kInt32},
};
constexpr StructSchema kRequestTopic{"TopicRequest", kRequestTopicFields};

constexpr FieldSchema kRequestFields[] = {
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kRequestTopic},
};

constexpr FieldSchema kProducerFields[] = {
    {.name = "producer_id", .type = kInt64, .versions = since(0)},
    {.name = "producer_epoch", .type = kInt32, .versions = since(0)},
    {.name = "last_sequence", .type = kInt32, .versions = since(0), .default_value = "-1"},
    {.name = "last_timestamp", .type = kInt64, .versions = since(0), .default_value = "-1"},
    {.name = "coordinator_epoch", .type = kInt32, .versions = since(0)},
    {.name = "current_txn_start_offset",
     .type = kInt64,
     .versions = since(0),
     .default_value = "-1"},
};
constexpr StructSchema kProducer{"ProducerState", kProducerFields};

constexpr FieldSchema kPartitionFields[] = {
    {.name = "partition_index", .type = kInt32, .versions = since(0)},
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "error_message",
     .type = kString,
     .versions = since(0),
     .nullable_versions = since(0),
     .default_value = "null"},
    {.name = "active_producers", .type = kArray, .versions = since(0), .fields = &kProducer},
};
constexpr StructSchema kPartition{"PartitionResponse", kPartitionFields};

constexpr FieldSchema kTopicFields[] = {
    {.name = "name", .type = kString, .versions = since(0)},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kPartition},
};
constexpr StructSchema kTopic{"TopicResponse", kTopicFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(0)},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kTopic},
};

}  // namespace

constinit const MessageSchema kDescribeProducersRequest{
    ApiKey::kDescribeProducers, MessageKind::kRequest, between(0, 0), since(0),
    StructSchema{"DescribeProducersRequest", kRequestFields}};

constinit const MessageSchema kDescribeProducersResponse{
    ApiKey::kDescribeProducers, MessageKind::kResponse, between(0, 0), since(0),
    StructSchema{"DescribeProducersResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
