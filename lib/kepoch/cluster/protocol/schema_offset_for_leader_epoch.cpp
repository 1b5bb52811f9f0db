// OffsetForLeaderEpochRequest / OffsetForLeaderEpochResponse (api key 23, Kafka's
// OFFSET_FOR_LEADER_EPOCH), as Kafka 4.1.1's OffsetForLeaderEpochRequest.json and
// OffsetForLeaderEpochResponse.json define them: valid versions 2-4, flexible from 4.
// Wire layout of the response body:
//   throttle_time_ms int32, topics [topic string, partitions [error_code int16, partition
//   int32, leader_epoch int32, end_offset int64]]
// Request: replica_id int32 (v3+; default -2, a consumer sends -1), topics [topic,
// partitions [partition, current_leader_epoch, leader_epoch]].
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestPartitionFields[] = {
    {.name = "partition", .type = kInt32, .versions = since(0)},
    {.name = "current_leader_epoch",
     .type = kInt32,
     .versions = since(2),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "leader_epoch", .type = kInt32, .versions = since(0)},
};
constexpr StructSchema kRequestPartition{"OffsetForLeaderPartition", kRequestPartitionFields};

constexpr FieldSchema kRequestTopicFields[] = {
    {.name = "topic", .type = kString, .versions = since(0)},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kRequestPartition},
};
constexpr StructSchema kRequestTopic{"OffsetForLeaderTopic", kRequestTopicFields};

constexpr FieldSchema kRequestFields[] = {
    {.name = "replica_id",
     .type = kInt32,
     .versions = since(3),
     .ignorable = true,
     .default_value = "-2"},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kRequestTopic},
};

constexpr FieldSchema kEpochEndOffsetFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "partition", .type = kInt32, .versions = since(0)},
    {.name = "leader_epoch",
     .type = kInt32,
     .versions = since(1),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "end_offset", .type = kInt64, .versions = since(0), .default_value = "-1"},
};
constexpr StructSchema kEpochEndOffset{"EpochEndOffset", kEpochEndOffsetFields};

constexpr FieldSchema kResponseTopicFields[] = {
    {.name = "topic", .type = kString, .versions = since(0)},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kEpochEndOffset},
};
constexpr StructSchema kResponseTopic{"OffsetForLeaderTopicResult", kResponseTopicFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(2), .ignorable = true},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kResponseTopic},
};

}  // namespace

constinit const MessageSchema kOffsetForLeaderEpochRequest{
    ApiKey::kOffsetForLeaderEpoch, MessageKind::kRequest, between(2, 4), since(4),
    StructSchema{"OffsetForLeaderEpochRequest", kRequestFields}};

constinit const MessageSchema kOffsetForLeaderEpochResponse{
    ApiKey::kOffsetForLeaderEpoch, MessageKind::kResponse, between(2, 4), since(4),
    StructSchema{"OffsetForLeaderEpochResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
