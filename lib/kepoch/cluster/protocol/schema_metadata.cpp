// MetadataRequest / MetadataResponse (api key 3), as Kafka 4.1.1's MetadataRequest.json and
// MetadataResponse.json define them: valid versions 0-13, flexible from 9. Wire layout of
// the response body (v13):
//   throttle_time_ms int32, brokers [node_id int32, host string, port int32, rack
//   nullable string], cluster_id nullable string, controller_id int32, topics [error_code
//   int16, name nullable string, topic_id uuid, is_internal bool, partitions [error_code
//   int16, partition_index int32, leader_id int32, leader_epoch int32, replica_nodes
//   [int32], isr_nodes [int32], offline_replicas [int32]], topic_authorized_operations
//   int32], error_code int16 -- each struct followed by its tagged fields.
// In v0 an empty topic array asks for every topic; from v1 that is a null array.
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestTopicFields[] = {
    {.name = "topic_id", .type = kUuid, .versions = since(10), .ignorable = true},
    {.name = "name", .type = kString, .versions = since(0), .nullable_versions = since(10)},
};
constexpr StructSchema kRequestTopic{"MetadataRequestTopic", kRequestTopicFields};

constexpr FieldSchema kRequestFields[] = {
    {.name = "topics",
     .type = kArray,
     .versions = since(0),
     .nullable_versions = since(1),
     .fields = &kRequestTopic},
    {.name = "allow_auto_topic_creation",
     .type = kBool,
     .versions = since(4),
     .default_value = "true"},
    {.name = "include_cluster_authorized_operations", .type = kBool, .versions = between(8, 10)},
    {.name = "include_topic_authorized_operations", .type = kBool, .versions = since(8)},
};

constexpr FieldSchema kBrokerFields[] = {
    {.name = "node_id", .type = kInt32, .versions = since(0)},
    {.name = "host", .type = kString, .versions = since(0)},
    {.name = "port", .type = kInt32, .versions = since(0)},
    {.name = "rack",
     .type = kString,
     .versions = since(1),
     .nullable_versions = since(1),
     .ignorable = true,
     .default_value = "null"},
};
constexpr StructSchema kBroker{"MetadataResponseBroker", kBrokerFields};

constexpr FieldSchema kPartitionFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "partition_index", .type = kInt32, .versions = since(0)},
    {.name = "leader_id", .type = kInt32, .versions = since(0)},
    {.name = "leader_epoch",
     .type = kInt32,
     .versions = since(7),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "replica_nodes", .type = kArray, .versions = since(0), .element_type = kInt32},
    {.name = "isr_nodes", .type = kArray, .versions = since(0), .element_type = kInt32},
    {.name = "offline_replicas",
     .type = kArray,
     .versions = since(5),
     .ignorable = true,
     .element_type = kInt32},
};
constexpr StructSchema kPartition{"MetadataResponsePartition", kPartitionFields};

constexpr FieldSchema kTopicFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "name", .type = kString, .versions = since(0), .nullable_versions = since(12)},
    {.name = "topic_id", .type = kUuid, .versions = since(10), .ignorable = true},
    {.name = "is_internal",
     .type = kBool,
     .versions = since(1),
     .ignorable = true,
     .default_value = "false"},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kPartition},
    {.name = "topic_authorized_operations",
     .type = kInt32,
     .versions = since(8),
     .default_value = "-2147483648"},
};
constexpr StructSchema kTopic{"MetadataResponseTopic", kTopicFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(3), .ignorable = true},
    {.name = "brokers", .type = kArray, .versions = since(0), .fields = &kBroker},
    {.name = "cluster_id",
     .type = kString,
     .versions = since(2),
     .nullable_versions = since(2),
     .ignorable = true,
     .default_value = "null"},
    {.name = "controller_id",
     .type = kInt32,
     .versions = since(1),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kTopic},
    {.name = "cluster_authorized_operations",
     .type = kInt32,
     .versions = between(8, 10),
     .default_value = "-2147483648"},
    {.name = "error_code", .type = kInt16, .versions = since(13), .ignorable = true},
};

}  // namespace

constinit const MessageSchema kMetadataRequest{ApiKey::kMetadata, MessageKind::kRequest,
                                               between(0, 13), since(9),
                                               StructSchema{"MetadataRequest", kRequestFields}};

constinit const MessageSchema kMetadataResponse{ApiKey::kMetadata, MessageKind::kResponse,
                                                between(0, 13), since(9),
                                                StructSchema{"MetadataResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
