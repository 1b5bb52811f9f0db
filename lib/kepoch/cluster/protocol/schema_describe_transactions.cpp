// DescribeTransactionsRequest / DescribeTransactionsResponse (api key 65, KIP-664), as
// Kafka 4.1.1's JSON defines them: valid version 0, flexible. Asked of the transaction
// coordinator (FindCoordinator, key type 1). Request: transactional_ids [string].
// Response: throttle_time_ms int32, transaction_states [error_code int16, transactional_id
// string, transaction_state string, transaction_timeout_ms int32,
// transaction_start_time_ms int64, producer_id int64, producer_epoch int16, topics [topic
// string, partitions [int32]]]: an ongoing transaction's partitions, or a preparing one's
// partitions still without their marker.
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestFields[] = {
    {.name = "transactional_ids", .type = kArray, .versions = since(0), .element_type = kString},
};

constexpr FieldSchema kTopicFields[] = {
    {.name = "topic", .type = kString, .versions = since(0)},
    {.name = "partitions", .type = kArray, .versions = since(0), .element_type = kInt32},
};
constexpr StructSchema kTopic{"TopicData", kTopicFields};

constexpr FieldSchema kStateFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "transactional_id", .type = kString, .versions = since(0)},
    {.name = "transaction_state", .type = kString, .versions = since(0)},
    {.name = "transaction_timeout_ms", .type = kInt32, .versions = since(0)},
    {.name = "transaction_start_time_ms", .type = kInt64, .versions = since(0)},
    {.name = "producer_id", .type = kInt64, .versions = since(0)},
    {.name = "producer_epoch", .type = kInt16, .versions = since(0)},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kTopic},
};
constexpr StructSchema kState{"TransactionState", kStateFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(0)},
    {.name = "transaction_states", .type = kArray, .versions = since(0), .fields = &kState},
};

}  // namespace

constinit const MessageSchema kDescribeTransactionsRequest{
    ApiKey::kDescribeTransactions, MessageKind::kRequest, between(0, 0), since(0),
    StructSchema{"DescribeTransactionsRequest", kRequestFields}};

constinit const MessageSchema kDescribeTransactionsResponse{
    ApiKey::kDescribeTransactions, MessageKind::kResponse, between(0, 0), since(0),
    StructSchema{"DescribeTransactionsResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
